import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Database, Queryable } from "../../db/database";
import { deleteExpiredRows } from "../../db/expired-rows";
import { DEFAULT_RETRY_AFTER_SECONDS, STATUS_OF_KIND, TRY_AGAIN_STATUSES } from "../../http/errors";
import { BoundedCache } from "../../lib/bounded-cache";
import type { Clock } from "../../lib/clock";
import { DomainError } from "../../lib/domain-error";
import { tooManyRequests } from "../../rate-limits";
import type { CachedClients } from "../clients";
import { consumeOrHold, providerRequest, saveOrHold, type HeldWrite, type StoredRecord } from "./held-writes";
import { READ_BEFORE_THEIR_GRANT } from "./internals";
import { noteGrantClaims } from "./grant-claims";

/** oidc-provider's errors class for a reused code, handed in (the library is loaded once, in provider.ts). */
export type ReuseError = new (description?: string) => Error;

/**
 * oidc-provider's storage on our database (pg or PGlite): one generic table for every model, keyed by (kind, id).
 * Clients are not stored here but read from `login_clients`, the table the client script writes.
 *
 * `consume` is the one place where a race matters: two instances can both read a code as unused, so the
 * update only succeeds for the first (`WHERE consumed_at IS NULL`) and the second sees the code as reused —
 * refused, with the grant and its tokens revoked, as for any reuse. In a code exchange the update is made by the
 * statement that stores the tokens, which stores nothing when it finds the code consumed.
 */
export function createAdapterFactory(db: Database, clients: CachedClients, reuseError: ReuseError, minted: MintedCodes) {
  return (kind: string): Adapter =>
    refusingWhenUnavailable(kind === "Client" ? clientAdapter(clients) : payloadAdapter(db, kind, reuseError, minted));
}

/**
 * `adapter`, with a database that is down, saturated or full (`database_unavailable`, `database_busy`,
 * `database_full`) told to the client as our own routes tell it, a 503 with that code, and a request past its rate
 * limit (counted by the code's statement) as a 429 `too_many_requests`: oidc-provider answers an error it is told to
 * expose with the error's status and code (RFC 6749's dialect, or the error page), and any other one as a 500
 * `server_error`. It sets no headers from an error: the time to retry after is kept in the request's scope for
 * {@link retryAfterWhenUnavailable}.
 */
function refusingWhenUnavailable(adapter: Adapter): Adapter {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(adapter) as Array<[string, (...args: unknown[]) => Promise<unknown>]>) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await method.apply(adapter, args);
      } catch (error) {
        if (!(error instanceof DomainError) || (error.kind !== "unavailable" && error.kind !== "too_many")) throw error;
        const scope = providerRequest();
        if (scope && error.retryAfterSeconds !== undefined) scope.retryAfterSeconds = error.retryAfterSeconds;
        throw Object.assign(new Error(error.code, { cause: error }), {
          error: error.code,
          error_description: error.message,
          status: STATUS_OF_KIND[error.kind],
          statusCode: STATUS_OF_KIND[error.kind],
          expose: true,
        });
      }
    };
  }
  return wrapped as unknown as Adapter;
}

/**
 * oidc-provider middleware: every 503 and 429 of the provider carries `Retry-After`, as our own routes' do: the time of
 * the database refusal the adapter turned into it, or the default for one oidc-provider made itself (its error handler
 * has set the status and body by the time `next` returns; the answer has not gone out yet).
 */
export async function retryAfterWhenUnavailable(
  ctx: { status: number; set(name: string, value: string): void; response: { get(name: string): string } },
  next: () => Promise<void>,
) {
  await next();
  if (!TRY_AGAIN_STATUSES.has(ctx.status)) return;
  const seconds = providerRequest()?.retryAfterSeconds;
  if (seconds !== undefined) ctx.set("retry-after", String(seconds));
  else if (!ctx.response.get("retry-after")) ctx.set("retry-after", String(DEFAULT_RETRY_AFTER_SECONDS));
}

