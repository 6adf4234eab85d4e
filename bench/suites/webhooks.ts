import { randomBytes } from "node:crypto";
import http from "node:http";
import { Wallet, type JsonRpcSigner } from "ethers";
import { createSubscription } from "../../server/webhooks/subscriptions";
import { createDataClient } from "../../sdk/src/index";
import { listenLocally } from "../../support/net";
import { AliceNFT__factory, type AliceNFT } from "../../typechain-types";
import { ServerCpu } from "../lib/cpu";
import { untilIndexed } from "../lib/indexed";
import { percentile } from "../lib/load";
import { withLocalChain } from "../lib/local-chain";
import { startService, type Service } from "../lib/service";
import type { Row, Suite } from "../lib/suite";

/** Transfers minted for each throughput measure (a backlog no window drains), and the samples of the arrival times. */
const FULL = { backlog: 10_000, latencySamples: 20 };
const SMOKE = { backlog: 500, latencySamples: 3 };
const PER_TX = 500;
/** The subscriptions of the wide measure, each with a receiver of its own. */
const WIDE = 100;
/** Budget: the webhook's p95 from a mined block at most this multiple of the event stream's in the same run. */
const P95_MULTIPLE = 1.5;
const INDEXER_POLL_MS = 1_000;
/** The longest a sample waits for its webhook and its stream event. */
const ARRIVAL_TIMEOUT_MS = 30_000;

const webhooks: Suite = {
  method: [
    "The service in its own process with the indexer polling every second, its webhooks delivered to plain Node HTTP receivers in the bench's process (one server per subscription, answering 204 at once), each subscription filtered to the bench's contract.",
    "The time from a mined block to its webhook's arrival, beside the arrival of the same transfer on the event stream (`GET /events/:network`, read with the SDK) in the same run, with one subscription: 20 transfers, each sent at a random moment of the indexer's polling; the budget holds the webhook's p95 to at most 1.5× the stream's.",
    "Deliveries per second at 1 and at 100 subscriptions (a service on a fresh database for each): 10,000 transfers minted at once, then, once the index reaches them, the deliveries that arrive during the load's seconds; one delivery is one request of one change to one subscription.",
    "Server CPU per delivery over the same seconds: the service process's CPU time (/proc/<pid>/stat) plus, on PostgreSQL, that of its database's client backends (`bench/lib/cpu.ts`); on PGlite the database runs inside the service's process.",
    "Statements per delivery over the same seconds, counted on the wire between the service and PostgreSQL (`bench/lib/pg-count-proxy.ts`; BEGIN and COMMIT not counted): on PostgreSQL only.",
  ],
  async run({ seconds, log, smoke }) {
    const sizes = smoke ? SMOKE : FULL;
    return withLocalChain(async ({ node, provider }) => {
      const receivers: Receiver[] = [];
      try {
        const deployer = await provider.getSigner(0);
        const token = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
        const contract = await token.getAddress();
        const holder = await provider.getSigner(1);
        const holderAddress = await holder.getAddress();
        log(`minting ${sizes.latencySamples} tokens to a holder, to move in the arrival samples`);
        await (await token.mintRange(holderAddress, 0, sizes.latencySamples)).wait();
        let nextId = sizes.latencySamples;
        const mintBacklog = async () => {
          log(`minting ${sizes.backlog.toLocaleString("en-US")} tokens (${PER_TX} per transaction)`);
          for (let minted = 0; minted < sizes.backlog; minted += PER_TX) {
            const count = Math.min(PER_TX, sizes.backlog - minted);
            await (await token.mintRange(Wallet.createRandom().address, nextId, count, { gasLimit: 16_000_000 })).wait();
            nextId += count;
          }
          return provider.getBlockNumber();
        };
        for (let i = 0; i < WIDE; i++) receivers.push(await startReceiver());
        const key = randomBytes(32);
        const start = (count: number) =>
          startService(
            {
              RPC_URL_LOCALHOST: node.url,
              INDEXER_POLL_MS: String(INDEXER_POLL_MS),
              WEBHOOKS_SECRET_KEYS: key.toString("base64"),
              WEBHOOKS_ALLOW_PRIVATE: "true",
              WEBHOOKS_ALLOW_HTTP: "true",
            },
            async (db) => {
              for (const receiver of receivers.slice(0, count)) {
                await createSubscription(db, {
                  clientId: null,
                  network: "localhost",
                  url: receiver.url,
                  description: "bench",
                  kinds: ["transfer"],
                  contracts: [contract.toLowerCase()],
                  owners: [],
                  confirmations: 0,
                  spam: "include",
                  keys: [key],
                  now: Date.now(),
                });
              }
            },
            { countQueries: true },
          );

        const rows: Row[] = [];
        const single = await start(1);
        let one: Throughput;
        try {
          await untilIndexed(single.url, `/inventory/localhost/${holderAddress}`, await provider.getBlockNumber());
          rows.push(...(await arrivals({ app: single, token, holder, receiver: receivers[0], samples: sizes.latencySamples, log })));
          one = await throughput({
            app: single,
            receivers: receivers.slice(0, 1),
            mintBacklog,
            backlog: sizes.backlog,
            holder: holderAddress,
            seconds,
            log,
          });
        } finally {
          await single.stop();
        }
        for (const receiver of receivers) receiver.arrivals.clear();
        const wide = await start(WIDE);
        let many: Throughput;
        try {
          many = await throughput({ app: wide, receivers, mintBacklog, backlog: sizes.backlog, holder: holderAddress, seconds, log });
        } finally {
          await wide.stop();
        }
        /** A measure at one subscription, then at WIDE against it. */
        const oneAndWide = (measure: string, unit: string, atOne: number, atWide: number): Row[] => [
          { suite: "webhooks", metric: `${measure}, 1 subscription`, value: atOne, unit },
          {
            suite: "webhooks",
            metric: `${measure}, ${WIDE} subscriptions`,
            value: atWide,
            unit,
            reference: { label: "1 subscription", value: atOne },
            ratio: atWide / atOne,
          },
        ];
        rows.push(
          ...oneAndWide("deliveries", "/s", one.perSecond, many.perSecond),
          ...oneAndWide("server CPU per delivery", "µs", one.cpuMicros, many.cpuMicros),
        );
        if (one.statementsPerDelivery !== undefined && many.statementsPerDelivery !== undefined) {
          rows.push(...oneAndWide("statements per delivery", "", one.statementsPerDelivery, many.statementsPerDelivery));
        } else {
          log("statements per delivery: counted on PostgreSQL only (DATABASE_URL)");
        }
        return rows;
      } finally {
        await Promise.all(receivers.map((receiver) => receiver.close()));
      }
    });
  },
};

