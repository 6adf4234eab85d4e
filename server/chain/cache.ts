/**
 * A Map that forgets its oldest entries beyond `max` (insertion order), with one load in flight per key: callers
 * that ask for the same key at once share one call to the node.
 */
export class BoundedCache<V> {
  private readonly values = new Map<string, V>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  set(key: string, value: V): void {
    this.values.delete(key);
    this.values.set(key, value);
    if (this.values.size > this.max) this.values.delete(this.values.keys().next().value!);
  }

  /** The cached value, or `load()`'s (kept when `keep` says so, e.g. only answers about final blocks). */
  async getOrLoad(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (this.values.has(key)) return this.values.get(key)!;
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
}
