import { parseAddress } from "../chain/values";
import type { Database, Queryable } from "../db/database";
import { deleteExpiredRows } from "../db/expired-rows";
import { holdChanges, lastChangeId, REORG_WINDOW, type ChangeRow } from "../indexer";
import { randomString } from "../lib/random";
import { invalidSubscription, subscriptionNotFound, tooManyFilters, tooManySubscriptions } from "./errors";
import { newSecret, sealSecret } from "./secrets";

/** What a subscription may ask for: the live event stream's kinds. */
export const EVENT_KINDS = ["transfer", "removed", "metadata", "reset"] as const satisfies readonly ChangeRow["kind"][];
export type EventKind = (typeof EVENT_KINDS)[number];

/** Longest description taken. */
export const MAX_DESCRIPTION = 200;

/**
 * Most confirmations a subscription may wait for: the indexer's reorg window, in which a reorg is found block by
 * block. One deeper is found only from the few blocks the index keeps below the window and is undone back to one of
 * them after several polls (docs/reference/indexer.md), as rare as the chain's finality makes it.
 */
export const MAX_CONFIRMATIONS = REORG_WINDOW;

/** Whether a subscription leaves out the changes of collections flagged as spam (as `?spam=` on the data routes). */
export const SPAM_CHOICES = ["include", "exclude"] as const;
export type SpamChoice = (typeof SPAM_CHOICES)[number];

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
  /** Blocks indexed on top of a change's block before it is delivered (0: at once). */
  confirmations: number;
  spam: SpamChoice;
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
  confirmations?: number;
  spam?: string;
}

const COLUMNS = `id, client_id, network, url, description, kinds, contracts, owners, confirmations, spam, enabled, disabled_reason, disabled_at,
  cursor::text, attempts, failing_since, last_error, next_attempt_at, created_at`;

/** A stored row; the columns named as {@link Subscription}'s fields take their types from it, so the two cannot drift apart. */
type Row = Pick<
  Subscription,
  "id" | "network" | "url" | "description" | "kinds" | "contracts" | "owners" | "confirmations" | "spam" | "enabled" | "cursor" | "attempts"
> & {
  client_id: string | null;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  last_error: string | null;
  next_attempt_at: Date;
  created_at: Date;
};

