import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** The env of an app that delivers webhooks to receivers on this machine, a delivery timing out after a second. */
export const WEBHOOKS_ENV = {
  WEBHOOKS_SECRET_KEYS: randomBytes(32).toString("base64"),
  WEBHOOKS_ALLOW_PRIVATE: "true",
  WEBHOOKS_ALLOW_HTTP: "true",
  WEBHOOKS_TIMEOUT_MS: "1000",
  WEBHOOKS_DISABLE_AFTER_MS: "60000",
  INDEXER_POLL_MS: "100",
};

/** One request a receiver took, as it came. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** What it answered. */
  answer: Answer;
  /** The sender's port of the connection it came on. */
  remotePort: number;
  /** Of a streamed answer: the bytes of its body the socket took, and whether it was all written before the sender closed it. */
  streamed?: { written: number; complete: boolean; closed: boolean };
}

/** A body the receiver writes `chunkBytes` at a time, `intervalMs` apart, as fast as the sender reads when 0. */
export interface StreamedBody {
  bytes: number;
  chunkBytes: number;
  intervalMs: number;
}

/** How a receiver answers a request: a status (with headers, a body or a streamed one), a reset of the connection, or never. */
export type Answer =
  { status: number; headers?: Record<string, string>; body?: string; stream?: StreamedBody; delayMs?: number } | "reset" | "hang";

/**
 * A webhook receiver on 127.0.0.1: it records every request and answers as `answer` says (2xx by default); `verified`
 * checks each 2xx delivery with the standardwebhooks package, as a receiver would, at the app's time.
 */
export async function startReceiver(answer: (request: Received, count: number) => Answer = () => ({ status: 204 })) {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<http.ServerResponse>();
  let inFlight = 0;
  const server = http.createServer((request, response) => {
    inFlight++;
    receiver.mostInFlight = Math.max(receiver.mostInFlight, inFlight);
    response.once("close", () => inFlight--);
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const header = (name: string) => String(request.headers[name] ?? "");
      const entry: Received = {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        body: Buffer.concat(chunks).toString("utf8"),
        answer: { status: 0 },
        remotePort: request.socket.remotePort ?? 0,
      };
      entry.answer = receiver.answer(entry, received.length + 1);
      received.push(entry);
      for (const wake of [...waiters]) wake();
      if (entry.answer === "reset") return request.socket.resetAndDestroy();
      if (entry.answer === "hang") return void hanging.add(response);
      if (entry.answer.stream) {
        hanging.add(response);
        return void streamBody(response, entry.answer, entry);
      }
      const { status, headers, body, delayMs } = entry.answer;
      if (!delayMs) return void response.writeHead(status, headers).end(body);
      hanging.add(response);
      setTimeout(() => response.destroyed || response.writeHead(status, headers).end(body), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver = {
    answer,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** The most requests it held at once (between a request's arrival and its answer's end). */
    mostInFlight: 0,
    /** The requests answered 2xx. */
    get accepted(): Received[] {
      return received.filter((r) => typeof r.answer === "object" && r.answer.status >= 200 && r.answer.status < 300);
    },
    /** Resolves once `done` holds over what was received (checked at each request); fails after `timeoutMs`. */
    until(done: (received: Received[]) => boolean, what: string, timeoutMs = 30_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`webhook receiver: gave up waiting for ${what} (${received.length} requests)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    /**
     * The JSON of each 2xx delivery (from the `since`th on), each checked with the standardwebhooks package under `secret` at `now` (the
     * app's clock, which a test moves forward: the package checks the timestamp against the time it reads).
     */
    verified(secret: string, now: () => number, since = 0) {
      const webhook = new AtTime(secret, now);
      return receiver.accepted
        .slice(since)
        .map((r) =>
          webhook.verify(r.body, { "webhook-id": r.id, "webhook-timestamp": r.timestamp, "webhook-signature": r.signature }),
        ) as Array<{ id: string; type: string; network: string; subscription: string; data: Record<string, unknown> }>;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Writes the answer's streamed body until it is all written or the sender closes the connection. */
async function streamBody(
  response: http.ServerResponse,
  answer: { status: number; headers?: Record<string, string>; stream?: StreamedBody },
  entry: Received,
): Promise<void> {
  const { bytes, chunkBytes, intervalMs } = answer.stream!;
  const progress = { written: 0, complete: false, closed: false };
  entry.streamed = progress;
  const closed = new Promise<void>((resolve) => response.once("close", resolve)).then(() => {
    progress.closed = true;
  });
  response.writeHead(answer.status, { ...answer.headers, "content-length": String(bytes) });
  const chunk = Buffer.alloc(chunkBytes, "x");
  let sent = 0;
  // Each write waits for the socket to drain, so `written` is what the sender's side took, its buffers included.
  while (sent < bytes && !progress.closed) {
    const part = bytes - sent < chunkBytes ? chunk.subarray(0, bytes - sent) : chunk;
    sent += part.length;
    progress.written = sent;
    if (!response.write(part)) await Promise.race([new Promise((resolve) => response.once("drain", resolve)), closed]);
    if (intervalMs > 0) await Promise.race([new Promise((resolve) => setTimeout(resolve, intervalMs)), closed]);
  }
  if (!progress.closed) {
    progress.complete = true;
    response.end();
  }
  await closed;
}

/** The package's verification with its timestamp check read at `now` instead of the system's time. */
class AtTime extends Webhook {
  constructor(
    secret: string,
    private readonly now: () => number,
  ) {
    super(secret);
  }

  override verify(...args: Parameters<Webhook["verify"]>): unknown {
    const realNow = Date.now;
    const offset = this.now() - realNow();
    // The one clock the package reads, for the call only.
    Date.now = () => realNow() + offset;
    try {
      return super.verify(...args);
    } finally {
      Date.now = realNow;
    }
  }
}
