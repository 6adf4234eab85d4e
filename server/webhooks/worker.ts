import type { Database } from "../db/database";
import { changeData } from "../events";
import { changeLogHeads, changeRollbacks, CHANGES_CHANNEL, selectedChangesAfter, type ChangeRollback, type ChangeRow } from "../indexer";
import { toJson } from "../http/wire";
import type { Clock } from "../lib/clock";
import { randomString } from "../lib/random";
import { RunOnWake } from "../lib/run-on-wake";
import type { WebhooksConfig } from "../config/settings";
import { confirmationVerdict } from "./confirmations";
import type { Deliverer, DeliveryOutcome } from "./delivery";
import { retryAfterMs, retryDelay } from "./retries";
import { openSecret, signature } from "./secrets";
import {
  advance,
  claimDue,
  holdForSubscriptions,
  pruneDeliveries,
  recordFailure,
  release,
  type Attempt,
  type ClaimedSubscription,
} from "./subscriptions";

/** Changes one read of a subscription's backlog returns at most. */
const PAGE = 100;
/** Change ids one read looks through at most: a filter that matches little does not read the whole log at once. */
const SCAN = 10_000n;
/** How often an instance sets the subscriptions' hold on the change log. */
const HOLD_INTERVAL_MS = 60_000;

/** Which of some contracts (lower case) of a network are flagged as spam: the collections' verdicts, the operator's lists applied. */
export type SpamFlags = (network: string, contracts: readonly string[]) => Promise<Set<string>>;

/** What a worker works with: the database, its settings and clock, and how it checksums, reports, looks, sends and tells spam. */
export interface WorkerDeps {
  db: Database;
  config: WebhooksConfig & { secretKeys: Buffer[] };
  clock: Clock;
  checksum: (address: string) => string;
  events: WorkerEvents;
  /** How often it looks for retries that came due. */
  pollMs: number;
  deliverer: Deliverer;
  flagged: SpamFlags;
}

/** What the worker reports, for logs and metrics. */
export interface WorkerEvents {
  delivered(subscription: ClaimedSubscription, row: ChangeRow, milliseconds: number): void;
  failed(
    subscription: ClaimedSubscription,
    outcome: Extract<DeliveryOutcome, { ok: false }>,
    disabled: string | undefined,
    milliseconds: number,
  ): void;
  error(error: unknown): void;
}

/**
 * Delivers the change log to webhook subscriptions, in every instance. A subscription is claimed (its row leased by
 * `claimDue`, FOR UPDATE SKIP LOCKED), its changes after its cursor read and sent one at a time in log order, the
 * cursor moved past each once its receiver answered 2xx (which renews the lease): so each subscription has at most
 * one delivery in flight, on one instance, and a change is never skipped unless it is not to be sent (not yet
 * confirmed and then undone, or of a collection flagged as spam for a subscription that leaves spam out). A failure schedules a retry (exponential
 * backoff with jitter, `Retry-After` honoured) and hands the subscription back; an instance that dies holds it only
 * until its lease runs out (twice WEBHOOKS_TIMEOUT_MS), then another instance resumes at the cursor.
 */
