/**
 * A refusal of the service: its HTTP status and the stable snake_case `code` of its `{error, message}` body
 * (docs/reference/api.md), which programs compare; `retryAfterMs` when it said when to come back.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  /** The service's `error` code (`not_found`, `invalid_address`, `too_many_requests`…); `unexpected_response` for an answer that was not the service's JSON. */
  readonly code: string;
  /** What `Retry-After` said, in milliseconds, when the answer carried it. */
  readonly retryAfterMs: number | undefined;
  /** The request's `x-request-id`, which the service's logs name. */
  readonly requestId: string | undefined;

  constructor(init: { status: number; code: string; message: string; retryAfterMs?: number; requestId?: string }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.retryAfterMs = init.retryAfterMs;
    this.requestId = init.requestId;
  }
}
