import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Static } from "typebox";
import { isUnstorableText } from "../db/errors";
import { DomainError, type ErrorKind } from "../lib/domain-error";
import { HttpError } from "./http-error";
import { RouteMethods } from "./route-methods";
import type { ErrorBody as ErrorBodySchema } from "./schemas";

/** Fastify's own client errors, named the way our API names them. */
const FASTIFY_CODES: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: "unsupported_media_type" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: "invalid_request" },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "payload_too_large" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "malformed_json" },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "malformed_json" },
  FST_ERR_CTP_EMPTY_TYPE: { status: 415, code: "unsupported_media_type" },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: "unsupported_media_type" },
  FST_ERR_BAD_URL: { status: 400, code: "invalid_request" },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: "uri_too_long" },
};

/** The status of each kind of domain error: the one place where domains meet HTTP. */
export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  too_many: 429,
  unavailable: 503,
  upstream: 502,
  upstream_timeout: 504,
};

/** The wire shape of a refusal, as its schema in schemas.ts says. */
export type ErrorBody = Static<typeof ErrorBodySchema>;

/**
 * Turns any thrown error into the wire shape of docs/reference/api.md. Client mistakes keep their status and a message
 * that says what was wrong; our own faults become a bare 500 whose details go to the log only.
 * Plugins with another error dialect (OAuth) set their own handler in their scope and fall back to
 * {@link toErrorReply} for the rest.
 */
export function toErrorReply(
  error: FastifyError | Error,
  request: FastifyRequest,
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof HttpError) {
    if (error.statusCode >= 500) request.log.warn({ err: error }, error.message);
    return { status: error.statusCode, body: { error: error.code, message: error.message }, headers: error.headers };
  }
  if (error instanceof DomainError) {
    const status = STATUS_OF_KIND[error.kind];
    if (status >= 500) request.log.warn({ err: error }, error.message);
    const headers: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { "retry-after": String(error.retryAfterSeconds) };
    return { status, body: { error: error.code, message: error.message }, headers };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const message = missingProperties(fastifyError, request) ?? fastifyError.message;
    return { status: 400, body: { error: "invalid_request", message }, headers: {} };
  }
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known?.status === 415) return { status: 415, body: { error: known.code, message: unacceptedType(request) }, headers: {} };
  if (known) return { status: known.status, body: { error: known.code, message: fastifyError.message }, headers: {} };
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, body: { error: "malformed_json", message: error.message }, headers: {} };
  }
  if (isUnstorableText(error)) {
    request.log.warn({ err: error }, "text the database cannot store");
    return {
      status: 400,
      body: { error: "invalid_request", message: "A field holds characters that cannot be stored (e.g. NUL)" },
      headers: {},
    };
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return { status, body: { error: snakeCase(STATUS_CODES[status] ?? "bad_request"), message: fastifyError.message }, headers: {} };
  }
  request.log.error({ err: error }, "unhandled error");
  return { status: 500, body: { error: "internal_error", message: "Internal server error" }, headers: {} };
}

/** The part of a request each validation context checks, by Fastify's name for it (also its schema's key). */
const PARTS = {
  body: (request: FastifyRequest) => request.body,
  querystring: (request: FastifyRequest) => request.query,
  params: (request: FastifyRequest) => request.params,
  headers: (request: FastifyRequest) => request.headers,
} as const;

/**
 * All the required properties missing from a part of the request (`body must have the properties "address",
 * "signature"`), when the schema's first complaint is one missing at its top. Ajv stops at the first error
 * (Fastify's default); its `allErrors` would walk all of an untrusted body, every item of every array, and collect
 * errors without bound. This reads only the top-level `required` list of our own schema, so its cost is bounded by
 * that list, whatever the client sends.
 */
function missingProperties(error: FastifyError, request: FastifyRequest): string | undefined {
  const first = error.validation?.[0];
  const part = error.validationContext as keyof typeof PARTS | undefined;
  if (first?.keyword !== "required" || first.instancePath !== "" || !part || !Object.hasOwn(PARTS, part)) return undefined;
  const required = (request.routeOptions.schema?.[part] as { required?: unknown } | undefined)?.required;
  const value = PARTS[part](request);
  if (!Array.isArray(required) || typeof value !== "object" || value === null) return undefined;
  const missing = required.filter((name): name is string => typeof name === "string" && !Object.hasOwn(value, name));
  if (missing.length === 0) return undefined;
  const names = missing.map((name) => JSON.stringify(name)).join(", ");
  return `${part} must have the ${missing.length === 1 ? "property" : "properties"} ${names}`;
}

