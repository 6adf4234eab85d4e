import { parseAddress } from "../chain/values";
import type { Queryable } from "../db/database";
import { holdChanges, lastChangeId, type ChangeRow } from "../indexer";
import { randomString } from "../lib/random";
import { invalidSubscription, subscriptionNotFound, tooManyFilters, tooManySubscriptions } from "./errors";
import { newSecret, sealSecret } from "./secrets";

/** What a subscription may ask for: the live event stream's kinds. */
export const EVENT_KINDS = ["transfer", "removed", "metadata", "reset"] as const satisfies readonly ChangeRow["kind"][];
export type EventKind = (typeof EVENT_KINDS)[number];

/** Longest description taken. */
export const MAX_DESCRIPTION = 200;

/** The holder name of the subscriptions' hold on the change log. */
const HOLDER = "webhooks";

/** A subscription as stored, its secrets left out. */
export interface Subscription {
  id: string;
  /** The OAuth client that owns it; null: the operator's. */
  clientId: string | null;
  network: string;
  url: string;
  description: string;
  kinds: EventKind[];
  /** Lower case; empty: all. */
  contracts: string[];
  owners: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  /** Every matching change up to this id was delivered. */
  cursor: string;
  attempts: number;
  failingSince: Date | null;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
}

/** What a worker needs of a subscription it claimed: the stored row with its sealed secrets. */
export interface ClaimedSubscription extends Subscription {
  secret: Buffer;
  previousSecret: Buffer | null;
  previousSecretUntil: Date | null;
  leaseToken: string;
}

/** What makes a subscription, as a client or the operator gives it (checked by `checkSubscriptionInput`). */
export interface SubscriptionInput {
  network: string;
  url: string;
  description?: string;
  kinds?: readonly string[];
  contracts?: readonly string[];
  owners?: readonly string[];
}

const COLUMNS = `id, client_id, network, url, description, kinds, contracts, owners, enabled, disabled_reason, disabled_at,
  cursor::text, attempts, failing_since, last_error, next_attempt_at, created_at`;

