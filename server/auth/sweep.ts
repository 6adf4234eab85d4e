import type { Queryable } from "../db/database";
import type { Clock } from "../lib/clock";
import { Repeating } from "../lib/repeating";
import { deleteStaleChallenges } from "./challenges";
import { deleteExpiredPayloads } from "./oidc";

export interface LoginSweepOptions {
  /** Pause between two passes. */
  intervalMs: number;
  /** Rows of each table one pass deletes at most: a pass is two short statements, whatever the tables hold. */
  rows: number;
  /** The time that decides what is stale: the app's, in which the adapter computes the records' expiries. */
  clock: Clock;
}

/** How long past its expiry a row is kept: a reuse of a code or token shortly after it expired is still recognized. */
export const KEPT_PAST_EXPIRY_MS = 24 * 3600_000;

/** The app's sweep: a pass a minute, a thousand rows of each table at most (far more than logins add meanwhile). */
export const LOGIN_SWEEP: Omit<LoginSweepOptions, "clock"> = { intervalMs: 60_000, rows: 1_000 };

/**
 * Deletes, in the background, the login rows that expired over a day ago: challenges (`login_challenges`, which
 * saveChallenge clears only for a requester who asks again) and oidc-provider's records (`oidc_payloads`, which
 * nothing else deletes). Each table's owner deletes its own rows; this only says when, off any request's path.
 */
export class LoginSweeper {
  private readonly repeating: Repeating;

  constructor(
    private readonly db: Queryable,
    private readonly options: LoginSweepOptions,
    failed: (error: unknown) => void,
  ) {
    this.repeating = new Repeating(options.intervalMs, () => this.pass(), failed);
  }

  start(): void {
    this.repeating.start();
  }

  stop(): Promise<void> {
    return this.repeating.stop();
  }

  /** One pass: at most `rows` stale rows of each table. Resolves to the rows deleted of each. */
  async pass(): Promise<{ challenges: number; payloads: number }> {
    const before = new Date(this.options.clock() - KEPT_PAST_EXPIRY_MS);
    const challenges = await deleteStaleChallenges(this.db, before, this.options.rows);
    const payloads = await deleteExpiredPayloads(this.db, before, this.options.rows);
    return { challenges, payloads };
  }
}
