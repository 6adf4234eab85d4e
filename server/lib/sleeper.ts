/**
 * Sleeps that a background loop's stop can cut short: `sleep(ms)` resolves after `ms` or at the next `wake()`,
 * whichever comes first. One sleep at a time: the loop that owns it.
 */
export class Sleeper {
  private cut?: () => void;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.cut = done;
    });
  }

  /** Ends the sleep in progress, if any, now. */
  wake(): void {
    this.cut?.();
  }
}
