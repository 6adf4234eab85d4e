/** Thrown when the queue is full: the work is not done now, and a later read asks again. */
export class QueueFull extends Error {
  constructor() {
    super("the metadata queue is full");
    this.name = "QueueFull";
  }
}

interface Waiting {
  key: string;
  start: () => void;
}

/**
 * Runs tasks with at most `concurrency` at once in all and `perKey` at once per key (a host), in arrival order
 * except that a task whose key is busy lets the next ones by: one slow host holds at most `perKey` slots and never
 * the queue. At most `maxQueued` tasks wait; beyond that `run` rejects with QueueFull.
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

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    if (this.waiting.length >= this.maxQueued) return Promise.reject(new QueueFull());
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        key,
        start: () => {
          // The slot is given back before the caller hears of the outcome.
          const done = () => {
            this.active--;
            const left = this.activeByKey.get(key)! - 1;
            if (left === 0) this.activeByKey.delete(key);
            else this.activeByKey.set(key, left);
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
      const { key, start } = this.waiting[i];
      const busy = this.activeByKey.get(key) ?? 0;
      if (busy >= this.perKey) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.active++;
      this.activeByKey.set(key, busy + 1);
      start();
    }
  }
}
