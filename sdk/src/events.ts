import { ApiError } from "./errors.ts";
import { refusal, type Http } from "./http.ts";
import { parseJson } from "./json.ts";
import type { Address, Transfer, Uint } from "./types.ts";

/** A range of a contract's ids whose metadata changed (ERC-4906, ERC-1155 `URI`), inclusive. */
export interface MetadataChange {
  block: Uint;
  time: number | null;
  tx: string;
  logIndex: number;
  contract: Address;
  fromId: Uint;
  toId: Uint;
}

/**
 * An event of the live stream (docs/reference/events.md), with its `id`: `transfer`; `removed`, a transfer a reorg
 * undid; `reset`, the network's index started over (reload what you show); `metadata`, ids whose metadata changed.
 */
export type LiveEvent =
  | { type: "transfer"; id: string; transfer: Transfer }
  | { type: "removed"; id: string; transfer: Transfer }
  | { type: "reset"; id: string; network: string }
  | { type: "metadata"; id: string; change: MetadataChange };

export interface SubscribeOptions {
  /** Only transfers from or to this address. */
  owner?: Address;
  /** Only this contract's events. */
  contract?: Address;
  /** `exclude`: leave out the transfers and metadata changes of collections flagged as spam (default `include`). */
  spam?: "include" | "exclude";
  /** Start after this event id (a {@link LiveEvent.id} kept from before): nothing missed, nothing twice. */
  lastEventId?: string;
  /** Ends the subscription: the iteration returns. */
  signal?: AbortSignal;
  /** The longest wait between two attempts to reconnect (default 30 000 ms). */
  maxReconnectDelayMs?: number;
}

/**
 * The longest event (its lines together) the SDK reads, in characters: the service's events are a few hundred; past
 * this the connection is dropped and opened again, so a stream cannot fill the memory of its reader.
 */
export const MAX_EVENT_CHARS = 1 << 20;

/** The service's `retry:` until it says otherwise. */
const DEFAULT_RECONNECT_MS = 2_000;

/** One event as the stream's fields give it. */
interface RawEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Reads Server-Sent Events off `body` as the WHATWG parser does (lines end in CRLF, LF or CR; `:` comments; `data`
 * lines joined), calling `on.retry` for a `retry:` field and `on.line` for each whole line (heartbeats included).
 */
async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
  on: { retry(ms: number): void; line(): void },
): AsyncGenerator<RawEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let id: string | undefined;
  let event = "";
  let data: string[] = [];
  /** The characters of the event being read, in `data`. */
  let pending = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      if (buffer.length + pending > MAX_EVENT_CHARS) throw new Error(`an event of the stream is longer than ${MAX_EVENT_CHARS} characters`);
      let end: number;
      while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A CR at the end of the buffer may be the first half of a CRLF: wait for the next chunk.
        if (buffer[end] === "\r" && end === buffer.length - 1) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        on.line();
        if (line === "") {
          if (data.length > 0) yield { id, event: event || "message", data: data.join("\n") };
          event = "";
          data = [];
          pending = 0;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") {
          data.push(value);
          pending += value.length;
        } else if (field === "event") event = value;
        else if (field === "id" && !value.includes("\0")) id = value;
        else if (field === "retry" && /^\d+$/.test(value)) on.retry(Number(value));
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function typed(raw: RawEvent & { id: string }): LiveEvent | undefined {
  const data = parseJson(raw.data);
  switch (raw.event) {
    case "transfer":
    case "removed":
      return { type: raw.event, id: raw.id, transfer: data as Transfer };
    case "reset":
      return { type: "reset", id: raw.id, network: (data as { network: string }).network };
    case "metadata":
      return { type: "metadata", id: raw.id, change: data as MetadataChange };
    default:
      // An event of a newer service: left out rather than guessed at.
      return undefined;
  }
}

/**
 * The live events of `network` over fetch (no EventSource needed): reconnects after a disconnect with the last id
 * seen, so nothing is missed or repeated; a refusal other than "later" (429, 503) throws its ApiError.
 */
export async function* subscribe(http: Http, network: string, options: SubscribeOptions = {}): AsyncGenerator<LiveEvent> {
  const { signal } = options;
  const maxDelay = options.maxReconnectDelayMs ?? 30_000;
  const url = http.url(`/events/${encodeURIComponent(network)}`, { owner: options.owner, contract: options.contract, spam: options.spam });
  let lastId = options.lastEventId;
  let reconnectMs = DEFAULT_RECONNECT_MS;
  let failures = 0;
  for (;;) {
    if (signal?.aborted) return;
    let delay = reconnectMs;
    try {
      const headers: Record<string, string> = { accept: "text/event-stream" };
      if (lastId !== undefined) headers["last-event-id"] = lastId;
      const response = await http.open(url, { headers, signal });
      if (!response.ok) {
        const error = await refusal(response);
        if (error.status !== 429 && error.status !== 503) throw error;
        delay = error.retryAfterMs ?? reconnectMs * 2 ** failures;
        failures++;
      } else if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
        throw new ApiError({ status: response.status, code: "unexpected_response", message: "the answer is not an event stream" });
      } else {
        // A stream that sends whole lines (events, heartbeats) works: its next drop waits the stream's interval again.
        const on = { retry: (ms: number) => (reconnectMs = ms), line: () => (failures = 0) };
        for await (const raw of serverSentEvents(response.body, on)) {
          if (raw.id === undefined) continue;
          // The service resumes after Last-Event-ID; an id at or below the last one (a proxy's replay) is not news.
          if (lastId !== undefined && /^\d+$/.test(lastId) && /^\d+$/.test(raw.id) && BigInt(raw.id) <= BigInt(lastId)) continue;
          lastId = raw.id;
          const event = typed({ ...raw, id: raw.id });
          if (event) yield event;
        }
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (error instanceof ApiError) throw error;
      // The connection failed or dropped: try again, a little later each time it fails in a row.
      delay = reconnectMs * 2 ** failures;
      failures++;
    }
    try {
      await http.wait(Math.min(delay, maxDelay), signal);
    } catch {
      return;
    }
  }
}
