/**
 * What kind of refusal a domain error is. Domains say what went wrong in their own terms; the HTTP layer alone
 * decides which status each kind gets (`server/http/errors.ts`), so a domain module never names a status and the
 * standalone indexer or a CLI can handle the same errors without any HTTP in sight.
 */
export type ErrorKind =
  /** The input is malformed or names something that cannot exist. */
  | "invalid"
  /** A credential or signature does not prove what it claims. */
  | "unauthorized"
  /** Proven, but not allowed to do this. */
  | "forbidden"
  | "not_found"
  /** Conflicts with what is stored. */
  | "conflict"
  | "too_large"
  /** A quota or rate is exhausted (with a time to retry after). */
  | "too_many"
  /** A dependency this needs is not configured or not ready (with a time to retry after, where one is known). */
  | "unavailable"
  /** A node or other upstream service failed to answer usably. */
  | "upstream"
  /** A node or other upstream service did not answer in time. */
  | "upstream_timeout";

/**
 * An error a domain module throws for its caller to see: a stable snake_case `code` (the `error` field of the API's
 * answers), a message that says what is wrong, and its kind. Anything else thrown is a fault of ours.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    /** When trying again makes sense (seconds), for `too_many` and `unavailable`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