export class WebhookWorker {
  private readonly running = new Set<Promise<void>>();
  private readonly cancel = new AbortController();
  private readonly token = randomString(12, "base64url");
  private readonly leaseMs: number;
  /** Claims what is due while slots are free (one claim at a time; a wake meanwhile claims again after). */
  private readonly claims = new RunOnWake(
    () => this.pump(),
    (error) => this.deps.events.error(error),
  );
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];
  private unlisten?: () => Promise<void>;

  private readonly db: Database;
  private readonly config: WorkerDeps["config"];
  private readonly clock: Clock;

  constructor(private readonly deps: WorkerDeps) {
    this.db = deps.db;
    this.config = deps.config;
    this.clock = deps.clock;
    this.leaseMs = 2 * deps.config.timeoutMs;
  }

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(CHANGES_CHANNEL, () => this.claims.wake());
    this.timers.push(setInterval(() => this.claims.wake(), this.deps.pollMs));
    this.timers.push(setInterval(() => this.hold(), HOLD_INTERVAL_MS));
    await this.hold();
    this.claims.wake();
  }

  /** Stops claiming, cancels the deliveries in flight (they are sent again, by this or another instance) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    const claiming = this.claims.stop();
    for (const timer of this.timers) clearInterval(timer);
    await this.unlisten?.();
    this.cancel.abort();
    await claiming;
    await Promise.all(this.running);
  }

  private async hold(): Promise<void> {
    try {
      await holdForSubscriptions(this.db, this.clock(), this.config.retentionMs);
      await pruneDeliveries(this.db, this.clock());
    } catch (error) {
      this.deps.events.error(error);
    }
  }

  private async pump(): Promise<void> {
    const free = this.config.concurrency - this.running.size;
    if (free <= 0) return;
    const { last, heads } = await changeLogHeads(this.db);
    const claimed = await claimDue(this.db, { now: this.clock(), last, heads, limit: free, leaseMs: this.leaseMs, token: this.token });
    for (const subscription of claimed) {
      const run: Promise<void> = this.deliverAll(subscription, last, heads.get(subscription.network) ?? 0)
        .catch((error) => this.deps.events.error(error))
        .finally(() => {
          this.running.delete(run);
          this.claims.wake();
        });
      this.running.add(run);
    }
  }

  /**
   * Sends the subscription's changes after its cursor up to `last`, in order, until they are all delivered, one fails,
   * one must wait for confirmations (its network's index is at `head`, as it was when `last` was read), the lease is
   * lost or the worker stops; then hands the subscription back. Changes that are not to be sent (undone before they
   * were deep enough; of a collection flagged as spam, when the subscription leaves spam out) are passed unsent.
   */
  private async deliverAll(subscription: ClaimedSubscription, last: bigint, head: number): Promise<void> {
    const { id } = subscription;
    let secrets: string[] | undefined;
    const selection = {
      network: subscription.network,
      owners: subscription.owners,
      contracts: subscription.contracts,
      kinds: subscription.kinds,
    };
    let cursor = BigInt(subscription.cursor);
    /** Moves the cursor to `to`; false when the subscription is no longer this worker's to deliver. */
    const moveTo = async (to: bigint, attempt?: Attempt) => {
      const moved = await advance(this.db, {
        id,
        token: this.token,
        from: cursor.toString(),
        cursor: to.toString(),
        now: this.clock(),
        leaseMs: this.leaseMs,
        attempt,
      });
      if (moved) cursor = to;
      return moved;
    };
    let rollbacks: ChangeRollback[] | undefined;
    while (cursor < last && !this.stopped) {
      const upTo = cursor + SCAN < last ? cursor + SCAN : last;
      const rows = await selectedChangesAfter(this.db, cursor, upTo, selection, PAGE);
      if (subscription.confirmations > 0 && rows.length > 0) rollbacks ??= await changeRollbacks(this.db, subscription.network);
      const spam = subscription.spam === "exclude" ? await this.spamOf(subscription.network, rows) : undefined;
      for (const row of rows) {
        if (this.stopped) return release(this.db, id, this.token);
        const verdict = rollbacks ? confirmationVerdict(row, rollbacks, head, subscription.confirmations) : "send";
        if (typeof verdict === "object") return release(this.db, id, this.token, verdict.waitFor);
        if (verdict === "skip" || (row.kind !== "removed" && spam?.has(row.contract))) {
          if (!(await moveTo(BigInt(row.id)))) return release(this.db, id, this.token);
          continue;
        }
        try {
          secrets ??= secretsOf(subscription, this.config.secretKeys, this.clock());
        } catch (error) {
          // A key dropped from WEBHOOKS_SECRET_KEYS (maybe on this instance only): retried as a failure, so that
          // putting it back, or another instance that has it, resumes the deliveries.
          return this.failed(subscription, row, { ok: false, failure: "secret", message: (error as Error).message }, 0);
        }
        const started = performance.now();
        const outcome = await this.deps.deliverer.send(this.request(subscription, secrets, row), this.cancel.signal);
        const milliseconds = Math.round(performance.now() - started);
        // Cancelled at shutdown: not the receiver's failure; the change is sent again after the lease.
        if (this.stopped) return release(this.db, id, this.token);
        if (!outcome.ok) return this.failed(subscription, row, outcome, milliseconds);
        if (!(await moveTo(BigInt(row.id), { status: outcome.status, failure: null, message: null, milliseconds })))
          return release(this.db, id, this.token);
        this.deps.events.delivered(subscription, row, milliseconds);
      }
      // A short page: nothing else up to `upTo` is the subscription's.
      if (rows.length < PAGE && cursor < upTo && !(await moveTo(upTo))) return release(this.db, id, this.token);
    }
    await release(this.db, id, this.token);
  }

  /**
   * The contracts flagged as spam among the rows' transfers and metadata changes. A `removed` is sent whatever the
   * verdict: the transfer it retracts may have been sent before its collection was flagged.
   */
  private async spamOf(network: string, rows: readonly ChangeRow[]): Promise<Set<string>> {
    const contracts = rows.filter((r) => r.kind === "transfer" || r.kind === "metadata").map((r) => r.contract);
    return contracts.length === 0 ? new Set() : this.deps.flagged(network, contracts);
  }

  private async failed(
    subscription: ClaimedSubscription,
    row: ChangeRow,
    outcome: Extract<DeliveryOutcome, { ok: false }>,
    milliseconds: number,
  ): Promise<void> {
    const now = this.clock();
    const failingFor = subscription.failingSince === null ? 0 : now - subscription.failingSince.getTime();
    const disable =
      outcome.failure === "gone"
        ? outcome.message
        : failingFor >= this.config.disableAfterMs
          ? `deliveries failed for ${Math.round(failingFor / 60_000)} minutes; the last: ${outcome.message}`
          : undefined;
    const delay = retryDelay(subscription.attempts + 1, retryAfterMs(outcome.retryAfter, now));
    await recordFailure(this.db, {
      id: subscription.id,
      token: this.token,
      changeId: row.id,
      attempt: { status: outcome.status ?? null, failure: outcome.failure, message: outcome.message, milliseconds },
      now,
      retryAt: now + delay,
      disable,
    });
    this.deps.events.failed(subscription, outcome, disable, milliseconds);
  }

  private request(subscription: ClaimedSubscription, secrets: string[], row: ChangeRow) {
    return deliveryRequest({
      url: subscription.url,
      subscription: subscription.id,
      secrets,
      row,
      checksum: this.deps.checksum,
      now: this.clock(),
    });
  }
}

