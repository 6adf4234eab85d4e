import net from "node:net";
import type pg from "pg";

/** The protocol's code of a CancelRequest (PostgreSQL's manual, "Message Formats"). */
const CANCEL_REQUEST_CODE = 80_877_102;

/** How long the cancel's own connection may take: a server that does not take it in that time is not waited for. */
export const CANCEL_TIMEOUT_MS = 1_000;

/**
 * Asks the server `client` is connected to (PostgreSQL, or a pooler, which passes it on to the server connection the
 * client's statement runs on) to cancel what that connection runs, on a connection of its own as the protocol wants.
 * Resolves once the server has read it and closed that connection, or failed, or after CANCEL_TIMEOUT_MS: best effort,
 * since a server that does not answer is why it is sent. The client's own connection must stay open until then: a
 * pooler forgets a client that left, and with it where to pass the cancel on.
 */
export function sendCancelRequest(client: pg.ClientBase): Promise<void> {
  const { host, port, processID, secretKey } = client as unknown as {
    host: string;
    port: number;
    processID: number | null;
    secretKey: number | null;
  };
  if (processID === null || secretKey === null) return Promise.resolve();
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = host.startsWith("/") ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
    const timer = setTimeout(() => socket.destroy(), CANCEL_TIMEOUT_MS);
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
    // Written, not ended: PgBouncer drops a cancel whose connection is half-closed with it. The server closes it.
    socket.on("connect", () => socket.write(message));
  });
}