/** A webhook receiver: when each delivery arrived (performance.now()), by its transfer's transaction hash. */
interface Receiver {
  url: string;
  /** Deliveries taken so far, and when the last arrived (performance.now()). */
  count: number;
  lastAt: number;
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

/** A plain Node HTTP server that takes every delivery with 204, noting its arrival. */
async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const receiver: Receiver = { url: "", count: 0, lastAt: 0, arrivals, close: async () => {} };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = performance.now();
      receiver.count++;
      receiver.lastAt = at;
      const { data } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { tx?: string } };
      if (data.tx && !arrivals.has(data.tx)) arrivals.set(data.tx, at);
      response.writeHead(204).end();
    });
  });
  const { url, close } = await listenLocally(server);
  receiver.url = `${url}/hook`;
  receiver.close = close;
  return receiver;
}

/** Waits until `arrived()` answers a time, up to ARRIVAL_TIMEOUT_MS. */
async function arrival(what: string, arrived: () => number | undefined): Promise<number> {
  const deadline = performance.now() + ARRIVAL_TIMEOUT_MS;
  for (;;) {
    const at = arrived();
    if (at !== undefined) return at;
    if (performance.now() > deadline) throw new Error(`${what} did not arrive within ${ARRIVAL_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Mined block → webhook and → event stream, for the same transfers: the p50 and p95 rows. */
async function arrivals(options: {
  app: Service;
  token: AliceNFT;
  holder: JsonRpcSigner;
  receiver: Receiver;
  samples: number;
  log: (message: string) => void;
}): Promise<Row[]> {
  const { app, token, holder, receiver, samples, log } = options;
  const contract = await token.getAddress();
  const streamed = new Map<string, number>();
  const abort = new AbortController();
  const client = createDataClient({ baseUrl: app.url, network: "localhost" });
  const reading = (async () => {
    for await (const event of client.events({ contract, signal: abort.signal })) {
      if (event.type === "transfer" && !streamed.has(event.transfer.tx)) streamed.set(event.transfer.tx, performance.now());
    }
  })().catch((error) => {
    if (!abort.signal.aborted) throw error;
  });
  const webhook: number[] = [];
  const stream: number[] = [];
  try {
    log(`mined → webhook and → event stream: ${samples} transfers, the indexer polling every ${INDEXER_POLL_MS} ms`);
    const from = await holder.getAddress();
    const to = Wallet.createRandom().address;
    for (let id = 0; id < samples; id++) {
      // A random moment relative to the indexer's polling.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * INDEXER_POLL_MS));
      const sent = await token.connect(holder).transferFrom(from, to, id);
      // The local node mines on arrival: the block exists once the send returns.
      const mined = performance.now();
      await sent.wait();
      webhook.push((await arrival(`the webhook of ${sent.hash}`, () => receiver.arrivals.get(sent.hash))) - mined);
      stream.push((await arrival(`the stream event of ${sent.hash}`, () => streamed.get(sent.hash))) - mined);
    }
  } finally {
    abort.abort();
    await reading;
  }
  return [50, 95].map((p) => {
    const at = { webhook: percentile(webhook, p), stream: percentile(stream, p) };
    return {
      suite: "webhooks",
      metric: `mined → webhook p${p}, 1 subscription`,
      value: at.webhook,
      unit: "ms",
      reference: { label: "event stream", value: at.stream },
      ratio: at.webhook / at.stream,
      ...(p === 95 ? { budget: { text: `≤ ${P95_MULTIPLE}`, met: at.webhook <= P95_MULTIPLE * at.stream } } : {}),
    };
  });
}

interface Throughput {
  perSecond: number;
  cpuMicros: number;
  /** Undefined on PGlite (no wire to count on). */
  statementsPerDelivery?: number;
}

/**
 * The deliveries of a backlog of `backlog` transfers (minted by `mintBacklog`, which answers the head) to `receivers`
 * (a subscription each), over `seconds` from the moment the index reached it, or until the backlog ran out: their
 * rate, the server's CPU and its statements per delivery.
 */
async function throughput(options: {
  app: Service;
  receivers: Receiver[];
  mintBacklog: () => Promise<number>;
  backlog: number;
  holder: string;
  seconds: number;
  log: (message: string) => void;
}): Promise<Throughput> {
  const { app, receivers, seconds, log } = options;
  const delivered = () => receivers.reduce((sum, receiver) => sum + receiver.count, 0);
  const all = delivered() + options.backlog * receivers.length;
  await untilIndexed(app.url, `/inventory/localhost/${options.holder}`, await options.mintBacklog());
  const cpu = await ServerCpu.forService(app);
  try {
    log(`deliveries to ${receivers.length} subscription(s), ${seconds} s`);
    const before = { count: delivered(), cpu: await cpu.sample(), statements: app.queryCounts()?.statements, at: performance.now() };
    const end = before.at + seconds * 1_000;
    while (performance.now() < end && delivered() < all) await new Promise((resolve) => setTimeout(resolve, 10));
    const after = { count: delivered(), cpu: await cpu.sample(), statements: app.queryCounts()?.statements, at: performance.now() };
    const deliveries = after.count - before.count;
    if (deliveries === 0) throw new Error(`no delivery to ${receivers.length} subscription(s) in ${seconds} s`);
    const drained = after.count >= all;
    // A backlog that ran out ends the measure at its last delivery.
    const until = drained ? Math.max(...receivers.map((receiver) => receiver.lastAt)) : after.at;
    const used = ServerCpu.between(before.cpu, after.cpu);
    log(`  ${deliveries} deliveries in ${((until - before.at) / 1_000).toFixed(1)} s${drained ? " (the backlog ran out)" : ""}`);
    return {
      perSecond: deliveries / ((until - before.at) / 1_000),
      cpuMicros: ((used.service + used.database) * 1_000) / deliveries,
      statementsPerDelivery:
        before.statements === undefined || after.statements === undefined ? undefined : (after.statements - before.statements) / deliveries,
    };
  } finally {
    await cpu.close();
  }
}

export default webhooks;