interface Row {
  id: string;
  client_id: string | null;
  network: string;
  url: string;
  description: string;
  kinds: EventKind[];
  contracts: string[];
  owners: string[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  cursor: string;
  attempts: number;
  failing_since: Date | null;
  last_error: string | null;
  next_attempt_at: Date;
  created_at: Date;
}

const subscriptionOf = (row: Row): Subscription => ({
  id: row.id,
  clientId: row.client_id,
  network: row.network,
  url: row.url,
  description: row.description,
  kinds: row.kinds,
  contracts: row.contracts,
  owners: row.owners,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  disabledAt: row.disabled_at,
  cursor: row.cursor,
  attempts: row.attempts,
  failingSince: row.failing_since,
  lastError: row.last_error,
  nextAttemptAt: row.next_attempt_at,
  createdAt: row.created_at,
});

/**
 * The subscription's kinds, filters and description as they will be stored, or a refusal: a known kind each (all four
 * when none is given), addresses (lower case, each once) no more than `maxFilters` together, a one-line description.
 * The network and the endpoint are checked by the caller (which networks are served, the endpoint's guard).
 */
export function checkSubscriptionInput(
  input: Omit<SubscriptionInput, "network" | "url">,
  maxFilters: number,
): { kinds: EventKind[]; contracts: string[]; owners: string[]; description: string } {
  const kinds = [...new Set(input.kinds ?? EVENT_KINDS)];
  if (kinds.length === 0) throw invalidSubscription("name at least one event kind");
  for (const kind of kinds) {
    if (!(EVENT_KINDS as readonly string[]).includes(kind))
      throw invalidSubscription(`unknown event kind ${JSON.stringify(kind.slice(0, 40))}: one of ${EVENT_KINDS.join(", ")}`);
  }
  const given = (input.contracts?.length ?? 0) + (input.owners?.length ?? 0);
  if (given > maxFilters) throw tooManyFilters(maxFilters);
  const addresses = (values: readonly string[] | undefined, field: string) => [
    ...new Set((values ?? []).map((value) => parseAddress(value, field).toLowerCase())),
  ];
  const description = input.description ?? "";
  if (description.length > MAX_DESCRIPTION || /\p{Cc}/u.test(description))
    throw invalidSubscription(`the description is one line of at most ${MAX_DESCRIPTION} characters`);
  return {
    kinds: kinds as EventKind[],
    contracts: addresses(input.contracts, "contract"),
    owners: addresses(input.owners, "owner"),
    description,
  };
}

/**
 * Stores a new subscription (its input checked by the caller, its endpoint too) with a fresh secret, sealed under
 * `keys`; it delivers the changes logged from now on. Answers the subscription and its secret, which is never shown
 * again. With a client and `maxPerClient`, refused once the client holds that many.
 */
export async function createSubscription(
  db: Queryable,
  input: Pick<Subscription, "clientId" | "network" | "url" | "description" | "kinds" | "contracts" | "owners"> & {
    keys: readonly Buffer[];
    now: number;
    maxPerClient?: number;
  },
): Promise<{ subscription: Subscription; secret: string }> {
  const id = `ws_${randomString(16, "base64url")}`;
  const secret = newSecret();
  const cursor = await lastChangeId(db);
  // $1 id, $2 client, $3 network, $4 url, $5 description, $6 kinds, $7 contracts, $8 owners, $9 sealed secret,
  // $10 cursor, $11 now (ms), $12 most subscriptions the client may hold (null: no bound)
  const { rows } = await db.query<Row>(
    `INSERT INTO webhook_subscriptions (id, client_id, network, url, description, kinds, contracts, owners, secret, cursor, next_attempt_at)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, to_timestamp($11::float8 / 1000)
     WHERE $12::int IS NULL OR (SELECT count(*) FROM webhook_subscriptions WHERE client_id = $2) < $12::int
     RETURNING ${COLUMNS}`,
    [
      id,
      input.clientId,
      input.network,
      input.url,
      input.description,
      input.kinds,
      input.contracts,
      input.owners,
      sealSecret(secret, id, input.keys),
      cursor.toString(),
      input.now,
      input.maxPerClient ?? null,
    ],
  );
  if (rows.length === 0) throw tooManySubscriptions(input.maxPerClient!);
  return { subscription: subscriptionOf(rows[0]), secret };
}

/** The subscriptions of `clientId` (null: every one, the operator's view), oldest first. */
export async function listSubscriptions(db: Queryable, clientId: string | null): Promise<Subscription[]> {
  // $1 client or null
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE $1::text IS NULL OR client_id = $1 ORDER BY created_at, id`,
    [clientId],
  );
  return rows.map(subscriptionOf);
}

/** One subscription, refused as not found when it is not `clientId`'s (null: the operator, who sees all). */
export async function findSubscription(db: Queryable, id: string, clientId: string | null): Promise<Subscription> {
  // $1 id, $2 client or null
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE id = $1 AND ($2::text IS NULL OR client_id = $2)`,
    [id, clientId],
  );
  if (rows.length === 0) throw subscriptionNotFound(id);
  return subscriptionOf(rows[0]);
}

/**
 * Enables a subscription (it resumes after its cursor, at once, its failures forgotten) or disables it with a reason
 * (it keeps its cursor; WEBHOOKS_RETENTION_MS says how long the log keeps what it has not delivered).
 */
export async function setEnabled(
  db: Queryable,
  change: { id: string; clientId: string | null; enabled: boolean; reason?: string; now: number },
): Promise<Subscription> {
  // $1 id, $2 client or null, $3 enabled, $4 reason, $5 now (ms)
  const { rows } = await db.query<Row>(
    `UPDATE webhook_subscriptions SET enabled = $3,
       disabled_reason = CASE WHEN $3 THEN NULL ELSE $4 END,
       disabled_at = CASE WHEN $3 THEN NULL ELSE to_timestamp($5::float8 / 1000) END,
       attempts = 0, failing_since = NULL, next_attempt_at = to_timestamp($5::float8 / 1000), lease_token = NULL, lease_until = NULL
     WHERE id = $1 AND ($2::text IS NULL OR client_id = $2)
     RETURNING ${COLUMNS}`,
    [change.id, change.clientId, change.enabled, change.reason ?? null, change.now],
  );
  if (rows.length === 0) throw subscriptionNotFound(change.id);
  return subscriptionOf(rows[0]);
}

/** Removes a subscription; refused as not found when it is not `clientId`'s. */
export async function removeSubscription(db: Queryable, id: string, clientId: string | null): Promise<void> {
  // $1 id, $2 client or null
  const { rowCount } = await db.query("DELETE FROM webhook_subscriptions WHERE id = $1 AND ($2::text IS NULL OR client_id = $2)", [
    id,
    clientId,
  ]);
  if (rowCount === 0) throw subscriptionNotFound(id);
}

