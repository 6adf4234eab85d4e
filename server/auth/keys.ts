import { createPublicKey, randomBytes } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Database, Queryable } from "../db/database";

/** Arbitrary constant: serializes the first key generation of instances that start together on an empty database. */
const KEYS_LOCK = 7_301_955_100;

export interface LoginKeys {
  /** Private JWKs for oidc-provider's `jwks`: the first one signs, the others are published only. */
  signing: JWK[];
  /** oidc-provider's cookie keys (the interaction cookies of the hosted page). */
  cookie: string[];
}

export type KeyState = "staged" | "active" | "retired";

export interface StoredKey {
  kid: string;
  state: KeyState;
  createdAt: Date;
  changedAt: Date;
}

/**
 * The ID-token keys from OIDC_JWKS when given, else from the database, made once by whichever instance starts
 * first. Keys are not kept only in memory: every instance must sign with, and publish, the same keys.
 */
export async function loadKeys(db: Database, fromEnv?: { keys: Record<string, unknown>[] }): Promise<LoginKeys> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [KEYS_LOCK]);
    let signing: JWK[];
    if (fromEnv) {
      signing = await withKids(fromEnv.keys as JWK[]);
    } else {
      // The newest active key first (it signs), then the other active ones, then staged ones (published only).
      const { rows } = await tx.query<{ kid: string; jwk: JWK }>(
        `SELECT kid, jwk FROM login_keys WHERE use = 'signing' AND state <> 'retired'
         ORDER BY state = 'active' DESC, created_at DESC, kid`,
      );
      signing = rows.map((row) => ({ ...row.jwk, kid: row.kid }));
      if (!rows.length || (await tx.query("SELECT 1 FROM login_keys WHERE use = 'signing' AND state = 'active'")).rows.length === 0) {
        const jwk = await insertSigningKey(tx, "active");
        signing = [jwk, ...signing];
      }
    }
    const { rows: cookieRows } = await tx.query<{ jwk: { k: string } }>(
      "SELECT jwk FROM login_keys WHERE use = 'cookie' AND state = 'active' ORDER BY created_at DESC",
    );
    let cookie = cookieRows.map((row) => row.jwk.k);
    if (cookie.length === 0) {
      const k = randomBytes(32).toString("base64url");
      await tx.query("INSERT INTO login_keys (kid, use, jwk) VALUES ($1, 'cookie', $2)", [
        `cookie-${randomBytes(6).toString("hex")}`,
        JSON.stringify({ kty: "oct", k }),
      ]);
      cookie = [k];
    }
    return { signing, cookie };
  });
}

/** A fresh RS256 key named by its RFC 7638 thumbprint. */
export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: "RS256", use: "sig" };
}

export async function insertSigningKey(db: Queryable, state: "staged" | "active"): Promise<JWK> {
  const jwk = await newSigningKey();
  await db.query("INSERT INTO login_keys (kid, use, jwk, state) VALUES ($1, 'signing', $2, $3)", [jwk.kid, JSON.stringify(jwk), state]);
  return jwk;
}

export async function listSigningKeys(db: Queryable): Promise<StoredKey[]> {
  const { rows } = await db.query<{ kid: string; state: KeyState; created_at: Date; changed_at: Date }>(
    "SELECT kid, state, created_at, changed_at FROM login_keys WHERE use = 'signing' ORDER BY created_at DESC, kid",
  );
  return rows.map((row) => ({ kid: row.kid, state: row.state, createdAt: row.created_at, changedAt: row.changed_at }));
}

/** Moves a key to `state`; false when there is no such signing key. Retiring the last active key is refused. */
export async function setKeyState(db: Database, kid: string, state: KeyState): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [KEYS_LOCK]);
    const { rows } = await tx.query<{ state: KeyState }>("SELECT state FROM login_keys WHERE use = 'signing' AND kid = $1", [kid]);
    if (rows.length === 0) return false;
    if (state !== "active" && rows[0].state === "active") {
      const { rows: active } = await tx.query("SELECT kid FROM login_keys WHERE use = 'signing' AND state = 'active' AND kid <> $1", [kid]);
      if (active.length === 0) throw new Error(`${kid} is the only active key: add and activate another one first`);
    }
    // An activated key becomes the newest active one, so it is the one that signs.
    await tx.query(
      `UPDATE login_keys SET state = $2, changed_at = now(), created_at = CASE WHEN $2 = 'active' THEN now() ELSE created_at END
       WHERE use = 'signing' AND kid = $1`,
      [kid, state],
    );
    return true;
  });
}

async function withKids(keys: JWK[]): Promise<JWK[]> {
  return Promise.all(keys.map(async (key) => ({ alg: "RS256", use: "sig", ...key, kid: key.kid ?? (await calculateJwkThumbprint(key)) })));
}

/**
 * `{kid: PEM}` of the public keys (the predecessor's `GET /api/metadata/x509`), in PKCS#1 form
 * (`BEGIN RSA PUBLIC KEY`): its Go client reads them with x509.ParsePKCS1PublicKey, which refuses SPKI.
 */
export async function publicPems(keys: JWK[]): Promise<Record<string, string>> {
  return Object.fromEntries(
    keys.map(({ kty, n, e, kid }) => {
      const key = createPublicKey({ key: { kty: kty as string, n: n as string, e: e as string }, format: "jwk" });
      return [kid as string, key.export({ type: "pkcs1", format: "pem" }) as string];
    }),
  );
}
