import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";

// A random part makes the marker unforgeable: user strings inside the value (metadata) are never rewritten.
const BIGINT_MARK = `\u0000bigint-${randomBytes(8).toString("hex")}:`;
const BIGINT_MARKED = new RegExp(`"${JSON.stringify(BIGINT_MARK).slice(1, -1).replace(/\\/g, "\\\\")}(\\d+)"`, "g");

/**
 * JSON where bigints are written as JSON numbers with all their digits (an id above 2^53 must not
 * be rounded on the wire), which JSON.stringify cannot do. Send the string with `reply.type(JSON_TYPE)`.
 */
export function toJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? `${BIGINT_MARK}${v}` : v));
  return text.replace(BIGINT_MARKED, "$1");
}

export const JSON_TYPE = "application/json; charset=utf-8";

/** Sends `value` through {@link toJson} (exact big numbers), bypassing the route's serializer. */
export function sendJson(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type(JSON_TYPE).send(toJson(value));
}
