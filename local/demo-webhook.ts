import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import type { Config } from "../server/config";
import type { Database } from "../server/db/database";
import { lastChangeId } from "../server/indexer";
import { replay } from "../server/webhooks/replay";
import { subscribe } from "../server/webhooks/subscribe";
import { findSubscription, listSubscriptions, removeSubscription } from "../server/webhooks/subscriptions";

/** How the demo's subscription is told from others: each start replaces the one before (its receiver's port changed). */
export const DEMO_SUBSCRIPTION = "npm start: the local demo receiver";
/** Bytes of a delivery the receiver reads at most (a delivery is one change, far smaller). */
const MAX_BODY = 64 * 1024;

/** A delivery as the receiver verified it. */
interface Delivery {
  id: string;
  type: string;
  data: { contract?: string; id?: unknown; from?: string; to?: string };
}

/**
 * The local setup's webhook receiver: an HTTP server on 127.0.0.1 that verifies each delivery with the
 * standardwebhooks package, as a dApp's receiver would, under the secret its subscription was given; it counts them
 * and, once `announce` is on (after the banner), prints one line for each.
 */
export class DemoReceiver {
  private server?: http.Server;
  private secret?: string;
  /** Deliveries that arrived and verified. */
  verified = 0;
  announce = false;

  constructor(private readonly print: (line: string) => void) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY) chunks.push(chunk);
      });
      request.on("end", () => {
        if (size > MAX_BODY) return void response.writeHead(413).end();
        response.writeHead(this.receive(Buffer.concat(chunks).toString("utf8"), request.headers) ? 204 : 400).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }

  /**
   * Subscribes the receiver to the demo user's changes on the local chain (replacing an earlier start's subscription)
   * and has it delivered again what was logged since `since`, the demo's own transfers: answers once they have all
   * arrived (or after `timeoutMs`).
   */
  async subscribe(db: Database, input: { config: Config; user: string; since: Date; timeoutMs?: number }): Promise<void> {
    for (const old of await listSubscriptions(db, null))
      if (old.description === DEMO_SUBSCRIPTION) await removeSubscription(db, old.id, null);
    const { subscription, secret } = await subscribe(db, {
      input: { network: "localhost", url: this.url, owners: [input.user], description: DEMO_SUBSCRIPTION, confirmations: 0 },
      clientId: null,
      config: input.config.webhooks,
      served: ["localhost"],
      now: Date.now(),
    });
    this.secret = secret;
    const last = await lastChangeId(db);
    await replay(db, { id: subscription.id, clientId: null, fromTime: input.since.toISOString(), now: Date.now() });
    const deadline = Date.now() + (input.timeoutMs ?? 20_000);
    while (BigInt((await findSubscription(db, subscription.id, null)).cursor) < last && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** Verifies one delivery; true when it verified (printed once `announce` is on). */
  private receive(body: string, headers: http.IncomingHttpHeaders): boolean {
    if (this.secret === undefined) return false;
    let delivery: Delivery;
    try {
      delivery = new Webhook(this.secret).verify(body, {
        "webhook-id": String(headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(headers["webhook-signature"] ?? ""),
      }) as Delivery;
    } catch (error) {
      this.print(`  Webhook   a delivery to the local receiver did not verify: ${(error as Error).message}`);
      return false;
    }
    this.verified++;
    if (this.announce) this.print(`  Webhook   ${describeDelivery(delivery)} arrived at the local receiver, signature verified`);
    return true;
  }
}

/** One line of what a delivery says. */
function describeDelivery({ id, type, data }: Delivery): string {
  const what = data.contract ? ` of ${data.contract} #${String(data.id)}` : "";
  const moved = data.from && data.to ? ` from ${data.from} to ${data.to}` : "";
  return `${id} (${type}${what}${moved})`;
}
