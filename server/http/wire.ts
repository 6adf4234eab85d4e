import { randomBytes } from "node:crypto";
import { getAddress } from "ethers";
import type { FastifyReply } from "fastify";
import { badRequest } from "./http-error";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT256_MAX = 2n ** 256n - 1n;

/**
 * An address from the wire (README, "API"): `0x` + 40 hex digits in any case, but a mixed-case address must pass
 * its EIP-55 checksum (a typo in a checksummed address is caught, not silently used). Returns it checksummed.
 */
export function parseAddress(value: string, field = "address"): string {
  if (!ADDRESS.test(value)) throw badRequest("invalid_address", `${field} must be 0x followed by 40 hex digits`);
  const body = value.slice(2);
  if (body !== body.toLowerCase() && body !== body.toUpperCase()) {
    const checksummed = getAddress(value.toLowerCase());
    if (checksummed !== value) throw badRequest("invalid_address", `${field} fails its EIP-55 checksum`);
    return checksummed;
  }
  return getAddress(value.toLowerCase());
}

/** A token id from the wire: a decimal uint256 with no sign, no exponent and no leading zeros beyond "0". */
export function parseTokenId(value: string, field = "id"): bigint {
  if (!/^(0|[1-9]\d{0,77})$/.test(value)) throw badRequest("invalid_token_id", `${field} must be a decimal uint256`);
  const id = BigInt(value);
  if (id > UINT256_MAX) throw badRequest("invalid_token_id", `${field} is larger than 2^256 - 1`);
  return id;
}

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
