import type { FastifyInstance } from "fastify";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * Closes, when the app closes, the connections that have not begun a request. Node's close ends idle keep-alive
 * connections (what Fastify's `forceCloseConnections: "idle"` relies on) but not one that never sent a request, and it
 * stops timing such a connection out: the close then waits for the client to drop it. fetch (undici) opens one of
 * these right after a response it was reading is aborted (an event stream's client going away) and keeps it for the
 * server's Keep-Alive timeout (Fastify's is 72 s), past the shutdown timeout. Registered last, so that nothing can
 * connect between it and the server's close.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  const unused = new Set<Socket>();
  app.server.on("connection", (socket: Socket) => {
    unused.add(socket);
    socket.once("close", () => unused.delete(socket));
  });
  app.server.on("request", (request: IncomingMessage) => unused.delete(request.socket));
  app.addHook("preClose", (done) => {
    for (const socket of unused) socket.destroy();
    done();
  });
}