/**
 * The codes this instance stored a moment ago, with their grants: the exchange that follows, most often on the same
 * instance within a second, finds them here instead of reading them back. Each is handed out once, and only before it
 * expires; the statement that consumes the code still decides, so a code consumed or revoked meanwhile is refused
 * there, as when that happens between a read and the consumption. Other instances, and this one after a restart, read
 * codes from the database.
 */
export class MintedCodes {
  /** A bound on that memory (a few MB): codes never exchanged are forgotten oldest first. */
  static readonly MAX = 1_000;
  private readonly codes = new BoundedCache<{ code: string; grant: string; expiresAt: number }>(MintedCodes.MAX);

  /**
   * `clock`: the time the codes expire in. The adapter computes every record's expiry on it (a code's among them),
   * so `take` and the expiries it compares are read on one clock.
   */
  constructor(readonly clock: Clock) {}

  /** Remembers the code and its grant among `writes`, which the statement that redeemed a challenge has just stored. */
  remember(writes: HeldWrite[]): void {
    const code = writes.find((write) => write.kind === "AuthorizationCode");
    const grant = writes.find((write) => write.kind === "Grant");
    if (!code?.expiresAt || !grant || code.payload.grantId !== grant.id) return;
    // As text, so that each find gets objects of its own, as from the database's jsonb.
    this.codes.set(code.id, {
      code: JSON.stringify(code.payload),
      grant: JSON.stringify(grant.payload),
      expiresAt: code.expiresAt.getTime(),
    });
  }

  /** The code `id` and its grant, when this instance minted it, unexpired and not handed out yet; forgotten now. */
  take(id: string): { code: AdapterPayload; grant: AdapterPayload } | undefined {
    const minted = this.codes.get(id);
    if (!minted) return undefined;
    this.codes.delete(id);
    if (minted.expiresAt <= this.clock()) return undefined;
    return { code: JSON.parse(minted.code), grant: JSON.parse(minted.grant) };
  }
}

/** A held write's row of oidc_payloads: kind, id, payload (JSON text), grant_id, user_code, uid, expires_at. */
function rowOf(write: HeldWrite): unknown[] {
  const { payload } = write;
  return [
    write.kind,
    write.id,
    JSON.stringify(payload),
    payload.grantId ?? null,
    payload.userCode ?? null,
    payload.uid ?? null,
    write.expiresAt,
  ];
}

/**
 * The rows of `writes` as seven arrays, one per column in {@link rowOf}'s order: the parameters of an
 * `unnest($n::text[], …, $n+6::timestamptz[])`, which stores any number of them with one statement's fixed text.
 */
export function heldColumns(writes: HeldWrite[]): unknown[][] {
  const rows = writes.map(rowOf);
  return Array.from({ length: 7 }, (_, column) => rows.map((row) => row[column]));
}

// Consumes a code and stores its tokens, only when it consumed it; one row per token stored. With a rate-limit count
// to make (server/http/rate-limit.ts, limitInStatement), it is made first, one more on the requester's row of
// request_windows as server/rate-limits' own COUNT makes it, and the code is consumed only within the limit: like the
// login's statement (login-statement.ts), it writes the tables of two owners in one round trip, and request_windows'
// other SQL stays with its owner.
// $1 the code's kind, $2 its id; $3…$9 the tokens' columns as heldColumns gives them; $10 the count's family (null:
// no count to make), $11 its requester, $12 its window start, $13 the limit.
const CONSUME_WITH = `WITH counted AS (
    INSERT INTO request_windows AS w (family, requester, window_start, count)
    SELECT $10::text, $11::text, $12::bigint, 1 WHERE $10::text IS NOT NULL
    ON CONFLICT (family, requester, window_start) DO UPDATE SET count = w.count + 1
    RETURNING count
  ), consumed AS (
    UPDATE oidc_payloads SET consumed_at = now()
    WHERE kind = $1 AND id = $2 AND consumed_at IS NULL AND NOT EXISTS (SELECT 1 FROM counted WHERE count > $13::int)
    RETURNING id
  ), stored AS (
    INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
    SELECT kind, id, payload::jsonb, grant_id, user_code, uid, expires_at
    FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[])
      AS w(kind, id, payload, grant_id, user_code, uid, expires_at)
    WHERE EXISTS (SELECT 1 FROM consumed)
    RETURNING kind
  )
  SELECT (SELECT count FROM counted) AS counted, (SELECT count(*) FROM stored)::int AS stored`;

