import { Type, type TSchema } from "typebox";

/**
 * The error codes of the JSON API with their status and what each means (docs/reference/api.md, docs/reference/login.md, docs/reference/metadata.md),
 * for the OpenAPI document: each route lists the codes it can give, and {@link refusals} writes its error answers.
 */
const CODES = {
  invalid_request: [400, "a field is missing or malformed (the message names it), or the request holds a control character"],
  malformed_json: [400, "the body is not JSON"],
  invalid_address: [400, "an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum"],
  invalid_token_id: [400, "a token id is not a decimal uint256"],
  invalid_block_number: [400, "num is not a decimal block number"],
  invalid_cursor: [400, "cursor is not one this service gave for this list"],
  block_out_of_range: [400, "block is before the contract's first indexed block or past the block the index is complete to"],
  snapshot_too_large: [
    400,
    "the contract has more indexed transfers than HOLDERS_SNAPSHOT_MAX_TRANSFERS: its holders at a block cost more than that bound",
  ],
  unknown_network: [400, "the network is not one of the registry's names"],
  not_erc721: [400, "the contract has no code, or does not answer as an ERC-721"],
  invalid_client: [400, "client_id names no registered client"],
  invalid_redirect_uri: [400, "redirect_uri is not registered for this client"],
  unsupported_response_type: [400, 'response_type is not "code"'],
  invalid_scope: [400, 'scope does not contain "openid"'],
  invalid_lang: [400, "lang is not a language tag"],
  malformed_signature: [400, "the signature is not hex bytes of a signature (wrong length, high s)"],
  network_mismatch: [400, "the signed message names another network"],
  unsupported_network: [400, "a contract wallet's signature on a network this service has no node for"],
  unindexed_network: [400, "the client's holdings name a network this service does not index"],
  invalid_metadata: [400, "metadata is not standard Base64 of a JSON object the service serves"],
  invalid_subscription: [
    400,
    "a webhook subscription's kind, description or replay point is not one the service takes (the message says which)",
  ],
  endpoint_refused: [400, "the webhook endpoint is not an https URL whose host resolves to public addresses only (the message says why)"],
  invalid_token: [401, "no Authorization: Bearer token, or not a live client_credentials access token of a registered client"],
  invalid_challenge: [401, "no open sign-in message for this address and client (expired after 5 minutes, used, or never asked)"],
  invalid_signature: [401, "the signature does not prove the address (issuer) signed this text"],
  binding_required: [401, "the signature covers the metadata alone, and this service requires it to name the target"],
  access_denied: [403, "the signer does not meet the client's holdings gate, as indexed at the blocks the message names"],
  eoa_required: [403, "account metadata signed by a contract wallet: only an externally owned account may issue it"],
  not_found: [404, "nothing to answer (the message says what)"],
  subscription_not_found: [404, "no webhook subscription of this client has this id"],
  replayed: [409, "this body was current before and has been superseded: sign new content"],
  too_many_subscriptions: [409, "the client holds WEBHOOKS_MAX_PER_CLIENT subscriptions already"],
  replay_out_of_range: [409, "the replay starts before the oldest change the log keeps (the message names it)"],
  payload_too_large: [413, "the body is over BODY_LIMIT (or metadata over SIGNED_METADATA_MAX_BYTES)"],
  too_many_filters: [413, "the subscription names more than WEBHOOKS_MAX_FILTERS contracts and owners together"],
  uri_too_long: [414, "a path parameter is over 100 characters"],
  unsupported_media_type: [415, "the body is not application/json"],
  too_many_requests: [429, "this client's rate limit for the minute is used up (Retry-After)"],
  refresh_cooldown: [429, "this collection was refreshed too recently on this instance (Retry-After)"],
  too_many_challenges: [429, "this client address holds too many open sign-in messages (Retry-After)"],
  internal_error: [500, "our fault: the details are in the log under the x-request-id"],
  upstream_error: [502, "the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert)"],
  network_unavailable: [503, "the network is known but this service has no node for it (no RPC URL)"],
  not_indexed: [503, "the network's index has not started yet (Retry-After)"],
  upstream_rate_limited: [503, "the node's provider rate-limits this service (Retry-After)"],
  too_many_subscribers: [503, "this instance streams to as many subscribers as it takes (Retry-After)"],
  refresh_busy: [503, "this instance runs as many collection refreshes as it takes (Retry-After)"],
  metadata_busy: [503, "this instance builds as many answers with token metadata as it takes (Retry-After)"],
  webhooks_off: [503, "the operator has not set WEBHOOKS_SECRET_KEYS: no webhooks here"],
  database_busy: [503, "the database is overloaded (Retry-After)"],
  database_unavailable: [503, "the database is unreachable (Retry-After)"],
  database_full: [503, "the database has no disk space left for a write (Retry-After)"],
  upstream_timeout: [504, "the network's node did not answer in time"],
} as const satisfies Record<string, readonly [number, string]>;

