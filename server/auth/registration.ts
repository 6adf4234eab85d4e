import { createHash, timingSafeEqual } from "node:crypto";
import type { Queryable } from "../db/database";
import { DomainError } from "../lib/domain-error";
import { addClient, checkRedirectUri, type LoginClient } from "./clients";
import { holdingsConfigJson, parseHoldingsConfig, type HoldingsConfig } from "./holdings";

/**
 * Dynamic client registration (RFC 7591; docs/reference/login.md): a client registers itself with the initial access token of
 * LOGIN_REGISTRATION_ACCESS_TOKEN, and is checked and stored as `npm run client -- add` checks and stores one
 * (`addClient`), in login_clients. oidc-provider's own registration is not used: it would store clients through its
 * adapter, with their secrets in clear, where ours keeps a hash.
 */

/** Where clients register themselves, when LOGIN_REGISTRATION_ACCESS_TOKEN is set (discovery's registration_endpoint). */
export const REGISTRATION_PATH = "/register";

/** RFC 7591 §3.2.2's refusals (and RFC 6750's for the initial access token). */
const refuse = (code: "invalid_redirect_uri" | "invalid_client_metadata", message: string) => new DomainError("invalid", code, message);
export const invalidInitialToken = () =>
  new DomainError("unauthorized", "invalid_token", "registration needs the initial access token as Authorization: Bearer");

const GRANT_TYPES = ["authorization_code", "refresh_token"];
const AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"];

/** Whether `authorization` is `Bearer <the initial access token>`, compared in constant time. */
export function authorizedToRegister(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer ([^\s]+)$/i.exec(authorization ?? "");
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * Registers the client `metadata` describes (RFC 7591 §2); the answer of §3.2.1, its secret shown this once. `indexed`:
 * the networks this service indexes, the only ones its `holdings` may name.
 */
export async function registerClient(
  db: Queryable,
  metadata: Record<string, unknown>,
  indexed: readonly string[],
): Promise<Record<string, unknown>> {
  const strings = (field: string, required: boolean): string[] | undefined => {
    const value = metadata[field];
    if (value === undefined && !required) return undefined;
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string") || (required && value.length === 0))
      throw refuse(
        field === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata",
        `${field} must be a${required ? " non-empty" : "n"} array of strings`,
      );
    return value as string[];
  };
  const text = (field: string): string | undefined => {
    const value = metadata[field];
    if (value !== undefined && typeof value !== "string") throw refuse("invalid_client_metadata", `${field} must be a string`);
    return value;
  };
  const redirectUris = strings("redirect_uris", true)!;
  for (const uri of redirectUris) {
    const problem = checkRedirectUri(uri);
    if (problem) throw refuse("invalid_redirect_uri", problem);
  }
  const name = text("client_name");
  if (name === undefined) throw refuse("invalid_client_metadata", "client_name is required: users see it in the message they sign");
  const method = text("token_endpoint_auth_method") ?? "client_secret_basic";
  if (!AUTH_METHODS.includes(method))
    throw refuse("invalid_client_metadata", `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}`);
  const supported: Array<[string, string[]]> = [
    ["grant_types", GRANT_TYPES],
    ["response_types", ["code"]],
  ];
  for (const [field, allowed] of supported) {
    const asked = strings(field, false);
    const unsupported = asked?.find((value) => !allowed.includes(value));
    if (unsupported !== undefined) throw refuse("invalid_client_metadata", `${field}: ${unsupported} is not supported`);
  }
  const subjectFormat = text("subject_format");
  let holdings: HoldingsConfig | null;
  try {
    holdings = parseHoldingsConfig(metadata.holdings, indexed);
  } catch (error) {
    throw refuse("invalid_client_metadata", (error as Error).message);
  }
  let added: { client: LoginClient; secret?: string };
  try {
    added = await addClient(db, {
      name,
      redirectUris,
      public: method === "none",
      profile: { logoUrl: text("logo_uri"), homeUrl: text("client_uri") },
      subjectFormat: subjectFormat as LoginClient["subjectFormat"] | undefined,
      postLogoutRedirectUris: strings("post_logout_redirect_uris", false),
      holdings,
    });
  } catch (error) {
    // addClient's checks (clients.ts): the same refusals, in the same words, as `npm run client -- add`.
    throw refuse("invalid_client_metadata", (error as Error).message);
  }
  const { client, secret } = added;
  return {
    client_id: client.id,
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    token_endpoint_auth_method: method,
    grant_types: GRANT_TYPES,
    response_types: ["code"],
    subject_format: client.subjectFormat,
    ...(client.profile.logoUrl ? { logo_uri: client.profile.logoUrl } : {}),
    ...(client.profile.homeUrl ? { client_uri: client.profile.homeUrl } : {}),
    ...(client.holdings ? { holdings: holdingsConfigJson(client.holdings) } : {}),
  };
}
