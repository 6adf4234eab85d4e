import type { Database, Queryable } from "../db/database";
import { deleteExpiredRows } from "../db/expired-rows";
import { BoundedCache } from "../lib/bounded-cache";
import type { Clock } from "../lib/clock";
import { randomString } from "../lib/random";
import { tooManyRequests, type StatementCount } from "../rate-limits";
import { holdingsConfigJson, parseHoldingsConfig, type HoldingsConfig } from "./holdings";

export interface Challenge {
  id: string;
  address: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | null;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  network: string;
  message: string;
  format: "text" | "siwe";
  /** Who asked for it (`requesterOf` in lib/requester.ts). */
  requester: string;
  /** The collections this login asked for with the `claims` parameter (holdings.ts); null: none. */
  holdings: HoldingsConfig | null;
}

interface Row {
  id: string;
  address: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  state: string | null;
  nonce: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  network: string;
  message: string;
  format: "text" | "siwe";
  requester: string;
  holdings: unknown;
}

const fromRow = (row: Row): Challenge => ({
  id: row.id,
  address: row.address,
  clientId: row.client_id,
  redirectUri: row.redirect_uri,
  scope: row.scope,
  state: row.state,
  nonce: row.nonce,
  codeChallenge: row.code_challenge,
  codeChallengeMethod: row.code_challenge_method,
  network: row.network,
  message: row.message,
  format: row.format,
  requester: row.requester,
  holdings: parseHoldingsConfig(row.holdings, null),
});

/** Open challenges one requester may hold for one address: a new one beyond this retires the requester's oldest. */
export const OPEN_PER_ADDRESS = 5;

/**
 * Stores a challenge asked for by `requester` (see `requesterOf` in lib/requester.ts), within its quotas: of one address it keeps
 * at most {@link OPEN_PER_ADDRESS} open (the oldest beyond that is retired), and of all addresses at most
 * `maxOpen`; false when that is reached. Its expired challenges go at the same time, so a requester never has more
 * than `maxOpen` rows (plus used ones not yet expired). Other requesters' challenges are never touched: what anyone
 * asks for an address cannot retire the challenge its owner is signing. A saved challenge is remembered in `recent`,
 * this instance's memory, for the login that follows.
 */
export async function saveChallenge(
  db: Pick<Database, "query" | "transaction">,
  challenge: Omit<Challenge, "id">,
  expiresAt: Date,
  maxOpen: number,
  { recent, count }: { recent?: RecentChallenges; count?: StatementCount } = {},
): Promise<boolean> {
  const values = [
    randomString(16, "hex"),
    challenge.address.toLowerCase(),
    challenge.clientId,
    challenge.redirectUri,
    challenge.scope,
    challenge.state,
    challenge.nonce,
    challenge.codeChallenge,
    challenge.codeChallengeMethod,
    challenge.network,
    challenge.message,
    challenge.format,
    expiresAt,
    challenge.requester,
    challenge.holdings ? JSON.stringify(holdingsConfigJson(challenge.holdings)) : null,
    OPEN_PER_ADDRESS,
    maxOpen,
  ];
  // The lock, the DELETE and the INSERT below, in one round trip (migrations 0113 and 0121). Committed without waiting for the
  // WAL to reach the disk (synchronous_commit off for this transaction only): the requester's lock is released at once
  // instead of after a disk flush, so one requester's saves no longer queue behind each other's flushes. A crash of
  // PostgreSQL can then forget the challenges of its last fraction of a second, which their users ask for again;
  // redeeming a challenge commits as before, and with it every challenge saved until then.
  // With a rate-limit count to make, it is made first, one more on the requester's row of request_windows as
  // server/rate-limits' own COUNT makes it (that module owns the table), and the challenge is saved only within the limit.
  const { rows } = await db.query<{ saved: boolean | null; counted: number | null }>(
    `WITH counted AS (
       INSERT INTO request_windows AS w (family, requester, window_start, count)
       SELECT $18::text, $19::text, $20::bigint, 1 WHERE $18::text IS NOT NULL
       ON CONFLICT (family, requester, window_start) DO UPDATE SET count = w.count + 1
       RETURNING count
     )
     SELECT set_config('synchronous_commit', 'off', true), (SELECT count FROM counted) AS counted,
       CASE WHEN NOT EXISTS (SELECT 1 FROM counted WHERE count > $21::int)
         THEN login_save_challenge($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::timestamptz, $14, $15::jsonb, $16::int, $17::int)
       END AS saved`,
    [...values, count?.family ?? null, count?.requester ?? null, count?.windowStart ?? null, count?.max ?? null],
    { prepare: true },
  );
  const { counted } = rows[0];
  if (count && counted !== null) {
    count.counted(counted);
    if (counted > count.max) throw tooManyRequests(count.ttl);
  }
  if (rows[0].saved === true) recent?.remember({ ...challenge, id: values[0] as string, address: values[1] as string }, expiresAt);
  return rows[0].saved === true;
}