/** The secrets that sign a subscription's deliveries: the current one, and the previous one while its overlap lasts. */
export function secretsOf(
  subscription: Pick<ClaimedSubscription, "id" | "secret" | "previousSecret" | "previousSecretUntil">,
  keys: readonly Buffer[],
  now: number,
): string[] {
  const secrets = [openSecret(subscription.secret, subscription.id, keys)];
  if (subscription.previousSecret && subscription.previousSecretUntil && subscription.previousSecretUntil.getTime() > now)
    secrets.push(openSecret(subscription.previousSecret, subscription.id, keys));
  return secrets;
}

/**
 * One change as a Standard Webhooks delivery: `webhook-id` the change-log id (the same on every retry: a receiver
 * drops what it saw), `webhook-timestamp` the time of sending in seconds, `webhook-signature` one `v1,` signature per
 * secret, separated by spaces; the body `{id, type, network, subscription, data}`, data as the event stream sends it.
 */
export function deliveryRequest(input: {
  url: string;
  subscription: string;
  secrets: readonly string[];
  row: ChangeRow;
  checksum: (address: string) => string;
  now: number;
}) {
  const { row } = input;
  const body = toJson({
    id: row.id,
    type: row.kind,
    network: row.network,
    subscription: input.subscription,
    data: changeData(row, input.checksum),
  });
  const timestamp = Math.floor(input.now / 1_000);
  return {
    url: input.url,
    body,
    headers: {
      "webhook-id": row.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": input.secrets.map((secret) => signature(secret, row.id, timestamp, body)).join(" "),
    },
  };
}
