import type { FastifyReply, FastifyRequest } from "fastify";
import type { Networks } from "../chain/networks";
import { badRequest } from "../http/http-error";
import { JSON_TYPE, sendJson } from "../http/wire";
import { IndexHeaders } from "../http/schemas";
import type { IndexPage, IndexReads } from "../indexer";
import type { Queryable } from "../db/database";
import { DomainError } from "../lib/domain-error";

/** Response headers of every paged answer from the index (for the OpenAPI document). */
export const pageHeaders = {
  ...IndexHeaders,
  Link: { type: "string", description: '`<...>; rel="next"` when there are more items' },
};

/**
 * One answer's read of the index, on one database: a read replica when one serves and is not too far behind. The
 * store's statement gives the items, the block they are complete to (`X-Indexed-Block`) and, for an answer about one
 * contract, whether its index misses ranges it did not expand (`incomplete`: `X-Index-Complete: false`), all from one
 * snapshot. `read` gives undefined where that database has no index of `network`: `not_indexed`.
 */
export async function fromIndex<T extends { indexed: number; incomplete?: boolean }>(options: {
  app: { indexReads: IndexReads; networks: Networks };
  reply: FastifyReply;
  network: string;
  read: (db: Queryable) => Promise<T | undefined>;
}): Promise<T> {
  const { app, reply, network, read } = options;
  const found = await app.indexReads.read(network, read, (answer) => answer?.indexed);
  if (found?.incomplete) reply.header("x-index-complete", "false");
  return indexed(app.networks, network, found);
}

/** Opaque paging cursors: base64url of the last item's sort key. */
export const encodeCursor = (key: string[]) => Buffer.from(JSON.stringify(key)).toString("base64url");

export function decodeCursor(cursor: string | undefined, parts: number): string[] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(key) && key.length === parts && key.every((k) => typeof k === "string" && /^(0x[0-9a-f]{40}|\d{1,78})$/.test(k)))
      return key;
  } catch {
    // fall through
  }
  throw badRequest("invalid_cursor", "cursor is not one this service gave");
}

/**
 * The one key a page continues after: an address (holders, contracts of an owner) or a token id (an inventory). A
 * cursor of the other kind is refused: it was not given for this page.
 */
export function decodeKeyCursor(cursor: string | undefined, kind: "address" | "id"): string | undefined {
  const after = decodeCursor(cursor, 1)?.[0];
  if (after !== undefined && after.startsWith("0x") !== (kind === "address"))
    throw badRequest("invalid_cursor", "cursor is not one this service gave");
  return after;
}

/**
 * Sends one page read from the index: `X-Indexed-Block`, and `Link: <...>; rel="next"` (this URL with `limit` and
 * the cursor of the page's `next`) when there is more. `items`: the page's items on the wire, or their JSON text
 * already written.
 */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Pick<IndexPage<unknown>, "indexed" | "next">,
  items: unknown[] | string,
  limit: number,
) {
  const { indexed, next } = page;
  reply.header("x-indexed-block", String(indexed));
  if (next) {
    const url = new URL(request.url, "http://service");
    url.searchParams.set("limit", String(limit));
    url.searchParams.set("cursor", encodeCursor(next));
    reply.header("link", `<${url.pathname}${url.search}>; rel="next"`);
  }
  return typeof items === "string" ? reply.type(JSON_TYPE).send(items) : sendJson(reply, items);
}

/** No index of a network: it has no node here (as the RPC routes say: that error is thrown), or its indexer has not written yet. */
export function notIndexed(networks: Networks, network: string): DomainError {
  networks.provider(network);
  return new DomainError("unavailable", "not_indexed", `The index of ${network} has not started yet`, 5);
}

/** What a read of the index found, or `not_indexed` when it found no index of `network` (the read gave undefined). */
export function indexed<T>(networks: Networks, network: string, read: T | undefined): T {
  if (read === undefined) throw notIndexed(networks, network);
  return read;
}

/**
 * The page size asked for (default 100). The schema bounds it to 1–1000, but Ajv's query-string coercion lets
 * "Infinity" through its bounds (they are checked before the string becomes a number), so it is checked again.
 */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw badRequest("invalid_request", "querystring/limit must be an integer from 1 to 1000");
  return limit;
}
