import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Queryable } from "../db/database";

export interface LoginClient {
  id: string;
  name: string;
  redirectUris: string[];
  /** Public clients (SPAs, native apps) have no secret and must use PKCE. */
  public: boolean;
  secretHash: string | null;
  createdAt: Date;
}

interface Row {
  id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string[];
  created_at: Date;
}

/**
 * Unicode Cc (controls, line breaks), Cf (format: bidi overrides and isolates, zero-width characters), Zl and Zp.
 * Client texts go into the message a user signs: a line break could forge its lines, a bidi override could make its
 * host part render reversed, a zero-width character could make two names look alike.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");

/**
 * A row as the service uses it. Registration refuses invisible characters, but a row may have been written some other
 * way: such a name is rendered safe (each of them shown as U+FFFD) and such a redirect URI is unusable (left out).
 */
const fromRow = (row: Row): LoginClient => ({
  id: row.id,
  name: row.name.replace(INVISIBLE_ALL, "\uFFFD"),
  redirectUris: row.redirect_uris.filter((uri) => !INVISIBLE.test(uri)),
  public: row.secret_hash === null,
  secretHash: row.secret_hash,
  createdAt: row.created_at,
});

/**
 * Secrets are 256 random bits made by us, so one SHA-256 is enough to make the stored hash useless to someone who
 * reads the table: there is nothing to guess (a slow KDF protects low-entropy passwords, which these are not).
 */
export function hashSecret(secret: string): string {
  return `sha256$${createHash("sha256").update(secret, "utf8").digest("hex")}`;
}

export function secretMatches(secret: unknown, stored: string | null): boolean {
  if (typeof secret !== "string" || !stored) return false;
  const a = Buffer.from(hashSecret(secret));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A redirect URI a client may register: absolute, http(s) (or a private-use scheme for native apps), no fragment. */
export function checkRedirectUri(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `not an absolute URL: ${uri}`;
  }
  if (url.hash || uri.includes("#")) return `a redirect URI must not have a fragment: ${uri}`;
  if (/[\s<>"]/.test(uri) || INVISIBLE.test(uri)) return `a redirect URI must not contain spaces, quotes, angle brackets or invisible characters: ${JSON.stringify(uri)}`;
  if (url.protocol === "javascript:" || url.protocol === "data:" || url.protocol === "file:") return `scheme not allowed: ${uri}`;
  return undefined;
}

export function checkClientName(name: string): string | undefined {
  // The name is a line of the signed message (see INVISIBLE).
  if (!name.trim() || name.length > 80) return "the name must be one line of 1 to 80 characters";
  if (INVISIBLE.test(name)) return "the name must not contain control, format or bidi characters (Unicode Cc, Cf, Zl, Zp)";
  return undefined;
}

export async function addClient(db: Queryable, input: { name: string; redirectUris: string[]; public: boolean }): Promise<{ client: LoginClient; secret?: string }> {
  const nameProblem = checkClientName(input.name);
  if (nameProblem) throw new Error(nameProblem);
  if (input.redirectUris.length === 0) throw new Error("at least one redirect URI is needed");
  for (const uri of input.redirectUris) {
    const problem = checkRedirectUri(uri);
    if (problem) throw new Error(problem);
  }
  const id = randomBytes(16).toString("base64url");
  const secret = input.public ? undefined : randomBytes(32).toString("base64url");
  const { rows } = await db.query<Row>(
    "INSERT INTO login_clients (id, name, secret_hash, redirect_uris) VALUES ($1, $2, $3, $4) RETURNING *",
    [id, input.name, secret ? hashSecret(secret) : null, input.redirectUris],
  );
  return { client: fromRow(rows[0]), secret };
}

export async function findClient(db: Queryable, id: string): Promise<LoginClient | undefined> {
  const { rows } = await db.query<Row>("SELECT * FROM login_clients WHERE id = $1", [id]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** How long a client read from the database is reused by this instance. */
export const CLIENT_CACHE_MS = 1000;
const cache = new WeakMap<Queryable, Map<string, { until: number; client: LoginClient }>>();

/**
 * findClient, reusing what this instance read in the last second: each login reads its client three times (authorize,
 * code, token). Only clients that exist are cached, so a new client works at once; a removed one is gone within a
 * second, and its challenges, codes and tokens are deleted with it in any case.
 */
export async function findClientCached(db: Queryable, id: string): Promise<LoginClient | undefined> {
  let entries = cache.get(db);
  if (!entries) cache.set(db, (entries = new Map()));
  const now = Date.now();
  const hit = entries.get(id);
  if (hit && hit.until > now) return hit.client;
  const client = await findClient(db, id);
  if (entries.size > 10_000) entries.clear();
  if (client) entries.set(id, { until: now + CLIENT_CACHE_MS, client });
  else entries.delete(id);
  return client;
}

export async function listClients(db: Queryable): Promise<LoginClient[]> {
  const { rows } = await db.query<Row>("SELECT * FROM login_clients ORDER BY created_at, id");
  return rows.map(fromRow);
}

/** Removes the client with its challenges, codes, grants and tokens. */
export async function removeClient(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM login_clients WHERE id = $1", [id]);
  await db.query("DELETE FROM oidc_payloads WHERE payload->>'clientId' = $1 OR (kind = 'Grant' AND payload->>'clientId' = $1)", [id]);
  return rowCount > 0;
}
