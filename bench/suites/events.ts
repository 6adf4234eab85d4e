import http from "node:http";
import path from "node:path";
import { Wallet } from "ethers";
import { TransferFlood__factory } from "../../typechain-types";
import { ServerCpu } from "../lib/cpu";
import { monotonicMicroseconds, newestProfile, topFunctions } from "../lib/cpu-profile";
import { untilIndexed } from "../lib/indexed";
import { percentile } from "../lib/load";
import { withLocalChain } from "../lib/local-chain";
import { startService } from "../lib/service";
import type { Suite } from "../lib/suite";

/** Subscribers on the one instance, and the transfers of each burst (in transactions of PER_TX logs). */
const FULL = { subscribers: 1_000, burst: 10_000 };
const SMOKE = { subscribers: 20, burst: 500 };
const PER_TX = 5_000;
/** Budget: server CPU per delivered event at most this share of the CPU per indexed transfer, in the same run. */
const CPU_SHARE = 0.1;
const INDEXER_POLL_MS = 1_000;
/** What is left running after a burst (the spam classifier, the metadata sweep) is let finish before CPU is read. */
const SETTLE_MS = 2_000;
/** The longest the bench waits for every subscriber to get every event. */
const DELIVERY_TIMEOUT_MS = 600_000;
/** Functions `--profile` lists, by their own CPU time while the events are delivered. */
const PROFILE_TOP = 20;