export type RefusalCode = keyof typeof CODES;

/** Reads from the database. */
export const DATABASE_READ: RefusalCode[] = ["database_busy", "database_unavailable"];
/** Writes to the database. */
export const DATABASE_WRITE: RefusalCode[] = [...DATABASE_READ, "database_full"];
/** Asks a network's node. */
export const NODE: RefusalCode[] = [
  "unknown_network",
  "network_unavailable",
  "upstream_error",
  "upstream_timeout",
  "upstream_rate_limited",
];
/** Reads a network's index. */
export const INDEX: RefusalCode[] = ["unknown_network", "network_unavailable", "not_indexed", ...DATABASE_READ];
/** A body of JSON. */
export const JSON_BODY: RefusalCode[] = ["malformed_json", "payload_too_large", "unsupported_media_type"];

/**
 * The error answers of a route for its OpenAPI document, from the codes it can give (with `invalid_request` and
 * `internal_error`, which every route can): per status, the shared error body with `error` one of that status' codes,
 * described code by code.
 */
export function refusals(...codes: RefusalCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, RefusalCode[]>();
  for (const code of new Set<RefusalCode>(["invalid_request", ...codes, "internal_error"])) {
    const status = CODES[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      Type.Object(
        {
          error: Type.Unsafe<string>({ type: "string", enum: list, description: "snake_case code, stable: what programs compare" }),
          message: Type.String({ description: "What was wrong, for people" }),
        },
        { description: list.map((code) => `\`${code}\`: ${CODES[code][1]}`).join("; ") },
      ),
    ]),
  );
}

/** The codes of the catalogue above with what each means, for {@link oauthRefusals}. */
const meanings = (...codes: RefusalCode[]): Record<string, string> => Object.fromEntries(codes.map((code) => [code, CODES[code][1]]));

/** The rate limit and the database, as an endpoint in RFC 6749's dialect refuses for them. */
export const OAUTH_LIMITS = { 429: meanings("too_many_requests"), 503: meanings(...DATABASE_WRITE) };

/**
 * The error answers of an endpoint that answers in RFC 6749's dialect (`{error, error_description}`: the token
 * endpoint, client registration), per status: each code with what it means.
 */
export function oauthRefusals(byStatus: Record<number, Record<string, string>>): Record<number, TSchema> {
  return Object.fromEntries(
    Object.entries(byStatus).map(([status, codes]) => [
      status,
      Type.Object(
        {
          error: Type.Unsafe<string>({ type: "string", enum: Object.keys(codes), description: "RFC 6749 error code" }),
          error_description: Type.String({ description: "What was wrong, for people" }),
        },
        {
          description: Object.entries(codes)
            .map(([code, meaning]) => `\`${code}\`: ${meaning}`)
            .join("; "),
        },
      ),
    ]),
  );
}
