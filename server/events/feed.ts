import { setImmediate } from "node:timers/promises";
import type { Database } from "../db/database";
import { CHANGES_CHANNEL, CHANGES_PAGE, changesAfter, lastChangeId, networkChangesAfter, type ChangeRow } from "../indexer";
import { transferItem } from "../data";
import { toJson } from "../http/wire";
import { KeyedLimiter } from "../lib/keyed-limiter";

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

export interface Subscription {
  close(): void;
}

/** Where a subscriber's events go: a client's stream, written no faster than the client takes it. */
export interface Sink {
  /** Writes one event; false when the client should take what it has first (wait for `drained`) or is gone. */
  send(event: ChangeEvent): boolean;
  /** Resolves true once the client has taken what it was sent, false when it went away instead. */
  drained(): Promise<boolean>;
  readonly closed: boolean;
}

interface Subscriber {
  filter: ChangeFilter;
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
 * Reads the indexer's change log once per instance and hands each row to the subscribers whose filter it matches.
 * It reads when the indexer's commit notifies (LISTEN/NOTIFY), and also every `pollMs` in case a notification was
 * lost (a reconnect) or is not available. Ids are read in order and never twice, so a subscriber that resumes after
 * its last id (Last-Event-ID) misses nothing and sees nothing twice.
 *
 * Nothing is pushed to a client faster than it reads: a subscriber whose client has enough to read (a backlog after
 * its Last-Event-ID, or a burst of live changes) stops taking live rows and reads the log itself, a page at a time,
 * each after the client took the one before, until it has caught up with the feed; then it takes live rows again.
 * So a slow client costs one page and its socket's buffer, however large the backlog, and misses nothing.
 */
export class ChangeFeed {
  private readonly subscribers = new Set<Subscriber>();
  private readonly catchingUp = new Set<Promise<void>>();
  private readonly replayReads = new KeyedLimiter(REPLAY_READS, REPLAY_READS);
  private last = 0n;
  private reading?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly checksum: (address: string) => string,
    private readonly options: { pollMs: number; onError(error: unknown): void; flagged?: SpamFlags },
  ) {}

  get size(): number {
    return this.subscribers.size;
  }

  /** The id of the last change the feed has passed: handed to its live streams, or passed unread with none to hand it to. */
  get position(): bigint {
    return this.last;
  }

  async start(): Promise<void> {
    this.last = await lastChangeId(this.db);
    this.unlisten = await this.db.listen(CHANGES_CHANNEL, () => this.wake());
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.unlisten?.();
    this.subscribers.clear();
    await this.reading;
    await Promise.all(this.catchingUp);
  }

  /**
   * Sends `sink` every change matching `filter` from now on, or, with `after` (a Last-Event-ID), every change after
   * that id first. `onError` is called if reading the backlog fails (the subscription is closed then).
   */
  subscribe(filter: ChangeFilter, sink: Sink, after: bigint | undefined, onError: (error: unknown) => void): Subscription {
    const behind = after !== undefined && after < this.last;
    const subscriber: Subscriber = { filter, sink, last: behind ? after : this.last, live: true, onError };
    this.subscribers.add(subscriber);
    if (behind) this.catchUp(subscriber);
    return { close: () => this.subscribers.delete(subscriber) };
  }

