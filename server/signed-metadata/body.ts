import { parseAddress } from "../chain/values";
import { invalidMetadata, invalidRequest, malformedSignature, metadataTooLarge } from "./errors";
import { statementJson } from "./statement-json";

export interface MetadataPost {
  /** Checksummed issuer. */
  iss: string;
  sig: string;
  /** The Base64 as sent (it is what was signed). */
  metadata: string;
  /** The decoded JSON text, served byte for byte: it keeps the rules of {@link statementJson}. */
  json: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Reads a post body: `{"iss", "sig", "metadata"}`, also wrapped as `{"data": {...}}`. `metadata` must be standard
 * Base64 (with padding), at most `maxBytes` decoded, of a JSON object that keeps the rules of {@link statementJson}.
 */
export function readPost(body: unknown, maxBytes: number): MetadataPost {
  if (!isObject(body)) throw invalidRequest("body must be a JSON object");
  const fields = isObject(body.data) && !("iss" in body) ? body.data : body;
  for (const name of ["iss", "sig", "metadata"] as const) {
    if (fields[name] === undefined || fields[name] === null || fields[name] === "") throw invalidRequest(`${name} is required`);
    if (typeof fields[name] !== "string") throw invalidRequest(`${name} must be a string`);
  }
  const iss = parseAddress(fields.iss as string, "iss");
  const sig = fields.sig as string;
  // Checked before any signature code sees it: a value that is not whole hex bytes is the client's mistake (400).
  if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(sig)) throw malformedSignature("sig must be 0x-prefixed hex bytes");
  const metadata = fields.metadata as string;
  if (Math.floor(metadata.length / 4) * 3 > maxBytes + 2) throw metadataTooLarge(maxBytes);
  if (!BASE64.test(metadata)) throw invalidMetadata("metadata must be standard Base64 (A–Z, a–z, 0–9, +, /, with = padding)");
  const bytes = Buffer.from(metadata, "base64");
  if (bytes.length > maxBytes) throw metadataTooLarge(maxBytes);
  const json = statementJson(bytes);
  return { iss, sig, metadata, json };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
