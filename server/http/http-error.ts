/**
 * An error the client is meant to see: answered as `{"error": code, "message": message}` with `status`
 * (docs/reference/api.md). Anything else thrown by a route is our fault: a 500 with no details in the body.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (code: string, message: string) => new HttpError(400, code, message);
export const notFound = (message = "Not found") => new HttpError(404, "not_found", message);