  /** Reads what was appended since the last read (one reader at a time; a wake during a read reads again after). */
  private wake(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.read()
      .catch((error) => this.options.onError(error))
      .finally(() => {
        this.reading = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async read(): Promise<void> {
    if (this.subscribers.size === 0) {
      // No stream to hand changes to: pass them unread (a stream that resumes from an earlier id reads its backlog
      // itself). One that subscribed meanwhile starts at the old position: then the changes are read for it.
      const last = await lastChangeId(this.db);
      if (this.subscribers.size === 0) {
        if (last > this.last) this.last = last;
        return;
      }
    }
    for (;;) {
      const rows = await changesAfter(this.db, this.last);
      // Verdicts only when a stream leaves spam out; one that starts to meanwhile reads the log itself (`deliver`).
      const flagged = [...this.subscribers].some((s) => s.filter.excludeSpam) ? await this.spamOf(rows) : undefined;
      // The rows are handed out and `last` moves in one step: a subscriber that turns live between two reads has
      // read the log up to `last` itself.
      for (const row of rows) {
        // Made at most once, whatever the number of streams the row goes to (their checksums and JSON are the cost).
        let event: ChangeEvent | undefined;
        const made = () => (event ??= this.event(row));
        for (const subscriber of this.subscribers) {
          if (subscriber.live && !this.deliver(subscriber, row, flagged, made)) this.catchUp(subscriber);
        }
      }
      if (rows.length > 0) this.last = BigInt(rows[rows.length - 1].id);
      if (rows.length < CHANGES_PAGE) return;
    }
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
   * Reads the log after the subscriber's last id a page at a time, each page once the client took what it had, until
   * nothing is left up to what the feed has read: then the subscriber is live again (in the same step as the check,
   * so no row falls between).
   */
  private async replay(subscriber: Subscriber): Promise<void> {
    for (;;) {
      // A page read from PGlite and written to a socket with room to spare settles without waiting for any I/O: without
      // this turn of the event loop a long replay would keep every other request and connection waiting until it ends.
      await setImmediate();
      if (!this.subscribers.has(subscriber) || !(await subscriber.sink.drained()) || !this.subscribers.has(subscriber)) return;
      const upTo = this.last;
      if (subscriber.last >= upTo) {
        subscriber.live = true;
        return;
      }
      const scanTo = upTo < subscriber.last + BigInt(REPLAY_SCAN) ? upTo : subscriber.last + BigInt(REPLAY_SCAN);
      const after = subscriber.last;
      const rows = await this.replayReads.run("", () => networkChangesAfter(this.db, after, scanTo, subscriber.filter, REPLAY_PAGE));
      const flagged = subscriber.filter.excludeSpam ? await this.spamOf(rows) : undefined;
      for (const row of rows) {
        if (this.deliver(subscriber, row, flagged)) continue;
        if (subscriber.sink.closed || !(await subscriber.sink.drained())) return;
      }
      // Short page: nothing else up to `scanTo` matches the filter.
      if (rows.length < REPLAY_PAGE && subscriber.last < scanTo) subscriber.last = scanTo;
    }
  }

  /**
   * Sends the row, as `made` makes it, if it is new to the subscriber and matches (its collection not among `flagged`,
   * `network:contract`, when the subscriber leaves spam out); false when the subscriber's client must catch up, or must
   * read the row itself as no verdicts were read for it.
   */
  private deliver(subscriber: Subscriber, row: ChangeRow, flagged: Set<string> | undefined, made = () => this.event(row)): boolean {
    const id = BigInt(row.id);
    if (id <= subscriber.last) return true;
    const { filter } = subscriber;
    if (filter.excludeSpam && isCollectionChange(row) && matches(filter, row)) {
      if (flagged === undefined) return false;
      if (flagged.has(`${row.network}:${row.contract}`)) {
        subscriber.last = id;
        return true;
      }
    }
    subscriber.last = id;
    if (!matches(filter, row)) return true;
    return subscriber.sink.send(made());
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

  /** The event a row is sent as. */
  private event(row: ChangeRow): ChangeEvent {
    return { id: row.id, event: row.kind, json: toJson(changeData(row, this.checksum)) };
  }
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

/** A change a spam verdict leaves out: a transfer or a metadata change (never a `removed`, which retracts one sent before). */
function isCollectionChange(row: ChangeRow): boolean {
  return row.kind === "transfer" || row.kind === "metadata";
}

function matches(filter: ChangeFilter, row: ChangeRow): boolean {
  if (row.network !== filter.network) return false;
  if (row.kind === "reset") return true;
  if (filter.owner && row.from_address !== filter.owner && row.to_address !== filter.owner) return false;
  return !filter.contract || row.contract === filter.contract;
}
