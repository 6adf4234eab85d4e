import { AsyncLocalStorage } from "node:async_hooks";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Database } from "../db/database";
import { findClientCached } from "./clients";

/** oidc-provider's errors class for a reused code, handed in (the module is loaded once, in provider.ts). */
export type ReuseError = new (description?: string) => Error;

/**
 * oidc-provider's storage on our database (pg or PGlite): one generic table for every model, keyed by (kind, id).
 * Clients are not stored here but read from `login_clients`, the table the client script writes.
 *
 * `consume` is the one place where a race matters: two instances can both read a code as unused, so the
 * update only succeeds for the first (`WHERE consumed_at IS NULL`) and the second sees the code as reused —
 * refused, with the grant and its tokens revoked, as for any reuse.
 */
export function createAdapterFactory(db: Database, reuseError: ReuseError) {
  return (kind: string): Adapter => (kind === "Client" ? clientAdapter(db) : payloadAdapter(db, kind, reuseError));
}

function payloadAdapter(db: Database, kind: string, reuseError: ReuseError): Adapter {
  const find = async (column: "id" | "uid" | "user_code", value: string) => {
    if (!storable(value)) return undefined;
    const { rows } = await db.query<{ payload: AdapterPayload; consumed_at: Date | null }>(
      `SELECT payload, consumed_at FROM oidc_payloads WHERE kind = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now() - interval '1 hour')`,
      [kind, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
  };
  const revokeByGrantId = async (grantId: string) => {
    await db.query("DELETE FROM oidc_payloads WHERE grant_id = $1 OR (kind = 'Grant' AND id = $1)", [grantId]);
  };

  return {
    async upsert(id, payload, expiresIn) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await db.query(
        `INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [kind, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
      );
      // Expired rows are of no use to anyone; a few go with each write so the table does not grow forever.
      if (Math.random() < 0.01) {
        await db.query("DELETE FROM oidc_payloads WHERE expires_at < now() - interval '1 day'");
        await db.query("DELETE FROM login_challenges WHERE expires_at < now() - interval '1 day'");
      }
    },
    find: (id) => find("id", id),
    findByUid: (uid) => find("uid", uid),
    findByUserCode: (userCode) => find("user_code", userCode),
    async consume(id) {
      const { rows } = await db.query<{ grant_id: string | null }>(
        "UPDATE oidc_payloads SET consumed_at = now() WHERE kind = $1 AND id = $2 AND consumed_at IS NULL RETURNING grant_id",
        [kind, id],
      );
      if (rows.length > 0) return;
      const { rows: used } = await db.query<{ grant_id: string | null }>("SELECT grant_id FROM oidc_payloads WHERE kind = $1 AND id = $2", [kind, id]);
      if (used[0]?.grant_id) await revokeByGrantId(used[0].grant_id);
      throw new reuseError(`${kind === "AuthorizationCode" ? "authorization code" : kind} already consumed`);
    },
    async destroy(id) {
      await db.query("DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2", [kind, id]);
    },
    revokeByGrantId,
  };
}

/**
 * Whether a value can be a key in the database at all. Ids come from clients (codes, tokens, a client_id inside a
 * Basic header, which no query or form check sees) and PostgreSQL refuses NUL in text: such an id is simply unknown.
 */
function storable(value: string): boolean {
  return typeof value === "string" && !value.includes("\u0000");
}

/**
 * How the request being handled authenticates its client: with a Basic header or not. oidc-provider binds one
 * method to each client record, while ours may use either (RFC 6749 §2.3.1 allows both), so the record handed to it
 * names the method the request uses. plugin.ts sets this around every request it passes to oidc-provider.
 */
export const clientAuthentication = new AsyncLocalStorage<{ basic: boolean }>();

/** What oidc-provider knows of a client registered with the script (see provider.ts for how secrets are compared). */
function clientAdapter(db: Database): Adapter {
  const readOnly = async () => {
    throw new Error("clients are managed with `npm run client`, not through oidc-provider");
  };
  return {
    async find(id) {
      if (!storable(id)) return undefined;
      const client = await findClientCached(db, id);
      if (!client) return undefined;
      return {
        client_id: client.id,
        client_name: client.name,
        redirect_uris: client.redirectUris,
        response_types: ["code"],
        grant_types: ["authorization_code", "refresh_token"],
        id_token_signed_response_alg: "RS256",
        ...(client.public
          ? { token_endpoint_auth_method: "none" }
          : {
              token_endpoint_auth_method: clientAuthentication.getStore()?.basic ? "client_secret_basic" : "client_secret_post",
              client_secret: client.secretHash,
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
