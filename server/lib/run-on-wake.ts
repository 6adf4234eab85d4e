/**
 * A task run each time it is woken, never two runs at once: a wake during a run asks for one more run after it, so
 * any number of wakes meanwhile (a notification, a timer, a run of its own that freed room) cost one run, and nothing
 * woken for is missed. A run that throws is reported to `failed`; the next wake runs it all the same.
 */
export class RunOnWake {
  private running?: Promise<unknown>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly task: () => Promise<unknown>,
    private readonly failed: (error: unknown) => void,
  ) {}

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.task()
      .catch((error) => this.failed(error))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** No run starts after this call; resolves once the run in progress, if any, has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
