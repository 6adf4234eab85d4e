import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { badRequest } from "./http-error";

/** Unicode Cc: C0 controls (NUL included), DEL and C1 controls. Nothing we take in a URL has a use for them. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same in body text, where tabs and line breaks are allowed (a signed message has several lines). */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** How deep a body is looked into; deeper bodies are refused (no route takes anything near this deep). */
const MAX_DEPTH = 32;

/**
 * Where in `value` a string (or an object key) holds a control character, as a field path (`body.data.sig`), or
 * undefined when it holds none. PostgreSQL refuses NUL in text, so without this a NUL anywhere would surface as a
 * database error; the other controls have no meaning in any field and would only let text disguise itself.
 */
export function controlCharacterIn(value: unknown, where: string, allowLines = false, depth = 0): string | undefined {
  const pattern = allowLines ? CONTROL_IN_TEXT : CONTROL;
  if (typeof value === "string") return pattern.test(value) ? where : undefined;
  if (typeof value !== "object" || value === null || Buffer.isBuffer(value)) return undefined;
  if (depth > MAX_DEPTH) return where;
  for (const [key, item] of Object.entries(value)) {
    const path = Array.isArray(value) ? `${where}[${key}]` : `${where}.${key}`;
    if (pattern.test(key)) return path;
    const found = controlCharacterIn(item, path, allowLines, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Each `name=value` of a raw query string must be valid percent-encoded UTF-8 (`+` is a space). */
export function malformedQuery(url: string): boolean {
  const start = url.indexOf("?");
  if (start < 0) return false;
  for (const part of url.slice(start + 1).split("&")) {
    try {
      decodeURIComponent(part.replace(/\+/g, " "));
    } catch {
      return true;
    }
  }
  return false;
}

/** The checks of {@link inputGuard} on the URL: percent-encoding and control characters in the path and query. */
export function checkUrl(request: FastifyRequest): void {
  if (malformedQuery(request.url)) throw badRequest("invalid_request", "The query string is not valid percent-encoded UTF-8");
  let path: string;
  try {
    path = decodeURIComponent(request.url.split("?")[0]);
  } catch {
    throw badRequest("invalid_request", "The path is not valid percent-encoded UTF-8");
  }
  if (CONTROL.test(path)) throw badRequest("invalid_request", "The path must not contain control characters");
  const field = controlCharacterIn(request.query, "query");
  if (field) throw badRequest("invalid_request", `${field} must not contain control characters`);
}

/**
 * One guard for every route, present and future: a URL with malformed percent-encoding or a control character, or a
 * parsed body with a control character other than tab and line breaks, is refused with 400 `invalid_request` before
 * any route sees it. Errors go through the route's error handler, so each endpoint answers in its own dialect.
 */
export default fp(
  async function inputGuard(app: FastifyInstance) {
    app.addHook("onRequest", async (request) => checkUrl(request));
    app.addHook("preValidation", async (request) => {
      const field = controlCharacterIn(request.body, "body", true);
      if (field) throw badRequest("invalid_request", `${field} must not contain control characters other than tabs and line breaks`);
    });
  },
  { name: "input-guard" },
);
