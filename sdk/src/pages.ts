import type { CallOptions, Http } from "./http.ts";
import { parseJson } from "./json.ts";
import type { Uint } from "./types.ts";

/** One page of a list. */
export interface Page<Item> {
  items: Item[];
  /** The cursor of the next page (from the answer's `Link: <…>; rel="next"`), `null` on the last page. */
  cursor: string | null;
  /** `X-Indexed-Block`: the block the index was complete to when it answered. */
  indexedBlock: Uint | null;
  /** `X-Snapshot-Block`: the block a list asked `block` answers as at the end of, else `null`. */
  snapshotBlock: Uint | null;
  /** `false` when `X-Index-Complete: false`: the index does not hold the whole contract (docs/reference/indexer.md). */
  indexComplete: boolean;
}

/**
 * A list of the service: `for await (const item of list)` reads it whole, page after page, following the `Link`
 * cursors; `pages()` gives the pages; `page(cursor)` one page.
 */
export interface List<Item> extends AsyncIterable<Item> {
  /** One page: the first without a cursor, else the one the cursor (a {@link Page.cursor}) names. */
  page(cursor?: string | null, options?: CallOptions): Promise<Page<Item>>;
  /** Every page from `cursor` (the first without one). */
  pages(options?: CallOptions & { cursor?: string | null }): AsyncIterable<Page<Item>>;
  /** Every item, page after page; stops reading when the signal aborts. */
  items(options?: CallOptions): AsyncIterable<Item>;
}

/** The target of `Link: <target>; rel="next"`, or null. */
function nextLink(header: string | null): string | null {
  for (const part of header?.split(",") ?? []) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(match[2])) return match[1];
  }
  return null;
}

/** A {@link List} of `path` with `query`. */
export function list<Item>(http: Http, path: string, query: Record<string, string | number | boolean | undefined>): List<Item> {
  const page = async (cursor?: string | null, options: CallOptions = {}): Promise<Page<Item>> => {
    const response = await http.send(http.url(path, { ...query, cursor: cursor ?? undefined }), {
      signal: options.signal,
      headers: { accept: "application/json" },
    });
    const items = parseJson(await response.text()) as Item[];
    const next = nextLink(response.headers.get("link"));
    return {
      items,
      cursor: next === null ? null : new URL(next, http.baseUrl).searchParams.get("cursor"),
      indexedBlock: response.headers.get("x-indexed-block"),
      snapshotBlock: response.headers.get("x-snapshot-block"),
      indexComplete: response.headers.get("x-index-complete") !== "false",
    };
  };
  async function* pages(options: CallOptions & { cursor?: string | null } = {}): AsyncGenerator<Page<Item>> {
    let cursor = options.cursor ?? null;
    do {
      const one = await page(cursor, options);
      yield one;
      cursor = one.cursor;
    } while (cursor !== null);
  }
  async function* items(options: CallOptions = {}): AsyncGenerator<Item> {
    for await (const one of pages(options)) yield* one.items;
  }
  return { page, pages, items, [Symbol.asyncIterator]: () => items() };
}
