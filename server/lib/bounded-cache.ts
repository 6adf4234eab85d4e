import { systemClock, type Clock } from "./clock";

export interface BoundedCacheOptions {
  /**
   * How long a value is served after it was stored (ms); an older one is loaded again. Without it values are kept
   * until the bound pushes them out.
   */
  ttlMs?: number;
  /** The time the time-to-live is measured in (a test's clock moves forward instead of sleeping). */
  now?: Clock;
}

/**
 * A Map that forgets its oldest entries beyond `max` (the least recently set first), and with a time-to-live those
 * older than that, with one load in flight per key: callers that ask for the same key at once share one call to the
 * node.
 */
export class BoundedCache<V> {
  private readonly values = new Map<string, { value: V; storedAt: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  /**
   * The keys from the oldest, one iterator kept for the cache's life: a Map iterator is live (it skips the entries
   * deleted ahead of it and reaches those set after it started), and every key behind it has been evicted. A new
   * `keys().next()` per eviction would step again over every entry deleted at the front since the Map last rehashed,
   * which at 100,000 entries under churn costs far more than the values a cache keeps.
   */
  private readonly oldestFirst: Iterator<string> = this.values.keys();
  private readonly ttlMs: number;
  private readonly now: Clock;

  constructor(
    private readonly max: number,
    { ttlMs = Infinity, now = systemClock }: BoundedCacheOptions = {},
  ) {
    this.ttlMs = ttlMs;
    this.now = now;
  }

  /** The value of `key`, unless it is missing or older than the time-to-live. */
  get(key: string): V | undefined {
    return this.fresh(key)?.value;
  }

  set(key: string, value: V): void {
    this.values.delete(key);
    this.values.set(key, { value, storedAt: this.now() });
    if (this.values.size > this.max) this.values.delete(this.oldestFirst.next().value!);
  }

  /** Forgets `key` (a value used up, or found stale). */
  delete(key: string): void {
    this.values.delete(key);
  }

  /** The cached value, or `load()`'s (kept when `keep` says so, e.g. only answers about final blocks). */
  async getOrLoad(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const entry = this.fresh(key);
    if (entry) return entry.value;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = load()
        .then((value) => {
          if (keep(value)) this.set(key, value);
          return value;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private fresh(key: string): { value: V } | undefined {
    const entry = this.values.get(key);
    // Without a time-to-live the clock is not read: a hit costs one Map lookup.
    return entry && (this.ttlMs === Infinity || this.now() - entry.storedAt < this.ttlMs) ? entry : undefined;
  }
}