/**
 * Claims up to `limit` enabled subscriptions that are due and have changes after their cursor up to `last`, and
 * that no live lease holds: each is leased to `token` until `now + leaseMs`. Rows another instance is claiming are
 * skipped (SKIP LOCKED), so two instances never claim one subscription; the lease keeps it theirs while they deliver.
 */
export async function claimDue(
  db: Queryable,
  claim: { now: number; last: bigint; limit: number; leaseMs: number; token: string },
): Promise<ClaimedSubscription[]> {
  // $1 now (ms), $2 the newest change id, $3 limit, $4 lease (ms), $5 lease token
  const { rows } = await db.query<Row & { secret: Buffer; previous_secret: Buffer | null; previous_secret_until: Date | null }>(
    `UPDATE webhook_subscriptions SET lease_token = $5, lease_until = to_timestamp(($1::float8 + $4) / 1000)
     WHERE id IN (
       SELECT id FROM webhook_subscriptions
       WHERE enabled AND next_attempt_at <= to_timestamp($1::float8 / 1000) AND cursor < $2
         AND (lease_until IS NULL OR lease_until <= to_timestamp($1::float8 / 1000))
       ORDER BY next_attempt_at LIMIT $3
       FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}, secret, previous_secret, previous_secret_until`,
    [claim.now, claim.last.toString(), claim.limit, claim.leaseMs, claim.token],
  );
  return rows.map((row) => ({
    ...subscriptionOf(row),
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until,
    leaseToken: claim.token,
  }));
}

/**
 * Moves the subscription's cursor to `cursor` (delivered, or passed as matching nothing) and renews its lease; false
 * when the lease is no longer this worker's (it ran out and another took over): the worker stops.
 */
export async function advance(
  db: Queryable,
  step: { id: string; token: string; cursor: string; now: number; leaseMs: number },
): Promise<boolean> {
  // $1 id, $2 lease token, $3 cursor, $4 now (ms), $5 lease (ms)
  const { rowCount } = await db.query(
    `UPDATE webhook_subscriptions SET cursor = greatest(cursor, $3::bigint), attempts = 0, failing_since = NULL, last_error = NULL,
       lease_until = to_timestamp(($4::float8 + $5) / 1000)
     WHERE id = $1 AND lease_token = $2`,
    [step.id, step.token, step.cursor, step.now, step.leaseMs],
  );
  return rowCount > 0;
}

/** Hands the subscription back (nothing more to deliver now), when the lease is still this worker's. */
export async function release(db: Queryable, id: string, token: string): Promise<void> {
  // $1 id, $2 lease token
  await db.query("UPDATE webhook_subscriptions SET lease_token = NULL, lease_until = NULL WHERE id = $1 AND lease_token = $2", [id, token]);
}

/**
 * Records a failed attempt and hands the subscription back: retried at `retryAt`, or disabled with `disable` as the
 * reason (410 Gone, or failing for longer than the caller allows).
 */
export async function recordFailure(
  db: Queryable,
  failure: { id: string; token: string; error: string; now: number; retryAt: number; disable?: string },
): Promise<void> {
  // $1 id, $2 lease token, $3 error, $4 now (ms), $5 retry at (ms), $6 disabled for this reason (null: retried)
  await db.query(
    `UPDATE webhook_subscriptions SET attempts = attempts + 1, last_error = $3,
       failing_since = coalesce(failing_since, to_timestamp($4::float8 / 1000)),
       next_attempt_at = to_timestamp($5::float8 / 1000),
       enabled = $6::text IS NULL, disabled_reason = $6, disabled_at = CASE WHEN $6::text IS NULL THEN NULL ELSE to_timestamp($4::float8 / 1000) END,
       lease_token = NULL, lease_until = NULL
     WHERE id = $1 AND lease_token = $2`,
    [failure.id, failure.token, failure.error, failure.now, failure.retryAt, failure.disable ?? null],
  );
}

/**
 * Sets the subscriptions' hold on the change log: every change after the lowest cursor of a subscription that is
 * enabled, or disabled for less than `retentionMs`, is kept; none when there is no such subscription.
 */
export async function holdForSubscriptions(db: Queryable, now: number, retentionMs: number): Promise<void> {
  // $1 now (ms), $2 retention (ms)
  const { rows } = await db.query<{ low: string | null }>(
    `SELECT min(cursor)::text AS low FROM webhook_subscriptions
     WHERE enabled OR disabled_at > to_timestamp(($1::float8 - $2) / 1000)`,
    [now, retentionMs],
  );
  await holdChanges(db, HOLDER, rows[0].low === null ? null : BigInt(rows[0].low));
}
