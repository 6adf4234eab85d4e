import { setImmediate } from "node:timers/promises";
import type { Database } from "../db/database";
import { CHANGES_CHANNEL, CHANGES_PAGE, changesAfter, lastChangeId, networkChangesAfter, type ChangeRow } from "../indexer";
import { transferItem } from "../data";
import { toJson } from "../http/wire";
import { KeyedLimiter } from "../lib/keyed-limiter";
import { BoundedCache } from "../lib/bounded-cache";
import { RunOnWake } from "../lib/run-on-wake";
import { ChangeRing, type KeptChange } from "./ring";

export interface ChangeFilter {
  network: string;
  /** Lower case; matches the sender or the receiver. */
  owner?: string;
  /** Lower case. */
  contract?: string;
  /** Leave out the transfers and metadata changes of collections flagged as spam (a `removed` is sent all the same). */
  excludeSpam?: boolean;
}

/** Which of some contracts (lower case) of a network are flagged as spam (the collections' verdicts). */
export type SpamFlags = (network: string, contracts: readonly string[]) => Promise<Set<string>>;

/** One server-sent event: `id`, `event` and its data as JSON text, made once for all the streams it goes to. */
export interface ChangeEvent {
  id: string;
  event: "transfer" | "removed" | "reset" | "metadata";
  json: string;
}

/**
 * Events a stream is sent at once, with their Server-Sent Events text as bytes: made once for every stream they go to,
 * so that a stream's own work per event is its share of one socket write.
 */
export interface Frames {
  events: readonly ChangeEvent[];
  bytes: Buffer;
}

/** The frames of `events`, in their order. */
export function framesOf(events: readonly ChangeEvent[]): Frames {
  return { events, bytes: Buffer.from(events.map((e) => `id: ${e.id}\nevent: ${e.event}\ndata: ${e.json}\n\n`).join("")) };
}

export interface Subscription {
  close(): void;
}

/** Where a subscriber's events go: a client's stream, written no faster than the client takes it. */
export interface Sink {
  /** Writes some events; false when the client should take what it has first (wait for `drained`) or is gone. */
  send(frames: Frames): boolean;
  /** Resolves true once the client has taken what it was sent, false when it went away instead. */
  drained(): Promise<boolean>;
  readonly closed: boolean;
}

interface Subscriber {
  filter: ChangeFilter;
  /** The filter as a key: live subscribers with the same one are sent the same frames. */
  key: string;
  sink: Sink;
  /** Highest id sent (or skipped as not matching): nothing at or below it is sent again. */
  last: bigint;
  /**
   * Live: handed each new row as the feed reads it. Otherwise catching up: reading the log after `last` itself, a page
   * at a time as the client takes them, until it reaches what the feed has read.
   */
  live: boolean;
  /** Called when the subscriber is dropped (its catch-up read failed). */
  onError(error: unknown): void;
}

/** Changes a catching-up subscriber reads at a time: what one stream holds in memory besides its socket's buffer. */
export const REPLAY_PAGE = 200;

/**
 * Change ids one backlog read looks through at most. A filter that matches little would otherwise read the whole
 * log in one statement (about a third of a second per million changes), holding a pool connection all along.
 */
export const REPLAY_SCAN = 10_000;

/** Backlog reads one instance runs at once: the others wait their turn, and the pool keeps room for other requests. */
export const REPLAY_READS = 4;

/**
 * Bytes of events a live stream is written at once, at most (about 200 transfers): a burst goes out in a few writes
 * per stream, each under the smallest EVENTS_MAX_BUFFERED_BYTES with the socket's high-water mark on top.
 */
export const FRAMES_BYTES = 32 * 1024;

/** Changes an instance keeps in memory by default (EVENTS_RING_SIZE), for the streams that fall behind the feed. */
export const RING_SIZE = 20_000;

/**
 * Frames an instance keeps made, by filter and the id they follow (each about FRAMES_BYTES): streams at the same point
 * of the same filter are written the same bytes, made once. About as many as the default ring holds of one filter.
 */
export const CHUNKS_KEPT = 256;

/** Backlog pages read from the log an instance keeps (each REPLAY_PAGE changes at most), for the streams at the same point. */
export const PAGES_KEPT = 8;