/**
 * The newest challenge this instance saved for each address, client and requester: the login that follows, most often
 * from the same requester to the same instance, finds its challenge here instead of reading the open ones back. A
 * hint, not the truth: it may have been used or retired since (by another instance, or by this one), which the
 * statement that redeems it (login-statement.ts) finds out.
 */
export class RecentChallenges {
  /**
   * A bound on that memory: the address, client and requester saved for longest ago go first. A challenge's fields are
   * at most a few KB (each field the API takes is bounded), so a few MB as a rule and 20 MB at worst.
   */
  static readonly MAX = 2_000;
  private readonly byKey = new BoundedCache<{ challenge: Challenge; expiresAt: number }>(RecentChallenges.MAX);

  /** `clock`: the time the challenges' expiries are computed in (login.ts), which `find` reads too. */
  constructor(private readonly clock: Clock) {}

  remember(challenge: Challenge, expiresAt: Date): void {
    this.byKey.set(keyOf(challenge), { challenge, expiresAt: expiresAt.getTime() });
  }

  forget(challenge: Challenge): void {
    const key = keyOf(challenge);
    if (this.byKey.get(key)?.challenge.id === challenge.id) this.byKey.delete(key);
  }

  /**
   * The challenge remembered for `requester`, of this address and client, when it is unexpired and passes the filters
   * of {@link openChallenges}. The requester's own open challenges are all among what openChallenges returns (it holds
   * at most {@link OPEN_PER_ADDRESS} of an address), so a signature that proves this one is answered as the database's
   * candidates would answer it.
   */
  find(where: { address: string; clientId: string; requester: string; redirectUri?: string; message?: string }): Challenge | undefined {
    const entry = this.byKey.get(keyOf(where));
    if (!entry || entry.expiresAt <= this.clock()) return undefined;
    const { challenge } = entry;
    if (where.redirectUri !== undefined && challenge.redirectUri !== where.redirectUri) return undefined;
    if (where.message !== undefined && challenge.message !== where.message) return undefined;
    return challenge;
  }
}

const keyOf = (of: { address: string; clientId: string; requester: string }) =>
  `${of.address.toLowerCase()} ${of.clientId} ${of.requester}`;

/**
 * Deletes at most `rows` challenges, of every requester, that expired before `before`: saveChallenge deletes a
 * requester's expired ones only when it asks again, and some never do. server/auth/sweep.ts calls it now and then.
 * Resolves to the rows deleted.
 */
export function deleteStaleChallenges(db: Queryable, before: Date, rows: number): Promise<number> {
  return deleteExpiredRows(db, "login_challenges", before, rows);
}

/** How many open challenges of one address and client a login tries (each may cost an eth_call for a wallet). */
const MAX_CANDIDATES = OPEN_PER_ADDRESS;

/**
 * The caller's open challenges (not consumed, not expired, for this address and client): those `requester` asked for
 * first, then the others, newest first. A requester holds at most {@link OPEN_PER_ADDRESS} of an address, so its own
 * are all among the candidates however many others asked for the same address.
 */
export async function openChallenges(
  db: Queryable,
  where: { address: string; clientId: string; requester: string; redirectUri?: string; message?: string },
): Promise<Challenge[]> {
  const params: unknown[] = [where.address.toLowerCase(), where.clientId, where.requester];
  let sql = "SELECT * FROM login_challenges WHERE address = $1 AND client_id = $2 AND consumed_at IS NULL AND expires_at > now()";
  if (where.redirectUri !== undefined) {
    params.push(where.redirectUri);
    sql += ` AND redirect_uri = $${params.length}`;
  }
  if (where.message !== undefined) {
    params.push(where.message);
    sql += ` AND message = $${params.length}`;
  }
  sql += ` ORDER BY requester = $3 DESC, created_at DESC LIMIT ${MAX_CANDIDATES}`;
  const { rows } = await db.query<Row>(sql, params, { prepare: true });
  return rows.map(fromRow);
}
