import type { FastifyInstance } from "fastify";
import type { Socket } from "node:net";
import type { Clock } from "../lib/clock";

/**
 * Closes the connection of a client that leaves what the service wrote for it unread for longer than `timeoutMs`
 * (HTTP_SEND_TIMEOUT_MS). Answers are produced, and their shared slots (answer builders, pool connections, backlog
 * reads) given back, before they are sent: what a client that reads slowly, or not at all, still holds is its own
 * connection and the bytes written to it, and this bounds how long.
 *
 * A connection holds unsent bytes from a write the kernel could not take at once until Node's `drain`: each drain
 * starts the time over, so a client that keeps reading (an export taken a part at a time, a live event stream) keeps
 * its connection however long the whole takes, while one answer must be taken within the bound. The connections are
 * looked at by one sweep, not a timer per write: a stalled one is closed between one and one and a half times
 * `timeoutMs` after it stopped taking bytes.
 */
export function closeSlowReaders(app: FastifyInstance, { timeoutMs, clock }: { timeoutMs: number; clock: Clock }): void {
  /** Open connections, with the time each began to hold bytes its client has not taken (undefined: holds none). */
  const held = new Map<Socket, number | undefined>();
  app.server.on("connection", (socket: Socket) => {
    held.set(socket, undefined);
    socket.on("drain", () => held.set(socket, undefined));
    socket.once("close", () => held.delete(socket));
  });
  const sweep = () => {
    const now = clock();
    for (const [socket, since] of held) {
      if (socket.writableLength === 0) held.set(socket, undefined);
      else if (since === undefined) held.set(socket, now);
      else if (now - since >= timeoutMs) socket.destroy();
    }
  };
  const timer = setInterval(sweep, Math.max(10, Math.min(1_000, Math.floor(timeoutMs / 4)))).unref();
  app.addHook("onClose", (_app, done) => {
    clearInterval(timer);
    done();
  });
}
