import type { FastifyReply } from "fastify";

/** An error in RFC 6749's dialect (`{error, error_description}`), never cached. */
export function sendOAuthError(reply: FastifyReply, status: number, headers: Record<string, string>, error: string, description: string) {
  return reply
    .code(status)
    .headers(headers)
    .header("cache-control", "no-store")
    .type("application/json; charset=utf-8")
    .send({ error, error_description: description });
}
