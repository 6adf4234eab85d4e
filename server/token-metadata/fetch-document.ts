import type { LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { errorCodeOf } from "../chain/errors";
import { ACCEPTED_ENCODINGS, readDecoded } from "../lib/bounded-read";
import { Deadline } from "../lib/deadline";
import { checkedLookup, checkLiteralHost, OutboundRefusal, pinnedLookup, resolveHost } from "../outbound/guarded-lookup";
import { isJsonMediaType, MetadataError, tooLarge } from "./uri";

export interface FetchOptions {
  /** Reach loopback, private and link-local addresses too (the local demo, tests). */
  allowPrivate: boolean;
  /** The first URL's host is trusted (a configured gateway); redirects from it are checked like any other. */
  trustedFirstHop?: boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Where the first URL's host connects (as `firstAddress` gave it): the address the fetch was queued under. */
  address?: LookupAddress;
}

export interface FetchedDocument {
  /** The URL the document came from (after redirects). */
  url: string;
  mediaType: string;
  body: Buffer;
}

const USER_AGENT = "nft-data-service metadata fetcher";

/**
 * The address a fetch of `url` connects to first: its IP literal, or its name resolved; `guarded`, a name is refused
 * when any of its addresses is forbidden (as `fetchDocument` would refuse it).
 */
export async function firstAddress(url: URL, guarded: boolean): Promise<LookupAddress> {
  try {
    return (await resolveHost(url, guarded))[0];
  } catch (error) {
    throw error instanceof OutboundRefusal ? asRefusal(error) : error;
  }
}

/** The metadata error an outbound refusal is shown as. */
function asRefusal(refusal: OutboundRefusal): MetadataError {
  if (refusal.reason === "forbidden") return new MetadataError(`refused to fetch ${refusal.host}: ${refusal.detail}`);
  if (refusal.reason === "unresolved") return new MetadataError(`${refusal.host} does not resolve`);
  return new MetadataError(refusal.detail.replace("resolving", `resolving ${refusal.host}`));
}

/**
 * GETs a metadata document over http(s), defending the service against the URL, which anyone deploying a contract
 * chooses: every host is resolved and refused when any of its addresses is loopback, private, link-local or
 * reserved, and the connection goes to the address that was checked (no second resolution an attacker's DNS could
 * answer differently). Redirects are followed by hand, each target checked the same way, at most `maxRedirects`.
 * The whole exchange has one deadline; the body is cut off at `maxBytes` (after decompression); only JSON-like
 * media types are read.
 */
export async function fetchDocument(start: URL, options: FetchOptions): Promise<FetchedDocument> {
  const deadline = new Deadline(options.timeoutMs, options.signal);
  try {
    return await fetchWithin(start, options, deadline);
  } finally {
    deadline.end();
  }
}

async function fetchWithin(start: URL, options: FetchOptions, deadline: Deadline): Promise<FetchedDocument> {
  const maxRedirects = options.maxRedirects ?? 5;
  const { signal } = deadline;
  let url = start;
  for (let hop = 0; ; hop++) {
    const guarded = !options.allowPrivate && !(hop === 0 && options.trustedFirstHop);
    if (guarded) {
      try {
        checkLiteralHost(url);
      } catch (error) {
        throw error instanceof OutboundRefusal ? asRefusal(error) : error;
      }
    }
    let response: http.IncomingMessage;
    try {
      response = await get(url, guarded, signal, hop === 0 ? options.address : undefined);
    } catch (error) {
      throw asMetadataError(error, url, deadline, options.timeoutMs);
    }
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location !== undefined) {
      response.resume();
      if (hop >= maxRedirects) throw new MetadataError(`more than ${maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(response.headers.location, url);
      } catch {
        throw new MetadataError(`${url.host} redirected to an invalid URL`);
      }
      if (next.protocol !== "http:" && next.protocol !== "https:")
        throw new MetadataError(`${url.host} redirected to a ${next.protocol} URL`);
      url = next;
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new MetadataError(`${url.host} answered HTTP ${status}`);
    }
    const mediaType = String(response.headers["content-type"] ?? "");
    if (!isJsonMediaType(mediaType) && !/^image\//i.test(mediaType)) {
      response.resume();
      throw new MetadataError(`${url.host} answered ${mediaType.split(";")[0].slice(0, 100)}, not JSON`);
    }
    // A tokenURI that names an image is answered as such: its bytes are not needed.
    if (/^image\//i.test(mediaType)) {
      response.destroy();
      return { url: url.href, mediaType, body: Buffer.alloc(0) };
    }
    try {
      return { url: url.href, mediaType, body: await readBody(response, options.maxBytes) };
    } catch (error) {
      throw asMetadataError(error, url, deadline, options.timeoutMs);
    }
  }
}

function get(url: URL, guarded: boolean, signal: AbortSignal, address?: LookupAddress): Promise<http.IncomingMessage> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, {
      signal,
      // A fresh connection per fetch: a pooled socket would skip the address check.
      agent: false,
      lookup: address ? pinnedLookup(address) : guarded ? checkedLookup : undefined,
      headers: { accept: "application/json, */*;q=0.5", "accept-encoding": ACCEPTED_ENCODINGS, "user-agent": USER_AGENT },
    });
    request.once("response", resolve);
    request.once("error", reject);
  });
}

function readBody(response: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  return readDecoded(response, maxBytes, {
    tooLarge: () => tooLarge(maxBytes),
    unsupported: (encoding) => new MetadataError(`unsupported content-encoding ${encoding}`),
  });
}

function asMetadataError(error: unknown, url: URL, deadline: Deadline, timeoutMs: number): MetadataError {
  if (error instanceof MetadataError) return error;
  if (error instanceof OutboundRefusal) return asRefusal(error);
  if (deadline.timedOut) return new MetadataError(`${url.host} did not answer within ${timeoutMs} ms`);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof OutboundRefusal) return asRefusal(cause);
  const code = errorCodeOf(error);
  if (code === "ABORT_ERR") return new MetadataError("the fetch was cancelled");
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new MetadataError(`${url.hostname} does not resolve`);
  if (code === "Z_DATA_ERROR" || code === "ERR__ERROR_FORMAT_PADDING_1")
    return new MetadataError(`${url.host} sent a body that does not decompress`);
  return new MetadataError(`fetching from ${url.host} failed${code ? ` (${code})` : ""}`);
}