function payloadAdapter(db: Database, kind: string, reuseError: ReuseError, mintedCodes: MintedCodes): Adapter {
  const LIVE = "(expires_at IS NULL OR expires_at > now() - interval '1 hour')";
  // Relies on oidc-provider reading a token and then its grant in one request (READ_BEFORE_THEIR_GRANT, internals.ts).
  const find = async (column: "id" | "uid" | "user_code", value: string) => {
    if (!storable(value)) return undefined;
    const ahead = providerRequest()?.grantsAhead;
    let row: StoredRecord | undefined;
    const minted = ahead && kind === "AuthorizationCode" && column === "id" ? mintedCodes.take(value) : undefined;
    if (ahead && kind === "Grant" && column === "id" && ahead.has(value)) {
      row = ahead.get(value);
      ahead.delete(value);
    } else if (ahead && minted) {
      row = { payload: minted.code, consumed_at: null };
      ahead.set(minted.code.grantId as string, { payload: minted.grant, consumed_at: null });
    } else if (ahead && READ_BEFORE_THEIR_GRANT.has(kind) && column === "id") {
      // The grant is looked up by its whole primary key, so the plan is one index probe whatever the table's
      // statistics say: written as a join, a table never analyzed (autovacuum off) got a scan of every grant.
      const { rows } = await db.query<{ kind: string; payload: AdapterPayload; consumed_at: Date | null }>(
        `SELECT kind, payload, consumed_at FROM oidc_payloads WHERE kind = $1 AND id = $2 AND ${LIVE}
         UNION ALL
         SELECT kind, payload, consumed_at FROM oidc_payloads
         WHERE kind = 'Grant' AND id = (SELECT grant_id FROM oidc_payloads WHERE kind = $1 AND id = $2) AND ${LIVE}`,
        [kind, value],
        { prepare: true },
      );
      row = rows.find((r) => r.kind === kind);
      const grant = rows.find((r) => r.kind === "Grant");
      if (row && grant) ahead.set(row.payload.grantId as string, grant);
    } else {
      const { rows } = await db.query<{ payload: AdapterPayload; consumed_at: Date | null }>(
        `SELECT payload, consumed_at FROM oidc_payloads WHERE kind = $1 AND ${column} = $2 AND ${LIVE}`,
        [kind, value],
      );
      row = rows[0];
    }
    if (!row) return undefined;
    if (kind === "Grant") noteGrantClaims(value, row.payload);
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
  };
  const revokeByGrantId = async (grantId: string) => {
    await db.query("DELETE FROM oidc_payloads WHERE grant_id = $1 OR (kind = 'Grant' AND id = $1)", [grantId]);
  };
  /** A reuse of a record: its grant and everything issued from it revoked, the reuse refused. */
  const refuseReuse = async (id: string): Promise<never> => {
    const { rows: used } = await db.query<{ grant_id: string | null }>("SELECT grant_id FROM oidc_payloads WHERE kind = $1 AND id = $2", [
      kind,
      id,
    ]);
    if (used[0]?.grant_id) await revokeByGrantId(used[0].grant_id);
    throw new reuseError(`${kind === "AuthorizationCode" ? "authorization code" : kind} already consumed`);
  };
  const consume = async (id: string) => {
    const { rows } = await db.query<{ grant_id: string | null }>(
      "UPDATE oidc_payloads SET consumed_at = now() WHERE kind = $1 AND id = $2 AND consumed_at IS NULL RETURNING grant_id",
      [kind, id],
    );
    if (rows.length === 0) await refuseReuse(id);
  };
  /**
   * Consumes the code `id` and stores `writes` (its tokens) with one statement; nothing is stored when the code was
   * consumed already (another exchange of it got there first), which is refused as `consume` refuses it.
   */
  const consumeWith = async (id: string, writes: HeldWrite[]) => {
    if (writes.length === 0) return consume(id);
    const pending = providerRequest()?.count?.statement;
    const count = pending?.current === undefined ? pending : undefined;
    const { rows } = await db.query<{ counted: number | null; stored: number }>(
      CONSUME_WITH,
      [kind, id, ...heldColumns(writes), count?.family ?? null, count?.requester ?? null, count?.windowStart ?? null, count?.max ?? null],
      { prepare: true },
    );
    const { counted, stored } = rows[0];
    if (count && counted !== null) {
      count.counted(counted);
      // Past the limit nothing was consumed: the code stays good for an exchange within it.
      if (counted > count.max) throw tooManyRequests(count.ttl);
    }
    if (stored === 0) await refuseReuse(id);
  };

  return {
    async upsert(id, payload, expiresIn) {
      const expiresAt = expiresIn ? new Date(mintedCodes.clock() + expiresIn * 1000) : null;
      await saveOrHold({ kind, id, payload, expiresAt }, (write) => upsertRow(db, write));
    },
    find: (id) => find("id", id),
    findByUid: (uid) => find("uid", uid),
    findByUserCode: (userCode) => find("user_code", userCode),
    async consume(id) {
      await consumeOrHold(
        kind,
        () => consume(id),
        (writes) => consumeWith(id, writes),
      );
    },
    async destroy(id) {
      await db.query("DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2", [kind, id]);
    },
    revokeByGrantId,
  };
}

