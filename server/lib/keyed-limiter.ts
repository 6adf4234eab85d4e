/** Thrown when the queue is full: the work is not done now, and a later call asks again. */
export class QueueFull extends Error {
  constructor() {
    super("the queue is full");
    this.name = "QueueFull";
  }
}

interface Waiting {
  keys: readonly string[];
  start: () => void;
}

/**
 * Runs tasks with at most `concurrency` at once in all and `perKey` at once per key, in arrival order except that a
 * task with a busy key lets the next ones by. A task may have several keys (an address and a contract) and runs only
 * when each is below `perKey`: one slow origin holds at most `perKey` slots, however many names, addresses or
 * contracts it spreads over, as long as one of its keys is shared. At most `maxQueued` tasks wait; beyond that `run`
 * rejects with QueueFull.
 */
export class KeyedLimiter {
  private readonly waiting: Waiting[] = [];
  private readonly activeByKey = new Map<string, number>();
  private active = 0;

  constructor(
    private readonly concurrency: number,
    private readonly perKey: number,
    private readonly maxQueued = 10_000,
  ) {}

  get size(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  run<T>(key: string | readonly string[], task: () => Promise<T>): Promise<T> {
    if (this.waiting.length >= this.maxQueued) return Promise.reject(new QueueFull());
    const keys = typeof key === "string" ? [key] : [...new Set(key)];
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        keys,
        start: () => {
          // The slot is given back before the caller hears of the outcome.
          const done = () => {
            this.active--;
            for (const k of keys) {
              const left = this.activeByKey.get(k)! - 1;
              if (left === 0) this.activeByKey.delete(k);
              else this.activeByKey.set(k, left);
            }
            this.pump();
          };
          Promise.resolve()
            .then(task)
            .then(
              (value) => {
                done();
                resolve(value);
              },
              (error: unknown) => {
                done();
                reject(error);
              },
            );
        },
      });
      this.pump();
    });
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length && this.active < this.concurrency;) {
      const { keys, start } = this.waiting[i];
      if (keys.some((key) => (this.activeByKey.get(key) ?? 0) >= this.perKey)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.active++;
      for (const key of keys) this.activeByKey.set(key, (this.activeByKey.get(key) ?? 0) + 1);
      start();
    }
  }
}