/** Frames a stream is written at once: the events of one filter after an id, up to `last`, which the stream then holds. */
interface Chunk {
  frames: Frames;
  last: bigint;
}

/**
 * Reads the indexer's change log once per instance and hands each row to the subscribers whose filter it matches.
 * It reads when the indexer's commit notifies (LISTEN/NOTIFY), and also every `pollMs` in case a notification was
 * lost (a reconnect) or is not available. Ids are read in order and never twice, so a subscriber that resumes after
 * its last id (Last-Event-ID) misses nothing and sees nothing twice.
 *
 * Nothing is pushed to a client faster than it reads: a subscriber whose client has enough to read (a backlog after
 * its Last-Event-ID, or a burst of live changes) stops taking live rows and catches up by itself, a chunk at a time,
 * each after the client took the one before, until it has caught up with the feed; then it takes live rows again.
 * It catches up from the ring of the latest changes the feed read while it is within it, else from the log, a page at
 * a time. Chunks and pages are kept by filter and position, so the streams at the same point share them: a burst
 * that leaves a thousand streams behind costs its events' bytes once, not once per stream. A slow client costs a
 * reference to one shared chunk or page and its socket's buffer, however large the backlog, and misses nothing.
 */
export class ChangeFeed {
  private readonly subscribers = new Set<Subscriber>();
  private readonly catchingUp = new Set<Promise<void>>();
  private readonly replayReads = new KeyedLimiter(REPLAY_READS, REPLAY_READS);
  /** The latest changes read, up to `last`: what a stream catching up within it reads instead of the log. */
  private readonly ring: ChangeRing<ChangeEvent>;
  /** Chunks by `chunkKey` (a change's event and a filter's frames never change once the change is in the log). */
  private readonly madeChunks = new BoundedCache<Chunk>(CHUNKS_KEPT);
  /** Backlog pages by filter key and range: the chunks of each. */
  private readonly pages = new BoundedCache<Chunk[]>(PAGES_KEPT);
  private last = 0n;
  /** Reads what was appended since the last read (one reader at a time; a wake during a read reads again after). */
  private readonly reads = new RunOnWake(
    () => this.read(),
    (error) => this.options.onError(error),
  );
  private timer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;

