import type { ChangeEvent, ChangeFeed, ChangeFilter, Sink } from "../../server/events/feed";
import { untilSettled } from "./waiters";

/** One server-sent event as a client sees it. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * A Server-Sent Events client over fetch (Node 22 has EventSource only behind a flag), parsing the stream as the WHATWG spec says:
 * `events` fills as they arrive, `comments` counts comment lines (heartbeats).
 */
export interface SseClient {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: string[];
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  /** The first event after `from` (an index into `events`) matching `match`, waited for up to `timeoutMs`. */
  next(match: (event: SseEvent) => boolean, timeoutMs?: number, from?: number): Promise<SseEvent>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  let buffer = "";
  let current: Partial<SseEvent> & { data?: string } = {};
  let done = false;
  const ended = (async () => {
    if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      done = true;
      return;
    }
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = buffer.search(/\r\n|\n|\r/)) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
          if (line === "") {
            if (current.data !== undefined) events.push({ id: current.id, event: current.event ?? "message", data: current.data });
            current = {};
            notify();
          } else if (line.startsWith(":")) {
            comments.push(line.slice(1).trim());
            notify();
          } else {
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "data") current.data = current.data === undefined ? value : `${current.data}\n${value}`;
            else if (field === "event") current.event = value;
            else if (field === "id") current.id = value;
          }
        }
      }
    } catch {
      // aborted by close()
    }
    done = true;
    notify();
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    ended,
    next: (match, timeoutMs = 10_000, from = 0) => firstArrival({ items: events, waiters, ended: () => done }, match, timeoutMs, from),
    close: () => abort.abort(),
  };
}

/** Items of a stream as they arrive: `waiters` are woken at each arrival and at the end, after which `ended()` is true. */
export interface Arrivals<T> {
  items: T[];
  waiters: Set<() => void>;
  ended(): boolean;
}

/**
 * The first item of `arrivals` from index `from` on that matches `match`, now or once it arrives, waited for up to
 * `timeoutMs`; refused once the stream ended without it.
 */
export function firstArrival<T>(arrivals: Arrivals<T>, match: (item: T) => boolean, timeoutMs: number, from = 0): Promise<T> {
  return new Promise((resolve, reject) =>
    untilSettled(
      arrivals.waiters,
      () => {
        const found = arrivals.items.slice(from).find(match);
        if (found) resolve(found);
        else if (arrivals.ended()) reject(new Error("the stream ended"));
        return found !== undefined || arrivals.ended();
      },
      timeoutMs,
      () => reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(arrivals.items)}`)),
    ),
  );
}

/**
 * Subscribes `count` sinks to `feed` that take every event at once, each collecting what it is sent: the feed's
 * subscribers without HTTP, to count what the feed does per stream.
 */
export function subscribeCollectors(
  feed: ChangeFeed,
  count: number,
  filter: ChangeFilter,
  after: bigint | undefined,
  onError: (error: unknown) => void,
): ChangeEvent[][] {
  return Array.from({ length: count }, () => {
    const events: ChangeEvent[] = [];
    const sink: Sink = { send: (frames) => events.push(...frames.events) > 0, drained: async () => true, closed: false };
    feed.subscribe(filter, sink, after, onError);
    return events;
  });
}
