import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Queryable } from "../db/database";
import { BoundedCache } from "../lib/bounded-cache";
import { systemClock, type Clock } from "../lib/clock";
import { LANGS, type Lang } from "./messages";
import { SUBJECT_FORMATS, type SubjectFormat } from "./subjects";
import { holdingsConfigJson, parseHoldingsConfig, type HoldingsConfig } from "./holdings";

export interface LoginClient {
  id: string;
  name: string;
  redirectUris: string[];
  /** Public clients (SPAs, native apps) have no secret and must use PKCE. */
  public: boolean;
  secretHash: string | null;
  createdAt: Date;
  /** What the client shows about itself (GET /api/client). */
  profile: ClientProfile;
  /** The form of `sub` in what it is issued (subjects.ts). */
  subjectFormat: SubjectFormat;
  /** Where RP-initiated logout may send the browser back to (compared byte for byte, like redirect URIs). */
  postLogoutRedirectUris: string[];
  /** The collections its logins report and the gate they must meet (holdings.ts); null: none. */
  holdings: HoldingsConfig | null;
}

/** Texts by language ("en", "ja"); English is the fallback. */
export type Texts = Partial<Record<Lang, string>>;

export interface ClientProfile {
  title: Texts;
  description: Texts;
  logoUrl: string | null;
  /** Also an audience of the client's ID tokens. */
  homeUrl: string | null;
}

interface Row {
  id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string[];
  created_at: Date;
  title: Texts;
  description: Texts;
  logo_url: string | null;
  home_url: string | null;
  subject_format: SubjectFormat;
  post_logout_redirect_uris: string[];
  holdings: unknown;
}

/**
 * Unicode Cc (controls, line breaks), Cf (format: bidi overrides and isolates, zero-width characters), Zl and Zp.
 * Client texts go into the message a user signs: a line break could forge its lines, a bidi override could make its
 * host part render reversed, a zero-width character could make two names look alike.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");

const safeTexts = (texts: Texts): Texts =>
  Object.fromEntries(Object.entries(texts).map(([lang, text]) => [lang, String(text).replace(INVISIBLE_ALL, "\uFFFD")])) as Texts;

/**
 * A row as the service uses it. Registration refuses invisible characters, but a row may have been written some other
 * way: such a name or profile text is rendered safe (each of them shown as U+FFFD) and such a redirect URI is unusable (left out).
 */