const events: Suite = {
  method: [
    "The service in its own process with the indexer polling every second; the subscribers are plain HTTP connections of the bench's process to `GET /events/localhost?contract=…`, each on its own socket, read as they come.",
    "A burst is one contract's Transfer logs, 5,000 to a transaction (`TransferFlood`), sent at once: 10,000 transfers (500 in the smoke).",
    "First a burst with no subscriber: the server CPU from its first transaction to the index at its last block, 2 s after, divided by its transfers, is the CPU per indexed transfer.",
    "Then 1,000 subscribers (20 in the smoke) connect and a second burst of the same size is sent: the server CPU from its first transaction until every subscriber has every event, 2 s after, minus the first burst's, divided by the events delivered (transfers × subscribers), is the CPU per delivered event; the budget holds it to at most 0.1× the CPU per indexed transfer.",
    "Server CPU is the service process's CPU time (/proc/<pid>/stat) plus, on PostgreSQL, that of its database's client backends (`bench/lib/cpu.ts`); on PGlite the database runs inside the service's process.",
    "Every subscriber's events are checked: exactly the burst's transfers, each once, in increasing id order, the same sequence for all.",
    "Delivery time: for every event at every subscriber, its arrival minus the moment its transaction was mined (the local node mines on arrival), p50 and p95; it includes the indexer's polling and writing, and the subscribers' own reading: the bench's process reads every byte of every stream, and its CPU per delivered event is shown beside the server's (on a busy machine it waits for a core, and so do the events).",
    "With `--profile` the service runs under V8's profiler (its figures then include the profiler's cost), and the functions that took the most CPU themselves while the second burst was delivered are listed in the log.",
  ],
  async run({ log, smoke, profile }) {
    const sizes = smoke ? SMOKE : FULL;
    return withLocalChain(async ({ node, provider }) => {
      const deployer = await provider.getSigner(0);
      const flood = await new TransferFlood__factory(deployer).deploy();
      const contract = (await flood.getAddress()).toLowerCase();
      const holder = Wallet.createRandom().address;
      // With --profile, the service writes its CPU profile here when it stops (bench/results/ is not committed).
      const profileDir = path.join(__dirname, "..", "results", "profiles", `events-${new Date().toISOString().replace(/[:.]/g, "-")}`);
      const service = await startService(
        { RPC_URL_LOCALHOST: node.url, INDEXER_POLL_MS: String(INDEXER_POLL_MS) },
        undefined,
        profile ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {},
      );
      /** The delivery's span on the profile's clock: until every event arrived, or until the bench gave up. */
      let delivery: { from: number; to?: number } | undefined;
      const cpu = await ServerCpu.forService(service);
      let nextId = 1;
      const burst = async (): Promise<{ mined: number[]; block: number }> => {
        const mined: number[] = [];
        for (let sent = 0; sent < sizes.burst; sent += PER_TX) {
          const count = Math.min(PER_TX, sizes.burst - sent);
          const tx = await flood.flood(holder, nextId, count, { gasLimit: 15_000_000 });
          mined.push(performance.now());
          nextId += count;
          await tx.wait();
        }
        return { mined, block: await provider.getBlockNumber() };
      };
      try {
        await untilIndexed(service.url, `/inventory/localhost/${holder}`, await provider.getBlockNumber());

        log(`a burst of ${sizes.burst.toLocaleString("en-US")} transfers with no subscriber`);
        const idleStart = await cpu.sample();
        const first = await burst();
        await untilIndexed(service.url, `/inventory/localhost/${holder}`, first.block);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const indexing = ServerCpu.between(idleStart, await cpu.sample());
        const indexingMs = indexing.service + indexing.database;

        log(`${sizes.subscribers} subscribers, then a burst of ${sizes.burst.toLocaleString("en-US")} transfers`);
        const subscribers = await Promise.all(
          Array.from({ length: sizes.subscribers }, () => subscribe(`${service.url}/events/localhost?contract=${contract}`, sizes.burst)),
        );
        try {
          const start = await cpu.sample();
          const clientStart = process.cpuUsage();
          delivery = { from: monotonicMicroseconds() };
          const second = await burst();
          const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
          let reported = performance.now();
          const got = () => subscribers.reduce((sum, s) => sum + Math.min(s.count, sizes.burst), 0);
          while (subscribers.some((s) => s.count < sizes.burst && !s.failed)) {
            if (performance.now() > deadline)
              throw new Error(
                `not every subscriber got every event within ${DELIVERY_TIMEOUT_MS} ms: ${got()} of ${sizes.burst * sizes.subscribers}`,
              );
            if (performance.now() - reported > 30_000) {
              reported = performance.now();
              log(`${got().toLocaleString("en-US")} of ${(sizes.burst * sizes.subscribers).toLocaleString("en-US")} events delivered`);
            }
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          delivery.to = monotonicMicroseconds();
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          const delivering = ServerCpu.between(start, await cpu.sample());
          const deliveringMs = delivering.service + delivering.database;
          const client = process.cpuUsage(clientStart);
          checkSequences(subscribers, sizes.burst);

          const delivered = sizes.burst * sizes.subscribers;
          const perTransfer = (indexingMs * 1000) / sizes.burst;
          const perEvent = ((deliveringMs - indexingMs) * 1000) / delivered;
          const latencies: number[] = [];
          for (const s of subscribers)
            for (let i = 0; i < sizes.burst; i++) latencies.push(s.arrivals[i] - second.mined[Math.floor(i / PER_TX)]);
          return [
            { suite: "events", metric: "server CPU per indexed transfer (no subscriber)", value: perTransfer, unit: "µs" },
            {
              suite: "events",
              metric: `server CPU per delivered event, ${sizes.subscribers} subscribers`,
              value: perEvent,
              unit: "µs",
              reference: { label: "per indexed transfer", value: perTransfer },
              ratio: perEvent / perTransfer,
              budget: { text: `≤ ${CPU_SHARE}`, met: perEvent / perTransfer <= CPU_SHARE },
            },
            { suite: "events", metric: `events delivered, ${sizes.subscribers} subscribers`, value: delivered, unit: "" },
            { suite: "events", metric: "mined → delivered p50", value: percentile(latencies, 50), unit: "ms" },
            { suite: "events", metric: "mined → delivered p95", value: percentile(latencies, 95), unit: "ms" },
            {
              suite: "events",
              metric: "the subscribers' CPU per delivered event (the bench's process)",
              value: (client.user + client.system) / delivered,
              unit: "µs",
            },
          ];
        } finally {
          for (const s of subscribers) s.close();
        }
      } finally {
        if (delivery) delivery.to ??= monotonicMicroseconds();
        await cpu.close();
        await service.stop();
        if (profile && delivery) {
          // The profile is written as the service exits.
          const file = newestProfile(profileDir);
          log(`CPU profile: ${file}; the functions that took the most CPU themselves while the events were delivered:`);
          for (const [name, ms] of topFunctions(file, delivery.from, delivery.to!, PROFILE_TOP))
            log(`${ms.toFixed(0).padStart(8)} ms  ${name}`);
        }
      }
    });
  },
};

export default events;

/** One subscriber: the events it got so far, checked as they come. */
interface Subscriber {
  count: number;
  /** Arrival (performance.now()) of each event, by its place in the burst. */
  arrivals: Float64Array;
  /** Ids in increasing order throughout, and their sum: two subscribers with the same count, order and sum got the same ids. */
  ordered: boolean;
  lastId: number;
  sum: number;
  failed?: Error;
  close(): void;
}

/** Opens an event stream on a socket of its own and reads it as it comes, noting each event's id and arrival. */
function subscribe(url: string, expected: number): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const subscriber: Subscriber = {
      count: 0,
      arrivals: new Float64Array(expected),
      ordered: true,
      lastId: 0,
      sum: 0,
      close: () => request.destroy(),
    };
    const request = http.get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`the event stream answered ${response.statusCode}`));
        response.resume();
        return;
      }
      let rest = "";
      response.setEncoding("latin1");
      response.on("data", (chunk: string) => {
        const at = performance.now();
        const text = rest + chunk;
        // Events end with a blank line, and no line of an event's JSON holds a line break: ids are found by their line.
        const end = text.lastIndexOf("\n\n");
        rest = end < 0 ? text : text.slice(end + 2);
        for (const match of (end < 0 ? "" : text.slice(0, end)).matchAll(/^id: (\d+)$/gm)) {
          const id = Number(match[1]);
          if (id <= subscriber.lastId) subscriber.ordered = false;
          subscriber.lastId = id;
          subscriber.sum += id;
          if (subscriber.count < expected) subscriber.arrivals[subscriber.count] = at;
          subscriber.count++;
        }
      });
      response.on("error", (error) => (subscriber.failed = error));
      response.on("close", () => (subscriber.failed ??= new Error("the event stream closed")));
      resolve(subscriber);
    });
    request.on("error", (error) => {
      subscriber.failed = error;
      reject(error);
    });
  });
}

/** Every subscriber got exactly `expected` events, in increasing id order, the same ids as every other. */
function checkSequences(subscribers: Subscriber[], expected: number): void {
  const [reference] = subscribers;
  for (const [i, s] of subscribers.entries()) {
    if (s.failed && s.count < expected) throw new Error(`subscriber ${i} failed after ${s.count} events: ${s.failed.message}`);
    if (s.count !== expected) throw new Error(`subscriber ${i} got ${s.count} events, not ${expected}`);
    if (!s.ordered) throw new Error(`subscriber ${i} got its events out of order`);
    if (s.sum !== reference.sum || s.lastId !== reference.lastId) throw new Error(`subscriber ${i} got other events than subscriber 0`);
  }
}