const subscriptionOf = (row: Row): Subscription => ({
  id: row.id,
  clientId: row.client_id,
  network: row.network,
  url: row.url,
  description: row.description,
  kinds: row.kinds,
  contracts: row.contracts,
  owners: row.owners,
  confirmations: row.confirmations,
  spam: row.spam,
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
 * when none is given), addresses (lower case, each once) no more than `maxFilters` together, a one-line description,
 * confirmations from 0 to {@link MAX_CONFIRMATIONS} (0 when none is given) and a spam choice (include by default).
 * The network and the endpoint are checked by the caller (which networks are served, the endpoint's guard).
 */
export function checkSubscriptionInput(
  input: Omit<SubscriptionInput, "network" | "url">,
  maxFilters: number,
): Pick<Subscription, "kinds" | "contracts" | "owners" | "description" | "confirmations" | "spam"> {
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
  const confirmations = input.confirmations ?? 0;
  if (!Number.isInteger(confirmations) || confirmations < 0 || confirmations > MAX_CONFIRMATIONS)
    throw invalidSubscription(`confirmations is an integer from 0 to ${MAX_CONFIRMATIONS}`);
  const spam = input.spam ?? "include";
  if (!(SPAM_CHOICES as readonly string[]).includes(spam))
    throw invalidSubscription(`spam is ${SPAM_CHOICES.join(" or ")}, not ${JSON.stringify(spam.slice(0, 40))}`);
  return {
    kinds: kinds as EventKind[],
    contracts: addresses(input.contracts, "contract"),
    owners: addresses(input.owners, "owner"),
    description,
    confirmations,
    spam: spam as SpamChoice,
  };
}

/**
 * Stores a new subscription (its input checked by the caller, its endpoint too) with a fresh secret, sealed under
 * `keys`; it delivers the changes logged from now on. Answers the subscription and its secret, which is never shown
 * again. With a client and `maxPerClient`, refused once the client holds that many.
 */
export async function createSubscription(
  db: Queryable,
  input: Pick<
    Subscription,
    "clientId" | "network" | "url" | "description" | "kinds" | "contracts" | "owners" | "confirmations" | "spam"
  > & {
    keys: readonly Buffer[];
    now: number;
    maxPerClient?: number;
  },
): Promise<{ subscription: Subscription; secret: string }> {
  const id = `ws_${randomString(16, "base64url")}`;
  const secret = newSecret();
  const cursor = await lastChangeId(db);
  // $1 id, $2 client, $3 network, $4 url, $5 description, $6 kinds, $7 contracts, $8 owners, $9 sealed secret,
  // $10 cursor, $11 now (ms), $12 most subscriptions the client may hold (null: no bound), $13 confirmations, $14 spam
  const { rows } = await db.query<Row>(
    `INSERT INTO webhook_subscriptions (id, client_id, network, url, description, kinds, contracts, owners, secret, cursor, next_attempt_at,
       confirmations, spam)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, to_timestamp($11::float8 / 1000), $13, $14
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
      input.confirmations,
      input.spam,
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
       attempts = 0, failing_since = NULL, next_attempt_at = to_timestamp($5::float8 / 1000), lease_token = NULL, lease_until = NULL,
       wait_block = NULL
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
 * Claims up to `limit` enabled subscriptions that are due and have changes after their cursor up to `last`, that
 * wait for no block their network's index (`heads`) has not reached, and that no live lease holds: each is leased to
 * `token` until `now + leaseMs`. Rows another instance is claiming are
 * skipped (SKIP LOCKED), so two instances never claim one subscription; the lease keeps it theirs while they deliver.
 */
export async function claimDue(
  db: Queryable,
  claim: { now: number; last: bigint; heads: ReadonlyMap<string, number>; limit: number; leaseMs: number; token: string },
): Promise<ClaimedSubscription[]> {
  // $1 now (ms), $2 the newest change id, $3 limit, $4 lease (ms), $5 lease token, $6 networks, $7 their indexed blocks
  const { rows } = await db.query<Row & { secret: Buffer; previous_secret: Buffer | null; previous_secret_until: Date | null }>(
    `UPDATE webhook_subscriptions SET lease_token = $5, lease_until = to_timestamp(($1::float8 + $4) / 1000)
     WHERE id IN (
       SELECT id FROM webhook_subscriptions
       WHERE enabled AND next_attempt_at <= to_timestamp($1::float8 / 1000) AND cursor < $2
         AND (lease_until IS NULL OR lease_until <= to_timestamp($1::float8 / 1000))
         AND (wait_block IS NULL
           OR wait_block <= (SELECT h.block FROM unnest($6::text[], $7::bigint[]) AS h(network, block) WHERE h.network = webhook_subscriptions.network))
       ORDER BY next_attempt_at LIMIT $3
       FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}, secret, previous_secret, previous_secret_until`,
    [claim.now, claim.last.toString(), claim.limit, claim.leaseMs, claim.token, [...claim.heads.keys()], [...claim.heads.values()]],
  );
  return rows.map((row) => ({
    ...subscriptionOf(row),
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until,
    leaseToken: claim.token,
  }));
}

/** An attempt as the delivery log keeps it. */
export interface Attempt {
  /** The receiver's status, when it answered. */
  status: number | null;
  /** Null: accepted. */
  failure: string | null;
  message: string | null;
  milliseconds: number;
}

/** How long the delivery log keeps an attempt. */
export const DELIVERY_LOG_MS = 3 * 24 * 3_600_000;

/**
 * Moves the subscription's cursor from `from` to `cursor` (a delivered change, logged with its `attempt`, or changes
 * passed as matching nothing) and renews its lease; false when the lease is no longer this worker's (it ran out and
 * another took over) or the cursor moved meanwhile (a replay): the worker stops.
 */
export async function advance(
  db: Queryable,
  step: { id: string; token: string; from: string; cursor: string; now: number; leaseMs: number; attempt?: Attempt },
): Promise<boolean> {
  const { attempt } = step;
  // $1 id, $2 lease token, $3 cursor, $4 now (ms), $5 lease (ms), $6 the cursor it moves from, $7 logged (an attempt),
  // $8 status, $9 milliseconds, $10 log retention (ms)
  const { rows } = await db.query<{ moved: number }>(
    `WITH moved AS (
       UPDATE webhook_subscriptions SET cursor = $3::bigint, attempts = 0, failing_since = NULL, last_error = NULL,
         lease_until = to_timestamp(($4::float8 + $5) / 1000)
       WHERE id = $1 AND lease_token = $2 AND cursor = $6::bigint
       RETURNING id),
     logged AS (
       INSERT INTO webhook_deliveries (subscription_id, change_id, attempted_at, status, milliseconds, expires_at)
       SELECT id, $3::bigint, to_timestamp($4::float8 / 1000), $8, $9, to_timestamp(($4::float8 + $10) / 1000) FROM moved WHERE $7)
     SELECT count(*)::int AS moved FROM moved`,
    [
      step.id,
      step.token,
      step.cursor,
      step.now,
      step.leaseMs,
      step.from,
      attempt !== undefined,
      attempt?.status ?? null,
      attempt?.milliseconds ?? 0,
      DELIVERY_LOG_MS,
    ],
  );
  return rows[0].moved > 0;
}

/**
 * Hands the subscription back (nothing more to deliver now), when the lease is still this worker's; with `waitBlock`,
 * not to be claimed again before its network's index reaches that block (its next change needs confirmations).
 */
export async function release(db: Queryable, id: string, token: string, waitBlock?: number): Promise<void> {
  // $1 id, $2 lease token, $3 the block waited for (null: none)
  await db.query(
    "UPDATE webhook_subscriptions SET lease_token = NULL, lease_until = NULL, wait_block = $3 WHERE id = $1 AND lease_token = $2",
    [id, token, waitBlock ?? null],
  );
}

/**
 * Records a failed attempt at change `changeId` and hands the subscription back: retried at `retryAt`, or disabled
 * with `disable` as the reason (410 Gone, or failing for longer than the caller allows).
 */
export async function recordFailure(
  db: Queryable,
  failure: { id: string; token: string; changeId: string; attempt: Attempt; now: number; retryAt: number; disable?: string },
): Promise<void> {
  const { attempt } = failure;
  // $1 id, $2 lease token, $3 error, $4 now (ms), $5 retry at (ms), $6 disabled for this reason (null: retried),
  // $7 change id, $8 status, $9 failure class, $10 milliseconds, $11 log retention (ms)
  await db.query(
    `WITH failed AS (
       UPDATE webhook_subscriptions SET attempts = attempts + 1, last_error = $3,
         failing_since = coalesce(failing_since, to_timestamp($4::float8 / 1000)),
         next_attempt_at = to_timestamp($5::float8 / 1000),
         enabled = $6::text IS NULL, disabled_reason = $6,
         disabled_at = CASE WHEN $6::text IS NULL THEN NULL ELSE to_timestamp($4::float8 / 1000) END,
         lease_token = NULL, lease_until = NULL
       WHERE id = $1 AND lease_token = $2
       RETURNING id)
     INSERT INTO webhook_deliveries (subscription_id, change_id, attempted_at, status, failure, message, milliseconds, expires_at)
     SELECT id, $7::bigint, to_timestamp($4::float8 / 1000), $8, $9, $3, $10, to_timestamp(($4::float8 + $11) / 1000) FROM failed`,
    [
      failure.id,
      failure.token,
      attempt.message,
      failure.now,
      failure.retryAt,
      failure.disable ?? null,
      failure.changeId,
      attempt.status,
      attempt.failure,
      attempt.milliseconds,
      DELIVERY_LOG_MS,
    ],
  );
}

/** A subscription's delivery log, newest first, at most `limit` attempts; refused as not found when it is not `clientId`'s. */
export async function listDeliveries(
  db: Queryable,
  query: { id: string; clientId: string | null; limit: number },
): Promise<Array<Attempt & { changeId: string; attemptedAt: Date }>> {
  await findSubscription(db, query.id, query.clientId);
  // $1 id, $2 limit
  const { rows } = await db.query<{
    change_id: string;
    attempted_at: Date;
    status: number | null;
    failure: string | null;
    message: string | null;
    milliseconds: number;
  }>(
    `SELECT change_id::text, attempted_at, status, failure, message, milliseconds FROM webhook_deliveries
     WHERE subscription_id = $1 ORDER BY attempted_at DESC, change_id DESC LIMIT $2`,
    [query.id, query.limit],
  );
  return rows.map((r) => ({
    changeId: r.change_id,
    attemptedAt: r.attempted_at,
    status: r.status,
    failure: r.failure,
    message: r.message,
    milliseconds: r.milliseconds,
  }));
}

/** Deletes delivery-log rows past their retention, at most `rows` at a time. */
export function pruneDeliveries(db: Queryable, now: number, rows = 10_000): Promise<number> {
  return deleteExpiredRows(db, "webhook_deliveries", new Date(now), rows);
}

/**
 * Gives the subscription a new secret (answered once) and keeps the one it replaces signing beside it until
 * `now + overlapMs`, so that a receiver can switch without refusing a delivery.
 */
export async function rotateSecret(
  db: Queryable,
  rotation: { id: string; clientId: string | null; keys: readonly Buffer[]; now: number; overlapMs: number },
): Promise<{ secret: string; previousUntil: Date }> {
  const secret = newSecret();
  // $1 id, $2 client or null, $3 sealed secret, $4 the old secret signs until (ms)
  const { rows } = await db.query<{ until: Date }>(
    `UPDATE webhook_subscriptions SET previous_secret = secret, secret = $3, previous_secret_until = to_timestamp($4::float8 / 1000)
     WHERE id = $1 AND ($2::text IS NULL OR client_id = $2)
     RETURNING previous_secret_until AS until`,
    [rotation.id, rotation.clientId, sealSecret(secret, rotation.id, rotation.keys), rotation.now + rotation.overlapMs],
  );
  if (rows.length === 0) throw subscriptionNotFound(rotation.id);
  return { secret, previousUntil: rows[0].until };
}

/**
 * Moves the subscription's cursor back (or forward) so that it delivers again every change it matches after `after`,
 * its failures forgotten, at once; the change log's hold is lowered with it in the same transaction, so nothing it
 * is to read is pruned meanwhile. A worker delivering it stops at its next step (the cursor moved under it).
 */
export async function replayFrom(
  db: Database,
  replay: { id: string; clientId: string | null; after: bigint; now: number },
): Promise<Subscription> {
  return db.transaction(async (tx) => {
    // $1 id, $2 client or null, $3 cursor, $4 now (ms)
    const { rows } = await tx.query<Row>(
      `UPDATE webhook_subscriptions SET cursor = $3, attempts = 0, failing_since = NULL, last_error = NULL,
         next_attempt_at = to_timestamp($4::float8 / 1000), wait_block = NULL
       WHERE id = $1 AND ($2::text IS NULL OR client_id = $2)
       RETURNING ${COLUMNS}`,
      [replay.id, replay.clientId, replay.after.toString(), replay.now],
    );
    if (rows.length === 0) throw subscriptionNotFound(replay.id);
    // $1 the lowest cursor
    const { rows: held } = await tx.query<{ low: string }>(
      "SELECT min(cursor)::text AS low FROM webhook_subscriptions WHERE enabled OR id = $1",
      [replay.id],
    );
    await holdChanges(tx, HOLDER, BigInt(held[0].low));
    return subscriptionOf(rows[0]);
  });
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

/** What a test delivery needs of a subscription: where it goes and its sealed secrets; refused when not `clientId`'s. */
export async function sealedSubscription(
  db: Queryable,
  id: string,
  clientId: string | null,
): Promise<Pick<ClaimedSubscription, "id" | "url" | "network" | "secret" | "previousSecret" | "previousSecretUntil">> {
  // $1 id, $2 client or null
  const { rows } = await db.query<{
    url: string;
    network: string;
    secret: Buffer;
    previous_secret: Buffer | null;
    previous_secret_until: Date | null;
  }>(
    `SELECT url, network, secret, previous_secret, previous_secret_until FROM webhook_subscriptions
     WHERE id = $1 AND ($2::text IS NULL OR client_id = $2)`,
    [id, clientId],
  );
  if (rows.length === 0) throw subscriptionNotFound(id);
  const row = rows[0];
  return {
    id,
    url: row.url,
    network: row.network,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until,
  };
}

/** The enabled subscriptions' cursors, and how many are disabled (metrics). */
export async function subscriptionPositions(db: Queryable): Promise<{ cursors: Array<{ id: string; cursor: bigint }>; disabled: number }> {
  const { rows } = await db.query<{ id: string; cursor: string; enabled: boolean }>(
    "SELECT id, cursor::text, enabled FROM webhook_subscriptions",
  );
  return {
    cursors: rows.filter((r) => r.enabled).map((r) => ({ id: r.id, cursor: BigInt(r.cursor) })),
    disabled: rows.filter((r) => !r.enabled).length,
  };
}
