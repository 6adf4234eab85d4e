/**
 * One outbound exchange's signal: it aborts at `timeoutMs` (as `AbortSignal.timeout` does, with a TimeoutError) or when
 * `outer` aborts (a long-lived signal: the service shutting down). `end()` must be called once the exchange is over:
 * it unhooks the signal from `outer`; the timer stays, as AbortSignal.timeout's does, so that what the exchange left
 * running (an answer's body being drained) is still cut off at the deadline.
 *
 * Not the two joined by `AbortSignal.any`: Node records every signal made that way on each of its sources and forgets
 * the record only when the source itself goes away, so one per exchange on a signal that lives as long as the process
 * grows the heap for as long as the process runs.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private expired = false;
  private readonly onOuterAbort: () => void;

  constructor(
    timeoutMs: number,
    private readonly outer?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    const timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    }, timeoutMs);
    // As AbortSignal.timeout's: the exchange's own sockets keep the process alive, not its deadline.
    timer.unref();
    this.onOuterAbort = () => this.controller.abort(outer!.reason);
    if (outer?.aborted) this.onOuterAbort();
    else outer?.addEventListener("abort", this.onOuterAbort, { once: true });
  }

  /** Whether the time ran out (not `outer`). */
  get timedOut(): boolean {
    return this.expired;
  }

  end(): void {
    this.outer?.removeEventListener("abort", this.onOuterAbort);
  }
}
