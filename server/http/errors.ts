import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { upstreamError } from "../chain/networks";
import { HttpError } from "./http-error";

/** Fastify's own client errors, named the way our API names them. */
const FASTIFY_CODES: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: "unsupported_media_type" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: "invalid_request" },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "payload_too_large" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "malformed_json" },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "malformed_json" },
  FST_ERR_CTP_EMPTY_TYPE: { status: 415, code: "unsupported_media_type" },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: "unsupported_media_type" },
};

export interface ErrorBody {
  error: string;
  message: string;
}

/**
 * Turns any thrown error into the wire shape of DESIGN §6. Client mistakes keep their status and a message
 * that says what was wrong; our own faults become a bare 500 whose details go to the log only.
 * Plugins with another error dialect (OAuth) set their own handler in their scope and fall back to
 * {@link toErrorReply} for the rest.
 */
export function toErrorReply(error: FastifyError | Error, request: FastifyRequest): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof HttpError) {
    if (error.statusCode >= 500) request.log.warn({ err: error }, error.message);
    return { status: error.statusCode, body: { error: error.code, message: error.message }, headers: error.headers };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return { status: 400, body: { error: "invalid_request", message: fastifyError.message }, headers: {} };
  }
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return { status: known.status, body: { error: known.code, message: fastifyError.message }, headers: {} };
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, body: { error: "malformed_json", message: error.message }, headers: {} };
  }
  const upstream = upstreamError(error, "upstream");
  if (upstream) {
    request.log.warn({ err: error }, upstream.message);
    return { status: upstream.statusCode, body: { error: upstream.code, message: upstream.message }, headers: {} };
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return { status, body: { error: snakeCase(STATUS_CODES[status] ?? "bad_request"), message: fastifyError.message }, headers: {} };
  }
  request.log.error({ err: error }, "unhandled error");
  return { status: 500, body: { error: "internal_error", message: "Internal server error" }, headers: {} };
}

function snakeCase(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
}

function send(reply: FastifyReply, { status, body, headers }: ReturnType<typeof toErrorReply>) {
  return reply.code(status).headers(headers).type("application/json; charset=utf-8").send(body);
}

export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error, request, reply) => send(reply, toErrorReply(error as Error, request)));
    app.setNotFoundHandler((request, reply) =>
      send(reply, { status: 404, body: { error: "not_found", message: `Route ${request.method} ${request.url.split("?")[0]} not found` }, headers: {} }),
    );
    // Every answer names its request, so a user's report can be found in the logs.
    app.addHook("onSend", async (request, reply) => {
      reply.header("x-request-id", request.id);
    });
  },
  { name: "errors" },
);
