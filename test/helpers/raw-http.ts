import net from "node:net";
import { untilSettled } from "./waiters";

/**
 * A client on a bare socket: it sends one request exactly as given (repeated headers, raw bytes) and then reads only
 * when told to. Until then it takes nothing off the socket past what Node buffers by itself, as a client that stopped
 * reading does: the server's writes pile up in the kernel and then in the server process.
 */
export interface RawClient {
  socket: net.Socket;
  /**
   * Reads until what arrived satisfies `done` (or the server closed, or `timeoutMs` passed), then stops reading again;
   * resolves with all read so far.
   */
  readUntil(done: (bytes: Buffer) => boolean, timeoutMs?: number): Promise<Buffer>;
  /**
   * Reads everything that is left and resolves once the server has closed the connection (`closed`), or after
   * `timeoutMs` with `closed: false`.
   */
  readToClose(timeoutMs?: number): Promise<{ bytes: Buffer; closed: boolean }>;
  destroy(): void;
}

/** Sends `GET path` with `headers` (name, value pairs, in order, repeats kept) to the server at `url`. */
export async function rawRequest(url: string, path: string, headers: Array<[string, string | Buffer]> = []): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const chunks: Buffer[] = [];
  let closed = false;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  socket.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    notify();
  });
  // A reset is how a server that destroys a socket with unsent data may close it.
  socket.on("error", () => undefined);
  socket.on("close", () => {
    closed = true;
    notify();
  });
  socket.pause();
  const lines = [Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`, "latin1")];
  for (const [name, value] of headers) lines.push(Buffer.from(`${name}: `, "latin1"), Buffer.from(value), Buffer.from("\r\n"));
  lines.push(Buffer.from("\r\n"));
  socket.write(Buffer.concat(lines));
  /** Resolves whether `done` came true before the connection closed or `timeoutMs` passed. */
  const until = (done: () => boolean, timeoutMs: number) =>
    new Promise<boolean>((resolve) =>
      untilSettled(
        waiters,
        () => {
          if (!done() && !closed) return false;
          resolve(done());
          return true;
        },
        timeoutMs,
        () => resolve(false),
      ),
    );
  return {
    socket,
    async readUntil(done, timeoutMs = 10_000) {
      socket.resume();
      await until(() => done(Buffer.concat(chunks)), timeoutMs);
      socket.pause();
      return Buffer.concat(chunks);
    },
    async readToClose(timeoutMs = 10_000) {
      socket.resume();
      const ended = await until(() => closed, timeoutMs);
      return { bytes: Buffer.concat(chunks), closed: ended };
    },
    destroy: () => socket.destroy(),
  };
}

/**
 * The status code, the head and the body of an HTTP/1.1 answer as read off a socket: `length` is its content-length
 * (undefined for an answer without one, whose body is all read after the head), and the body is cut there;
 * `complete` once all of such a length is read.
 */
export function parseRawAnswer(bytes: Buffer): { status: number; headers: string; length?: number; complete: boolean; body: Buffer } {
  const end = bytes.indexOf("\r\n\r\n");
  const head = bytes.subarray(0, end < 0 ? bytes.length : end).toString("latin1");
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1] ?? NaN);
  const declared = /\r\ncontent-length: (\d+)/i.exec(head);
  const length = declared ? Number(declared[1]) : undefined;
  const rest = end < 0 ? Buffer.alloc(0) : bytes.subarray(end + 4);
  return {
    status,
    headers: head,
    length,
    complete: length !== undefined && rest.length >= length,
    body: length === undefined ? rest : rest.subarray(0, length),
  };
}

/**
 * The open connections of `server`, waited for until `count` or fewer remain (or `timeoutMs` passed): what a test
 * reads to see that the service closed the connections of clients that stopped reading.
 */
export async function connectionsDownTo(server: net.Server, count: number, timeoutMs = 90_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<number>((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    if (open <= count || Date.now() > deadline) return open;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