/** The body types a 415 may name, in its order: those a route's scope has a parser for are the ones it takes. */
const BODY_TYPES = [
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "text/plain",
  "application/octet-stream",
];

/** A 415's message: the type sent (its first 100 characters: it is echoed) and the ones the route's scope takes. */
function unacceptedType(request: FastifyRequest): string {
  const sent = (request.headers["content-type"] ?? "").split(";")[0].trim().slice(0, 100);
  const accepted = BODY_TYPES.filter((type) => request.server.hasContentTypeParser(type));
  const what = sent ? `Content-Type ${sent} is not accepted here` : "A body without a Content-Type is not accepted here";
  return accepted.length === 0 ? `${what}; this route takes no body` : `${what}; send ${accepted.join(" or ")}`;
}

function snakeCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

function send(reply: FastifyReply, { status, body, headers }: ReturnType<typeof toErrorReply>) {
  return reply.code(status).headers(headers).type("application/json; charset=utf-8").send(body);
}

/**
 * Fastify's `frameworkErrors` option: a path that is not valid percent-encoding (FST_ERR_BAD_URL) or a path parameter
 * over the router's length limit (FST_ERR_MAX_PARAM_LENGTH) is answered in our shape, not Fastify's.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header("x-request-id", request.id);
  return send(reply, toErrorReply(error, request));
}

/** What Node's HTTP parser refuses before there is a request (Fastify's `clientErrorHandler` option). */
const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: "headers_too_large", message: "The request headers are too large" },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: "request_timeout", message: "The request took too long to arrive" },
};

/**
 * Fastify's `clientErrorHandler` option: a request Node cannot parse (oversized headers, bad framing, a timeout) is
 * answered in our shape before the socket closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const known = (error.code && CLIENT_ERRORS[error.code]) || { status: 400, code: "bad_request", message: "The request is not valid HTTP" };
  const body = JSON.stringify({ error: known.code, message: known.message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * What no route answers: a 405 with `Allow` when the path has routes for other methods, else a 404 that points to the
 * API's description when the app serves one. A route that matched but found nothing at the path (`reply.callNotFound()`)
 * is a 404 too. OPTIONS is answered on every path for CORS preflights, so `Allow` does not list it.
 */
function notFoundAnswer(routes: RouteMethods, request: FastifyRequest): ReturnType<typeof toErrorReply> {
  const path = request.url.split("?")[0];
  const allowed = routes.of(path);
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    const methods = allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`;
    return {
      status: 405,
      body: { error: "method_not_allowed", message: `${path} takes ${methods}, not ${request.method}` },
      headers: { allow: allowed.join(", ") },
    };
  }
  const docs = routes.of(DOCS).includes("GET") ? `; the API is described at ${DOCS}` : "";
  return { status: 404, body: { error: "not_found", message: `Route ${request.method} ${path} not found${docs}` }, headers: {} };
}

/** The statuses that ask the client to come back later: each carries Retry-After. */
export const TRY_AGAIN_STATUSES: ReadonlySet<number> = new Set([STATUS_OF_KIND.too_many, STATUS_OF_KIND.unavailable]);

/** Retry-After of a 503 or 429 whose cause gives no time of its own (a failing `/ready`, a network without a node). */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The page of the OpenAPI document (http/openapi.ts). */
const DOCS = "/docs";

export default fp(
  async function errors(app: FastifyInstance) {
    const routes = new RouteMethods();
    routes.watch(app);
    app.setErrorHandler((error, request, reply) => send(reply, toErrorReply(error as Error, request)));
    app.setNotFoundHandler((request, reply) => send(reply, notFoundAnswer(routes, request)));
    // Every answer names its request, so a user's report can be found in the logs.
    app.addHook("onSend", async (request, reply) => {
      reply.header("x-request-id", request.id);
      // Every 503 and 429 tells the client when to come back, also those whose cause has no time of its own.
      if (TRY_AGAIN_STATUSES.has(reply.statusCode) && !reply.hasHeader("retry-after"))
        reply.header("retry-after", String(DEFAULT_RETRY_AFTER_SECONDS));
    });
  },
  { name: "errors" },
);
