import type { IncomingMessage } from "node:http";
import { parse } from "node:querystring";
import { Readable } from "node:stream";
import { controlCharacterIn, malformedQuery } from "../http/input-guard";
import { invalidRequest } from "./errors";

/**
 * What oidc-provider is handed of each request. It builds every URL it answers (discovery's endpoints, redirects)
 * from the request's host and scheme; those come from ISSUER here, never from the client's Host or X-Forwarded-*
 * headers, so a forged Host cannot make it name another server (and poison a cache in front of us). The provider
 * runs with `proxy` on, so the forwarded headers set here are the ones it reads; X-Forwarded-For is set to the
 * client address as Fastify resolved it under TRUST_PROXY.
 */
export function pinToIssuer(raw: IncomingMessage, issuer: URL, clientIp: string): void {
  raw.headers.host = issuer.host;
  raw.headers["x-forwarded-host"] = issuer.host;
  raw.headers["x-forwarded-proto"] = issuer.protocol.slice(0, -1);
  raw.headers["x-forwarded-for"] = clientIp;
}

/**
 * A form body read by Fastify, checked like every other input: valid percent-encoded UTF-8 and no control characters
 * in any name or value. oidc-provider would otherwise pass a NUL on to the database, which refuses it.
 */
export function checkForm(body: Buffer): void {
  const text = body.toString("utf8");
  if (text.includes("\uFFFD") || malformedQuery(`?${text}`)) throw invalidRequest("The form body is not valid percent-encoded UTF-8");
  const field = controlCharacterIn(parse(text), "body");
  if (field) throw invalidRequest(`${field} must not contain control characters`);
}

/**
 * The request as oidc-provider reads it, its body (already read and checked) readable once more. oidc-provider reads
 * bodies itself, from the stream; it accepts a pre-parsed body too, but announces that on the console.
 */
export function withBody(raw: IncomingMessage, body: Buffer): IncomingMessage {
  const replay = Readable.from([body], { objectMode: false });
  for (const name of [
    "headers",
    "rawHeaders",
    "method",
    "url",
    "socket",
    "httpVersion",
    "httpVersionMajor",
    "httpVersionMinor",
    "trailers",
    "complete",
  ] as const) {
    Object.defineProperty(replay, name, { value: raw[name], writable: true, configurable: true, enumerable: true });
  }
  return replay as unknown as IncomingMessage;
}