const fromRow = (row: Row): LoginClient => ({
  id: row.id,
  name: row.name.replace(INVISIBLE_ALL, "\uFFFD"),
  redirectUris: row.redirect_uris.filter((uri) => !INVISIBLE.test(uri)),
  public: row.secret_hash === null,
  secretHash: row.secret_hash,
  createdAt: row.created_at,
  profile: { title: safeTexts(row.title), description: safeTexts(row.description), logoUrl: row.logo_url, homeUrl: row.home_url },
  subjectFormat: row.subject_format,
  postLogoutRedirectUris: row.post_logout_redirect_uris.filter((uri) => !INVISIBLE.test(uri)),
  holdings: parseHoldingsConfig(row.holdings, null),
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
  if (/[\s<>"]/.test(uri) || INVISIBLE.test(uri))
    return `a redirect URI must not contain spaces, quotes, angle brackets or invisible characters: ${JSON.stringify(uri)}`;
  if (url.protocol === "javascript:" || url.protocol === "data:" || url.protocol === "file:") return `scheme not allowed: ${uri}`;
  return undefined;
}

export function checkClientName(name: string): string | undefined {
  // The name is a line of the signed message (see INVISIBLE).
  if (!name.trim() || name.length > 80) return "the name must be one line of 1 to 80 characters";
  if (INVISIBLE.test(name)) return "the name must not contain control, format or bidi characters (Unicode Cc, Cf, Zl, Zp)";
  return undefined;
}

const NO_PROFILE: ClientProfile = { title: {}, description: {}, logoUrl: null, homeUrl: null };

/**
 * Checks what a new client (`redirectUris` given) or a change of one (no `redirectUris`) would store, before any
 * database is asked: throws an Error naming the first problem. Returns the profile of a new client.
 */
export function checkClientInput(input: {
  name?: string;
  redirectUris?: string[];
  profile?: ProfileChange;
  subjectFormat?: string;
  postLogoutRedirectUris?: string[];
}): ClientProfile {
  const nameProblem = input.name === undefined ? undefined : checkClientName(input.name);
  if (nameProblem) throw new Error(nameProblem);
  if (input.subjectFormat !== undefined && !(SUBJECT_FORMATS as readonly string[]).includes(input.subjectFormat))
    throw new Error(`the subject format must be one of ${SUBJECT_FORMATS.join(", ")}: ${input.subjectFormat}`);
  for (const uri of input.postLogoutRedirectUris ?? []) {
    const problem = checkRedirectUri(uri);
    if (problem) throw new Error(`post-logout ${problem}`);
  }
  const profile = applyProfileChange(NO_PROFILE, input.profile ?? {});
  if (input.redirectUris === undefined) return profile;
  if (input.redirectUris.length === 0) throw new Error("at least one redirect URI is needed");
  for (const uri of input.redirectUris) {
    const problem = checkRedirectUri(uri);
    if (problem) throw new Error(problem);
  }
  return profile;
}

export async function addClient(
  db: Queryable,
  input: {
    name: string;
    redirectUris: string[];
    public: boolean;
    profile?: ProfileChange;
    subjectFormat?: SubjectFormat;
    postLogoutRedirectUris?: string[];
    /** Checked by parseHoldingsConfig against the networks indexed, before it comes here. */
    holdings?: HoldingsConfig | null;
  },
): Promise<{ client: LoginClient; secret?: string }> {
  const profile = checkClientInput(input);
  const id = randomBytes(16).toString("base64url");
  const secret = input.public ? undefined : randomBytes(32).toString("base64url");
  const { rows } = await db.query<Row>(
    `INSERT INTO login_clients (id, name, secret_hash, redirect_uris, title, description, logo_url, home_url, subject_format, post_logout_redirect_uris, holdings)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
    [
      id,
      input.name,
      secret ? hashSecret(secret) : null,
      input.redirectUris,
      JSON.stringify(profile.title),
      JSON.stringify(profile.description),
      profile.logoUrl,
      profile.homeUrl,
      input.subjectFormat ?? "address",
      input.postLogoutRedirectUris ?? [],
      holdingsColumn(input.holdings ?? null),
    ],
  );
  return { client: fromRow(rows[0]), secret };
}

export async function findClient(db: Queryable, id: string): Promise<LoginClient | undefined> {
  const { rows } = await db.query<Row>("SELECT * FROM login_clients WHERE id = $1", [id]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** How long a client read from the database is reused by this instance. */
export const CLIENT_CACHE_MS = 1000;

/**
 * findClient, reusing what this instance read in the last second: each login reads its client three times (authorize,
 * code, token). Only clients that exist are kept, so a new client works at once; a removed one is gone within a
 * second, and its challenges, codes and tokens are deleted with it in any case.
 */
export class CachedClients {
  private readonly cache: BoundedCache<LoginClient | undefined>;

  constructor(
    private readonly db: Queryable,
    now: Clock = systemClock,
  ) {
    this.cache = new BoundedCache(10_000, { ttlMs: CLIENT_CACHE_MS, now });
  }

  find(id: string): Promise<LoginClient | undefined> {
    return this.cache.getOrLoad(
      id,
      () => findClient(this.db, id),
      (client) => client !== undefined,
    );
  }
}

export async function listClients(db: Queryable): Promise<LoginClient[]> {
  const { rows } = await db.query<Row>("SELECT * FROM login_clients ORDER BY created_at, id");
  return rows.map(fromRow);
}

/** Removes a client (its open challenges go with it, by their foreign key); what was issued to it is the adapter's to delete (`deleteClientPayloads`). */
export async function removeClient(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM login_clients WHERE id = $1", [id]);
  return rowCount > 0;
}

/**
 * A change to a client's profile: a text or URL given replaces the stored one, an empty string clears it, anything
 * left out is kept.
 */
export interface ProfileChange {
  title?: Texts;
  description?: Texts;
  logoUrl?: string;
  homeUrl?: string;
}

const TEXT_LIMITS = { title: 200, description: 2000 } as const;

/** A profile text is shown as is by the relying party's pages: bounded, and no invisible characters (see INVISIBLE). */
export function checkProfileText(field: keyof typeof TEXT_LIMITS, text: string): string | undefined {
  if (text.length > TEXT_LIMITS[field]) return `the ${field} must be at most ${TEXT_LIMITS[field]} characters`;
  if (INVISIBLE.test(text)) return `the ${field} must not contain control, format or bidi characters (Unicode Cc, Cf, Zl, Zp)`;
  return undefined;
}

/** logo_url and home_url: absolute http(s) URLs (they end up in pages and in ID-token audiences). */
export function checkProfileUrl(field: "logo_url" | "home_url", url: string): string | undefined {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) return `${field} must be an absolute http(s) URL: ${url}`;
  if (url.length > 2048 || /[\s<>"\u0000-\u001f\u007f]/.test(url))
    return `${field} must be at most 2048 characters without spaces, quotes, angle brackets or control characters`;
  return undefined;
}

function applyProfileChange(profile: ClientProfile, change: ProfileChange): ClientProfile {
  const texts = (field: "title" | "description", current: Texts, given: Texts | undefined): Texts => {
    const next: Texts = { ...current };
    for (const [lang, text] of Object.entries(given ?? {}) as [Lang, string | undefined][]) {
      if (!LANGS.includes(lang)) throw new Error(`${field}: unknown language "${lang}" (${LANGS.join(", ")})`);
      if (text === undefined) continue;
      const problem = checkProfileText(field, text);
      if (problem) throw new Error(problem);
      if (text === "") delete next[lang];
      else next[lang] = text;
    }
    return next;
  };
  const url = (field: "logo_url" | "home_url", current: string | null, given: string | undefined): string | null => {
    if (given === undefined) return current;
    if (given === "") return null;
    const problem = checkProfileUrl(field, given);
    if (problem) throw new Error(problem);
    return given;
  };
  return {
    title: texts("title", profile.title, change.title),
    description: texts("description", profile.description, change.description),
    logoUrl: url("logo_url", profile.logoUrl, change.logoUrl),
    homeUrl: url("home_url", profile.homeUrl, change.homeUrl),
  };
}

/**
 * Changes a client's name, profile, subject format, post-logout redirect URIs (`postLogoutRedirectUris` replaces
 * the list) and holdings configuration (null removes it); undefined when there is no such client. Secret and redirect
 * URIs stay.
 */
export async function updateClient(
  db: Queryable,
  id: string,
  change: {
    name?: string;
    profile?: ProfileChange;
    subjectFormat?: SubjectFormat;
    postLogoutRedirectUris?: string[];
    holdings?: HoldingsConfig | null;
  },
): Promise<LoginClient | undefined> {
  checkClientInput(change);
  const current = await findClient(db, id);
  if (!current) return undefined;
  const profile = applyProfileChange(current.profile, change.profile ?? {});
  const { rows } = await db.query<Row>(
    "UPDATE login_clients SET name = $2, title = $3, description = $4, logo_url = $5, home_url = $6, subject_format = $7, post_logout_redirect_uris = $8, holdings = $9 WHERE id = $1 RETURNING *",
    [
      id,
      change.name ?? current.name,
      JSON.stringify(profile.title),
      JSON.stringify(profile.description),
      profile.logoUrl,
      profile.homeUrl,
      change.subjectFormat ?? current.subjectFormat,
      change.postLogoutRedirectUris ?? current.postLogoutRedirectUris,
      holdingsColumn(change.holdings === undefined ? current.holdings : change.holdings),
    ],
  );
  return rows[0] ? fromRow(rows[0]) : undefined;
}

const holdingsColumn = (holdings: HoldingsConfig | null) => (holdings ? JSON.stringify(holdingsConfigJson(holdings)) : null);

/** The predecessor's client description: every value a string (its Go client decodes them into strings). */
export interface ClientInfo {
  client_id: string;
  title: string;
  description: string;
  logo_url: string;
  home_url: string;
}

/** The client's texts in `lang`, else in English; the title falls back to the client's name. */
export function clientInfo(client: LoginClient, lang: Lang): ClientInfo {
  const { title, description, logoUrl, homeUrl } = client.profile;
  return {
    client_id: client.id,
    title: title[lang] ?? title.en ?? client.name,
    description: description[lang] ?? description.en ?? "",
    logo_url: logoUrl ?? "",
    home_url: homeUrl ?? "",
  };
}