/** Inserts a record, or replaces it when it exists (oidc-provider saves a model again when it changes). */
async function upsertRow(db: Database, write: HeldWrite): Promise<void> {
  await db.query(
    `INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
       user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
    rowOf(write),
  );
}

/**
 * Deletes at most `rows` records that expired before `before` (server/auth/sweep.ts calls it now and then, off the
 * adapter's path): of no use to anyone, they would otherwise stay forever. Resolves to the rows deleted.
 */
export function deleteExpiredPayloads(db: Queryable, before: Date, rows: number): Promise<number> {
  return deleteExpiredRows(db, "oidc_payloads", before, rows);
}

/** Deletes the codes, grants and tokens issued to a client (when the client is removed). */
export async function deleteClientPayloads(db: Queryable, clientId: string): Promise<void> {
  await db.query("DELETE FROM oidc_payloads WHERE payload->>'clientId' = $1", [clientId]);
}

/**
 * Whether a value can be a key in the database at all. Ids come from clients (codes, tokens, a client_id inside a
 * Basic header, which no query or form check sees) and PostgreSQL refuses NUL in text: such an id is simply unknown.
 */
function storable(value: string): boolean {
  return typeof value === "string" && !value.includes("\u0000");
}

/**
 * What oidc-provider knows of a client registered with the script (see provider.ts for how secrets are compared).
 * oidc-provider binds one authentication method to each client record, while ours may use either (RFC 6749 §2.3.1
 * allows both), so the record handed to it names the method the request being handled uses: with a Basic header or
 * not, as `inRequestScope` was told (routes/oidc.ts runs every request it passes to oidc-provider in it).
 */
function clientAdapter(clients: CachedClients): Adapter {
  const readOnly = async () => {
    throw new Error("clients are managed with `npm run client`, not through oidc-provider");
  };
  return {
    async find(id) {
      if (!storable(id)) return undefined;
      const client = await clients.find(id);
      if (!client) return undefined;
      return {
        client_id: client.id,
        client_name: client.name,
        redirect_uris: client.redirectUris,
        post_logout_redirect_uris: client.postLogoutRedirectUris,
        response_types: ["code"],
        // A public client has no secret to prove itself with, so no token of its own.
        grant_types: client.public
          ? ["authorization_code", "refresh_token"]
          : ["authorization_code", "refresh_token", "client_credentials"],
        id_token_signed_response_alg: "RS256",
        ...(client.public
          ? { token_endpoint_auth_method: "none" }
          : {
              token_endpoint_auth_method: providerRequest()?.basic ? "client_secret_basic" : "client_secret_post",
              client_secret: client.secretHash ?? undefined,
            }),
      };
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: async () => {},
  };
}
