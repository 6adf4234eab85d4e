/**
 * A background task run `intervalMs` after its previous run ended (never two runs at once), from `start` until `stop`.
 * A run that throws is reported to `failed` and the next one runs all the same. The timer does not keep the process
 * alive on its own.
 */
export class Repeating {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly task: () => Promise<unknown>,
    private readonly failed: (error: unknown) => void,
  ) {}

  start(): void {
    this.schedule();
  }

  /** No run starts after this; resolves once the run in progress, if any, has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.task()
        .then(() => undefined)
        .catch((error) => this.failed(error))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.intervalMs);
    this.timer.unref();
  }
}
