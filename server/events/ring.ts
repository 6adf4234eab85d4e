import type { ChangeRow } from "../indexer";

/** A change the feed has read, kept with its event once made (a change's event never changes). */
export interface KeptChange<E> {
  id: bigint;
  row: ChangeRow;
  event?: E;
}

/**
 * The latest changes the feed has read, at most `capacity`, in id order: every change with an id in (`from`, `to`]
 * is here, so a stream behind the feed by less than the ring reads its backlog from memory instead of the log.
 * Appending past the capacity forgets the oldest (and moves `from` up to it): the bound holds by construction.
 */
export class ChangeRing<E> {
  private entries: KeptChange<E>[] = [];
  /** Index of the oldest entry kept in `entries` (those before it are forgotten, dropped from the array now and then). */
  private head = 0;
  private first = 0n;
  private end = 0n;

  constructor(private readonly capacity: number) {}

  /** The id the ring holds every change after (those at or below it are no longer, or never were, here). */
  get from(): bigint {
    return this.first;
  }

  /** The id the ring holds every change up to. */
  get to(): bigint {
    return this.end;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Forgets everything: the ring holds the (empty) range after `at`, changes passed unread before. */
  reset(at: bigint): void {
    this.entries = [];
    this.head = 0;
    this.first = at;
    this.end = at;
  }

  /**
   * Appends rows read after `to` up to `end` (in id order; the ids between them without a row have none in the log)
   * and returns them as kept, in their order.
   */
  append(rows: readonly ChangeRow[], end: bigint): KeptChange<E>[] {
    const kept = rows.map((row) => ({ id: BigInt(row.id), row }));
    if (this.capacity === 0) {
      this.reset(end);
      return kept;
    }
    for (const entry of kept) this.entries.push(entry);
    this.end = end;
    const over = this.size - this.capacity;
    if (over > 0) {
      this.head += over;
      this.first = this.entries[this.head - 1].id;
      // The forgotten entries are cut off once they are as many as the kept ones: each entry is copied once on average.
      if (this.head >= this.capacity) {
        this.entries = this.entries.slice(this.head);
        this.head = 0;
      }
    }
    return kept;
  }

  /** Whether the ring holds every change after `after` up to `to`. */
  covers(after: bigint): boolean {
    return after >= this.first && after <= this.end;
  }

  /** The kept changes after `after` (which the ring must cover), oldest first: to be iterated without awaiting between. */
  *after(after: bigint): Generator<KeptChange<E>> {
    let low = this.head;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.entries[middle].id <= after) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < this.entries.length; i++) yield this.entries[i];
  }
}