  constructor(
    private readonly db: Database,
    private readonly checksum: (address: string) => string,
    private readonly options: {
      pollMs: number;
      onError(error: unknown): void;
      flagged?: SpamFlags;
      /** Changes kept in memory (RING_SIZE unless given). */
      ringSize?: number;
    },
  ) {
    this.ring = new ChangeRing(options.ringSize ?? RING_SIZE);
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** The id of the last change the feed has passed: handed to its live streams, or passed unread with none to hand it to. */
  get position(): bigint {
    return this.last;
  }

  async start(): Promise<void> {
    this.last = await lastChangeId(this.db);
    this.ring.reset(this.last);
    this.unlisten = await this.db.listen(CHANGES_CHANNEL, () => this.reads.wake());
    this.timer = setInterval(() => this.reads.wake(), this.options.pollMs);
  }

  async stop(): Promise<void> {
    const reading = this.reads.stop();
    clearInterval(this.timer);
    await this.unlisten?.();
    this.subscribers.clear();
    await reading;
    await Promise.all(this.catchingUp);
  }

  /**
   * Sends `sink` every change matching `filter` from now on, or, with `after` (a Last-Event-ID), every change after
   * that id first. `onError` is called if reading the backlog fails (the subscription is closed then).
   */
  subscribe(filter: ChangeFilter, sink: Sink, after: bigint | undefined, onError: (error: unknown) => void): Subscription {
    const behind = after !== undefined && after < this.last;
    const key = `${filter.network}\n${filter.owner ?? ""}\n${filter.contract ?? ""}\n${filter.excludeSpam ? "-spam" : ""}`;
    const subscriber: Subscriber = { filter, key, sink, last: behind ? after : this.last, live: true, onError };
    this.subscribers.add(subscriber);
    if (behind) this.catchUp(subscriber);
    return { close: () => this.subscribers.delete(subscriber) };
  }

  private async read(): Promise<void> {
    if (this.subscribers.size === 0) {
      // No stream to hand changes to: pass them unread (a stream that resumes from an earlier id reads its backlog
      // itself). One that subscribed meanwhile starts at the old position: then the changes are read for it.
      const last = await lastChangeId(this.db);
      if (this.subscribers.size === 0) {
        if (last > this.last) {
          this.last = last;
          this.ring.reset(last);
        }
        return;
      }
    }
    for (;;) {
      const rows = await changesAfter(this.db, this.last);
      if (rows.length === 0) return;
      const start = this.last;
      const end = BigInt(rows[rows.length - 1].id);
      // Verdicts only when a stream leaves spam out; one that starts to meanwhile reads the log itself.
      const flagged = [...this.subscribers].some((s) => s.filter.excludeSpam) ? await this.spamOf(rows) : undefined;
      // Kept before they are handed out, and `last` with them (the ring ends where the feed is): a stream that falls
      // behind in this read catches up through the ring.
      const kept = this.ring.append(rows, end);
      this.last = end;
      const ids = kept.map((entry) => entry.id);
      // Each row made into its event at most once, and each filter's frames at most once, whatever the number of
      // streams they go to (their checksums, JSON and bytes are the cost).
      const made = (i: number) => this.keptEvent(kept[i]);
      const single: Frames[] = [];
      const chunksByFilter = new Map<string, Chunk[]>();
      // The rows are handed out and `last` moves in one step (nothing awaits from here): a subscriber that turns live
      // between two reads has read the log up to `last` itself.
      for (const subscriber of this.subscribers) {
        if (!subscriber.live) continue;
        if (subscriber.filter.excludeSpam && flagged === undefined) {
          this.catchUp(subscriber);
          continue;
        }
        if (subscriber.last === start) {
          let chunks = chunksByFilter.get(subscriber.key);
          if (!chunks) {
            chunks = chunksOf({ filter: subscriber.filter, rows, ids, made, flagged, end });
            chunksByFilter.set(subscriber.key, chunks);
            // The streams of this filter that fall behind in them go on from where they stopped without making them again.
            let after = start;
            for (const chunk of chunks) {
              this.madeChunks.set(chunkKey(subscriber.key, after), chunk);
              after = chunk.last;
            }
          }
          if (!this.sendChunks(subscriber, chunks, end)) this.catchUp(subscriber);
          continue;
        }
        for (let i = 0; i < rows.length; i++) {
          if (!this.deliver(subscriber, rows[i], ids[i], flagged, () => (single[i] ??= framesOf([made(i)])))) {
            this.catchUp(subscriber);
            break;
          }
        }
      }
      if (rows.length < CHANGES_PAGE) return;
    }
  }

  /**
   * Writes a live subscriber at the feed's position its frames of a read, up to `end`; false when its client must catch
   * up (from the last event written: the stream holds it).
   */
  private sendChunks(subscriber: Subscriber, chunks: Chunk[], end: bigint): boolean {
    for (const chunk of chunks) {
      subscriber.last = chunk.last;
      if (chunk.frames.events.length > 0 && !subscriber.sink.send(chunk.frames)) return false;
    }
    subscriber.last = end;
    return true;
  }

  /** Stops handing the subscriber live rows and lets it read the log itself (one catch-up per subscriber that is not live). */
  private catchUp(subscriber: Subscriber): void {
    subscriber.live = false;
    const run: Promise<void> = this.replay(subscriber)
      .catch((error) => {
        this.subscribers.delete(subscriber);
        subscriber.onError(error);
      })
      .finally(() => this.catchingUp.delete(run));
    this.catchingUp.add(run);
  }

  /**
   * Writes the subscriber the chunks after its last id, each once the client took what it had, from the ring while
   * it covers that id, else from the log a page at a time, until nothing is left up to what the feed has read: then
   * the subscriber is live again (in the same step as the check, so no row falls between).
   */
  private async replay(subscriber: Subscriber): Promise<void> {
    for (;;) {
      // Chunks kept in memory, or a page read from PGlite, written to a socket with room to spare settle without
      // waiting for any I/O: without this turn of the event loop a long replay would keep every other request and
      // connection waiting until it ends.
      await setImmediate();
      if (!this.subscribers.has(subscriber) || !(await subscriber.sink.drained()) || !this.subscribers.has(subscriber)) return;
      if (subscriber.last >= this.last) {
        subscriber.live = true;
        return;
      }
      // A chunk made before serves even once the ring has moved past it.
      const made = this.madeChunks.get(chunkKey(subscriber.key, subscriber.last));
      const chunks = made
        ? [made]
        : this.ring.covers(subscriber.last)
          ? [await this.ringChunk(subscriber)]
          : await this.backlogPage(subscriber);
      // Each chunk is at most about FRAMES_BYTES: the stream holds at most its high-water mark and one chunk.
      for (const chunk of chunks) {
        const sent = chunk.frames.events.length === 0 || subscriber.sink.send(chunk.frames);
        subscriber.last = chunk.last;
        if (!sent && (subscriber.sink.closed || !(await subscriber.sink.drained()))) return;
      }
    }
  }

  /**
   * The subscriber's chunk after its last id, from the ring (which covers that id): made once for every stream of the
   * same filter at the same point, up to about FRAMES_BYTES of events or the ring's end.
   */
  private ringChunk(subscriber: Subscriber): Promise<Chunk> {
    const { filter, key, last: after } = subscriber;
    return this.madeChunks.getOrLoad(chunkKey(key, after), async () => {
      // Read from the ring in one step: nothing is appended or forgotten meanwhile.
      const picked: KeptChange<ChangeEvent>[] = [];
      let last = this.ring.to;
      let bytes = 0;
      for (const entry of this.ring.after(after)) {
        if (!matches(filter, entry.row)) continue;
        picked.push(entry);
        bytes += eventBytes(this.keptEvent(entry));
        if (bytes >= FRAMES_BYTES) {
          last = entry.id;
          break;
        }
      }
      const flagged = filter.excludeSpam ? await this.spamOf(picked.map((entry) => entry.row)) : undefined;
      return { frames: framesOf(picked.filter((entry) => passes(filter, entry.row, flagged)).map((entry) => entry.event!)), last };
    });
  }

  /**
   * The subscriber's next page of the log after its last id (which the ring no longer covers), up to where the ring
   * begins, as chunks: one read for every stream of the same filter at the same point, at most REPLAY_READS at once.
   */
  private backlogPage(subscriber: Subscriber): Promise<Chunk[]> {
    const { filter, key, last: after } = subscriber;
    const upTo = this.ring.from;
    const scanTo = upTo < after + BigInt(REPLAY_SCAN) ? upTo : after + BigInt(REPLAY_SCAN);
    return this.pages.getOrLoad(`${chunkKey(key, after)}\n${scanTo}`, async () => {
      const rows = await this.replayReads.run("", () => networkChangesAfter(this.db, after, scanTo, filter, REPLAY_PAGE));
      const flagged = filter.excludeSpam ? await this.spamOf(rows) : undefined;
      const events: ChangeEvent[] = [];
      // Short page: nothing else up to `scanTo` matches the filter.
      const end = rows.length < REPLAY_PAGE ? scanTo : BigInt(rows[rows.length - 1].id);
      const ids = rows.map((row) => BigInt(row.id));
      return chunksOf({ filter, rows, ids, made: (i) => (events[i] ??= this.event(rows[i])), flagged, end });
    });
  }

  /**
   * Sends the row (`id`), as `frames` makes it, if it is new to the subscriber and passes its filter (given the spam
   * verdicts `flagged`); false when the subscriber's client must catch up.
   */
  private deliver(subscriber: Subscriber, row: ChangeRow, id: bigint, flagged: Set<string> | undefined, frames: () => Frames): boolean {
    if (id <= subscriber.last) return true;
    subscriber.last = id;
    if (!passes(subscriber.filter, row, flagged)) return true;
    return subscriber.sink.send(frames());
  }

  /**
   * The collections flagged as spam among the rows' transfers and metadata changes, as `network:contract` (none when
   * the feed was given no verdicts).
   */
  private async spamOf(rows: readonly ChangeRow[]): Promise<Set<string>> {
    const byNetwork = new Map<string, string[]>();
    for (const row of rows) {
      if (!isCollectionChange(row)) continue;
      const contracts = byNetwork.get(row.network);
      if (contracts) contracts.push(row.contract);
      else byNetwork.set(row.network, [row.contract]);
    }
    const flagged = new Set<string>();
    for (const [network, contracts] of byNetwork)
      for (const contract of (await this.options.flagged?.(network, contracts)) ?? []) flagged.add(`${network}:${contract}`);
    return flagged;
  }

  /** The event a kept change is sent as, made once for every stream that is sent it while the ring keeps it. */
  private keptEvent(entry: KeptChange<ChangeEvent>): ChangeEvent {
    return (entry.event ??= this.event(entry.row));
  }

  private event(row: ChangeRow): ChangeEvent {
    return { id: row.id, event: row.kind, json: toJson(changeData(row, this.checksum)) };
  }
}

/** The key of the chunk of a filter's (`key`) events after id `after`. */
function chunkKey(key: string, after: bigint): string {
  return `${key}\n${after}`;
}

/** What an event adds to its frames' bytes, about. */
function eventBytes(event: ChangeEvent): number {
  return event.json.length + event.id.length + 24;
}

/**
 * The rows `filter` passes (given the spam verdicts `flagged`) as chunks of at most about FRAMES_BYTES each, in id
 * order, covering the ids up to `end` (the last chunk covers those after the last match; with none, a chunk without
 * events does).
 */
function chunksOf({
  filter,
  rows,
  ids,
  made,
  flagged,
  end,
}: {
  filter: ChangeFilter;
  rows: readonly ChangeRow[];
  ids: readonly bigint[];
  made: (i: number) => ChangeEvent;
  flagged: Set<string> | undefined;
  end: bigint;
}): Chunk[] {
  const chunks: Chunk[] = [];
  let pending: ChangeEvent[] = [];
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    if (!passes(filter, rows[i], flagged)) continue;
    const event = made(i);
    pending.push(event);
    bytes += eventBytes(event);
    if (bytes >= FRAMES_BYTES) {
      chunks.push({ frames: framesOf(pending), last: ids[i] });
      pending = [];
      bytes = 0;
    }
  }
  if (pending.length > 0 || chunks.length === 0 || chunks[chunks.length - 1].last < end)
    chunks.push({ frames: framesOf(pending), last: end });
  return chunks;
}

