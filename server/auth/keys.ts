import { randomBytes } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, exportSPKI, generateKeyPair, importJWK, type JWK } from "jose";
import type { Database } from "../db/database";

/** Arbitrary constant: serializes the first key generation of instances that start together on an empty database. */
const KEYS_LOCK = 7_301_955_100;

export interface LoginKeys {
  /** Private JWKs for oidc-provider's `jwks`; the first one signs. */
  signing: JWK[];
  /** oidc-provider's cookie keys (the interaction cookies of the hosted page). */
  cookie: string[];
}

/**
 * The ID-token keys from OIDC_JWKS when given, else from the database, made once by whichever instance starts
 * first. Keys are not kept only in memory: every instance must sign with, and publish, the same keys.
 */
export async function loadKeys(db: Database, fromEnv?: { keys: Record<string, unknown>[] }): Promise<LoginKeys> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [KEYS_LOCK]);
    const read = async (use: string) =>
      (
        await tx.query<{ kid: string; jwk: JWK }>(
          "SELECT kid, jwk FROM login_keys WHERE use = $1 AND retired_at IS NULL ORDER BY created_at DESC, kid",
          [use],
        )
      ).rows;
    let signing = fromEnv ? await withKids(fromEnv.keys as JWK[]) : (await read("signing")).map((row) => ({ ...row.jwk, kid: row.kid }));
    if (signing.length === 0) {
      const jwk = await newSigningKey();
      await tx.query("INSERT INTO login_keys (kid, use, jwk) VALUES ($1, 'signing', $2)", [jwk.kid, JSON.stringify(jwk)]);
      signing = [jwk];
    }
    let cookie = (await read("cookie")).map((row) => String((row.jwk as { k: string }).k));
    if (cookie.length === 0) {
      const k = randomBytes(32).toString("base64url");
      await tx.query("INSERT INTO login_keys (kid, use, jwk) VALUES ($1, 'cookie', $2)", [`cookie-${randomBytes(6).toString("hex")}`, JSON.stringify({ kty: "oct", k })]);
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

async function withKids(keys: JWK[]): Promise<JWK[]> {
  return Promise.all(keys.map(async (key) => ({ alg: "RS256", use: "sig", ...key, kid: key.kid ?? (await calculateJwkThumbprint(key)) })));
}

/** `{kid: PEM}` of the public keys (the predecessor's `GET /api/metadata/x509`). */
export async function publicPems(keys: JWK[]): Promise<Record<string, string>> {
  const entries = await Promise.all(
    keys.map(async ({ kty, n, e, kid }) => {
      const key = await importJWK({ kty, n, e }, "RS256", { extractable: true });
      return [kid as string, await exportSPKI(key as Parameters<typeof exportSPKI>[0])] as const;
    }),
  );
  return Object.fromEntries(entries);
}
