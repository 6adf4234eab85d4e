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
}

/** How a receiver answers a request: a status (with headers), a reset of the connection, or never. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | "reset" | "hang";

/**
 * A webhook receiver on 127.0.0.1: it records every request and answers as `answer` says (2xx by default); `verified`
 * checks each 2xx delivery with the standardwebhooks package, as a receiver would, at the app's time.
 */
export async function startReceiver(answer: (request: Received, count: number) => Answer = () => ({ status: 204 })) {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
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
      };
      entry.answer = receiver.answer(entry, received.length + 1);
      received.push(entry);
      for (const wake of [...waiters]) wake();
      if (entry.answer === "reset") return request.socket.resetAndDestroy();
      if (entry.answer === "hang") return void hanging.add(response);
      response.writeHead(entry.answer.status, entry.answer.headers).end(entry.answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver = {
    answer,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
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
