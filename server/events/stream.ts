import type { ServerResponse } from "node:http";
import type { Frames, Sink } from "./feed";

export interface EventStreamOptions {
  /** Bytes a stream may hold unsent in this process; past them it is destroyed. */
  maxBuffered: number;
  /** How long a stream may wait for its client to take what it holds before it is destroyed. */
  stallMs: number;
  /** Called once, when the stream is gone (closed by either side, destroyed or ended). */
  onClose(): void;
  /** An error on the stream's response or socket (the client went away, a write failed): handled here, logged there. */
  onError(error: Error): void;
}

/**
 * One client's Server-Sent Events stream over a hijacked response. Everything written to it goes through `write`,
 * which writes nothing once the stream has ended or been destroyed, so no write can reach an ended stream. It holds
 * at most `maxBuffered` unsent bytes: the feed stops writing once the response asks to wait (its high-water mark,
 * far below the bound) and goes on at `drain`; a client that takes nothing for `stallMs`, or makes the stream hold more
 * than the bound, is destroyed (an ended stream would keep its socket until the client read the rest, which a client
 * that stopped reading never does). Errors of the response and its socket end the stream; they never reach the process.
 */
export class EventStream implements Sink {
  private done = false;
  private stall?: NodeJS.Timeout;
  private grace?: NodeJS.Timeout;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: EventStreamOptions,
  ) {
    const failed = (error: Error) => {
      options.onError(error);
      this.destroy();
    };
    response.on("error", failed);
    response.socket?.on("error", failed);
    response.on("drain", () => this.clearStall());
    response.once("close", () => this.finish());
  }

  /** True once nothing more can be written: ended, destroyed, or closed by the client (maybe before the stream began). */
  get closed(): boolean {
    const { response } = this;
    return this.done || response.destroyed || response.writableEnded || !response.socket || response.socket.destroyed;
  }

  /**
   * The one write path: writes `text` unless the stream is closed. False when the stream is closed or asks to wait
   * (write more only after `drained()`).
   */
  write(text: string | Buffer): boolean {
    if (this.closed) return false;
    const ready = this.response.write(text);
    if (this.response.writableLength > this.options.maxBuffered) {
      this.destroy();
      return false;
    }
    if (!ready) this.armStall();
    return ready;
  }

  send(frames: Frames): boolean {
    return this.write(frames.bytes);
  }

  /** A comment line that keeps proxies from closing an idle stream; a stream waiting for its client has no need. */
  heartbeat(): void {
    if (!this.response.writableNeedDrain) this.write(": heartbeat\n\n");
  }

  /** Resolves true once the client has taken what the stream held, false if the stream closed instead. */
  drained(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (!this.response.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      const settle = () => {
        this.response.off("drain", settle);
        this.response.off("close", settle);
        resolve(!this.closed);
      };
      this.response.once("drain", settle);
      this.response.once("close", settle);
    });
  }

  /**
   * Ends the stream (at shutdown): a client that keeps up gets the end and reconnects elsewhere; one that holds
   * unsent bytes, or has not taken the end within `graceMs`, is destroyed, so it cannot hold the shutdown up.
   */
  end(graceMs: number): void {
    if (this.closed) return;
    if (this.response.writableLength > 0) return this.destroy();
    this.response.end();
    this.grace = setTimeout(() => this.destroy(), graceMs).unref();
  }

  /** Closes the socket at once, whatever it holds. */
  destroy(): void {
    if (!this.response.destroyed) this.response.destroy();
    this.finish();
  }

  private armStall(): void {
    this.stall ??= setTimeout(() => this.destroy(), this.options.stallMs).unref();
  }

  private clearStall(): void {
    clearTimeout(this.stall);
    this.stall = undefined;
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.clearStall();
    clearTimeout(this.grace);
    this.options.onClose();
  }
}
