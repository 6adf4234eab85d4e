import type { Database } from "../db/database";
import { CHANGES_CHANNEL } from "../indexer/store/changes";
import { CHANGES_PAGE, changesAfter, lastChangeId, networkChangesAfter, type ChangeRow } from "../indexer/store/reads";
import { transferItem } from "../data/history";

export interface ChangeFilter {
  network: string;
  /** Lower case; matches the sender or the receiver. */
  owner?: string;
  /** Lower case. */
  contract?: string;
}

/** One server-sent event: `id`, `event` and the JSON `data`. */
export interface ChangeEvent {
  id: string;
  event: "transfer" | "removed" | "reset";
  data: unknown;
}

export interface Subscription {
  close(): void;
}

interface Subscriber {
  filter: ChangeFilter;
  send(event: ChangeEvent): void;
  /** Highest id sent (or skipped as not matching): nothing at or below it is sent again. */
  last: bigint;
  /** Live rows held back while the backlog after Last-Event-ID is read. */
  held?: ChangeRow[];
}

/**
 * Reads the indexer's change log once per instance and hands each row to the subscribers whose filter it matches.
 * It reads when the indexer's commit notifies (LISTEN/NOTIFY), and also every `pollMs` in case a notification was
 * lost (a reconnect) or is not available. Ids are read in order and never twice, so a subscriber that resumes after
 * its last id (Last-Event-ID) misses nothing and sees nothing twice.
 */
export class ChangeFeed {
  private readonly subscribers = new Set<Subscriber>();
  private last = 0n;
  private reading?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly checksum: (address: string) => string,
    private readonly options: { pollMs: number; onError(error: unknown): void },
  ) {}

  get size(): number {
    return this.subscribers.size;
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
    await this.reading;
    this.subscribers.clear();
  }

  /**
   * Sends `send` every change matching `filter` from now on, or, with `after` (a Last-Event-ID), every change after
   * that id first.
   */
  async subscribe(filter: ChangeFilter, send: (event: ChangeEvent) => void, after?: bigint): Promise<Subscription> {
    const upTo = this.last;
    const subscriber: Subscriber = { filter, send, last: after === undefined || after > upTo ? upTo : after, held: [] };
    this.subscribers.add(subscriber);
    const close = () => this.subscribers.delete(subscriber);
    try {
      while (subscriber.last < upTo) {
        const rows = await networkChangesAfter(this.db, subscriber.last, upTo, filter);
        for (const row of rows) this.deliver(subscriber, row);
        if (rows.length < CHANGES_PAGE) break;
      }
      subscriber.last = subscriber.last > upTo ? subscriber.last : upTo;
      const held = subscriber.held!;
      subscriber.held = undefined;
      for (const row of held) this.deliver(subscriber, row);
    } catch (error) {
      close();
      throw error;
    }
    return { close };
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
    for (;;) {
      const rows = await changesAfter(this.db, this.last);
      for (const row of rows) {
        for (const subscriber of this.subscribers) {
          if (subscriber.held) subscriber.held.push(row);
          else this.deliver(subscriber, row);
        }
      }
      if (rows.length > 0) this.last = BigInt(rows[rows.length - 1].id);
      if (rows.length < CHANGES_PAGE) return;
    }
  }

  private deliver(subscriber: Subscriber, row: ChangeRow): void {
    const id = BigInt(row.id);
    if (id <= subscriber.last) return;
    subscriber.last = id;
    if (!matches(subscriber.filter, row)) return;
    const data = row.kind === "reset" ? { network: row.network } : transferItem(row, this.checksum);
    subscriber.send({ id: row.id, event: row.kind, data });
  }
}

function matches(filter: ChangeFilter, row: ChangeRow): boolean {
  if (row.network !== filter.network) return false;
  if (row.kind === "reset") return true;
  if (filter.owner && row.from_address !== filter.owner && row.to_address !== filter.owner) return false;
  return !filter.contract || row.contract === filter.contract;
}
