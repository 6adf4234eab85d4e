import type { FastifyInstance } from "fastify";
import type { Socket } from "node:net";
import type { Clock } from "../lib/clock";

/**
 * Closes the connection of a client that takes none of what the service wrote for it for longer than `timeoutMs`
 * (HTTP_SEND_TIMEOUT_MS). Answers are produced, and their shared slots (answer builders, pool connections, backlog
 * reads) given back, before they are sent: what a client that reads slowly, or not at all, still holds is its own
 * connection and the bytes written to it, and this bounds how long.
 *
 * The bound is on a stall, not on a whole answer: each time the client takes bytes the time starts over, so one that
 * keeps reading (a page of large metadata on a slow link, an export taken a part at a time, a live event stream)
 * keeps its connection however long the whole takes. Bytes taken are seen as a fall of what the connection holds
 * unsent: Node's own buffer (`writableLength`, which a write leaves only once all of it is in the kernel) or, within
 * one large write, what the kernel has not taken yet ({@link unflushedOfWrite}). More written to a client that does
 * not read is no progress: a stream that keeps writing to it is closed all the same. The connections are looked at by
 * one sweep, not a timer per write: a stalled one is closed between one and one and a half times `timeoutMs` after it
 * stopped taking bytes.
 */
export function closeSlowReaders(app: FastifyInstance, { timeoutMs, clock, onClosed }: SendDeadline): void {
  /** Open connections, with what each held unsent at the last sweep and since when it has taken nothing. */
  const held = new Map<Socket, Held | undefined>();
  app.server.on("connection", (socket: Socket) => {
    held.set(socket, undefined);
    socket.on("drain", () => held.set(socket, undefined));
    socket.once("close", () => held.delete(socket));
  });
  const sweep = () => {
    const now = clock();
    for (const [socket, last] of held) {
      const buffered = socket.writableLength;
      if (buffered === 0) {
        held.set(socket, undefined);
        continue;
      }
      const unflushed = unflushedOfWrite(socket);
      const took =
        last !== undefined &&
        (buffered < last.buffered || (unflushed !== undefined && last.unflushed !== undefined && unflushed < last.unflushed));
      if (last === undefined || took) held.set(socket, { buffered, unflushed, since: now });
      else if (now - last.since >= timeoutMs) {
        socket.destroy();
        onClosed?.();
      } else {
        last.buffered = buffered;
        last.unflushed = unflushed;
      }
    }
  };
  const timer = setInterval(sweep, Math.max(10, Math.min(1_000, Math.floor(timeoutMs / 4)))).unref();
  app.addHook("onClose", (_app, done) => {
    clearInterval(timer);
    done();
  });
}

/** The bound (HTTP_SEND_TIMEOUT_MS), the clock it is read by, and what is told of each connection it closes (a metric). */
interface SendDeadline {
  timeoutMs: number;
  clock: Clock;
  onClosed?: () => void;
}

/** What a connection held unsent at a sweep, and since when it has taken none of it. */
interface Held {
  buffered: number;
  unflushed: number | undefined;
  since: number;
}

/**
 * The bytes of the write in progress on `socket` that the kernel has not taken yet: libuv's write queue, which Node's
 * TCP handle shows as `writeQueueSize` (not a documented property; Node itself reads it). A write of many megabytes is
 * one entry of `writableLength` until the kernel has taken all of it, so this is how a client taking it part by part is
 * told from one taking nothing. Undefined where the handle does not show it (a closed socket, another kind of stream):
 * then only `writableLength` tells. test/server/http/send-deadline-internals.test.ts fails if Node stops showing it.
 */
export function unflushedOfWrite(socket: Socket): number | undefined {
  const size = (socket as unknown as { _handle?: { writeQueueSize?: unknown } | null })._handle?.writeQueueSize;
  return typeof size === "number" ? size : undefined;
}