/** What a change carries as an event's data, on every channel that sends it (the stream, webhooks). */
export function changeData(row: ChangeRow, checksum: (address: string) => string) {
  return row.kind === "reset"
    ? { network: row.network }
    : row.kind === "metadata"
      ? metadataItem(row, checksum)
      : transferItem(row, checksum);
}

/** A metadata change as the stream carries it: the inclusive range of ids whose metadata changed. */
function metadataItem(row: ChangeRow, checksum: (address: string) => string) {
  return {
    block: Number(row.block_number),
    time: row.block_time === null ? null : Number(row.block_time),
    tx: row.tx_hash,
    logIndex: row.log_index,
    contract: checksum(row.contract),
    fromId: BigInt(row.token_id),
    toId: BigInt(row.to_token_id!),
  };
}

function matches(filter: ChangeFilter, row: ChangeRow): boolean {
  if (row.network !== filter.network) return false;
  if (row.kind === "reset") return true;
  if (filter.owner && row.from_address !== filter.owner && row.to_address !== filter.owner) return false;
  return !filter.contract || row.contract === filter.contract;
}

/** Whether the row goes to a stream with `filter`: it matches, and is not a change of a collection `flagged` as spam when the stream leaves spam out. */
function passes(filter: ChangeFilter, row: ChangeRow, flagged: Set<string> | undefined): boolean {
  if (!matches(filter, row)) return false;
  return !(filter.excludeSpam && isCollectionChange(row) && flagged?.has(`${row.network}:${row.contract}`));
}

/** A change a spam verdict leaves out: a transfer or a metadata change (never a `removed`, which retracts one sent before). */
function isCollectionChange(row: ChangeRow): boolean {
  return row.kind === "transfer" || row.kind === "metadata";
}
