import type { JsonRpcProvider } from "ethers";
import { startRpcProxy } from "../../support/rpc-proxy";
import { expectOk } from "./answers";
import type { CollectionsRun } from "./collections-chain";
import { untilIndexed } from "./indexed";
import { CONNECTIONS, load, percentile, type LoadResult } from "./load";
import { startService } from "./service";
import type { Row } from "./suite";

/** Loads of the holder's contracts with details and without, each: medians are kept. */
const PAGE_ROUNDS = 3;
/** The longest the bench waits for the index, or for the classifier's verdicts, before it gives up. */
const TIMEOUT_MS = 600_000;

/**
 * The collection route uncached (the first read of each collection, which finds its deployment, then a read of each
 * at a block no read has seen) and cached, with the calls the service sends the node per collection counted by a
 * JSON-RPC proxy in front of it; and the holder's contracts with `details=true` beside the same page without, at 32
 * connections each, in turn three times.
 */
export async function collectionRoutes(options: CollectionsRun & { provider: JsonRpcProvider; seconds: number }): Promise<Row[]> {
  const { chain, log, seconds } = options;
  const proxy = await startRpcProxy(options.nodeUrl);
  const app = await startService({ RPC_URL_LOCALHOST: proxy.url, INDEXER_POLL_MS: "100" });
  try {
    const inventory = `/inventory/localhost/${chain.holder}?limit=1000`;
    log("collections: waiting for the index and every verdict (the classifier's calls are not the route's)");
    await until("every collection indexed and classified", async () => {
      const answer = await fetch(`${app.url}${inventory}&details=true`);
      if (!answer.ok) return void (await answer.body?.cancel());
      const listed = (await answer.json()) as Array<{ spam: { reasons: string[] } }>;
      return listed.length === chain.contracts.length && listed.every((c) => !c.spam.reasons.includes("Unclassified"));
    });

    const path = (contract: string) => `/collection/localhost/${contract}`;
    /** Reads each collection once, one after another: the median time of a read and the node's calls per read. */
    const readEach = async (what: string) => {
      const times: number[] = [];
      const before = proxy.calls.length;
      for (const contract of chain.contracts) {
        const started = performance.now();
        const answer = await expectOk(`${what} ${contract}`, await fetch(`${app.url}${path(contract)}`));
        await answer.json();
        times.push(performance.now() - started);
      }
      return { ms: percentile(times, 50), calls: (proxy.calls.length - before) / chain.contracts.length };
    };
    log(`GET /collection of each of ${chain.contracts.length} collections, never read (deployment found, chain facts read)`);
    const first = await readEach("the first read of");
    log("a block mined: GET /collection of each at a block no read has seen (chain facts read again)");
    await options.provider.send("evm_mine", []);
    const mined = await options.provider.getBlockNumber();
    await untilIndexed(app.url, inventory, mined, TIMEOUT_MS);
    const newBlock = await readEach("a read at a new block of");
    const cached1 = await readEach("a cached read of");

    log(`GET /collection from the cache, ${CONNECTIONS} connections, ${seconds} s`);
    let next = 0;
    const before = proxy.calls.length;
    const cached = await load({
      what: "collections from the cache",
      url: app.url,
      connections: CONNECTIONS,
      seconds,
      next: () => ({ path: path(chain.contracts[next++ % chain.contracts.length]) }),
    });
    const cachedCalls = (proxy.calls.length - before) / Math.max(1, cached.requestsPerSecond * seconds);

    log(
      `the holder's ${chain.contracts.length} contracts with and without details=true, ${CONNECTIONS} connections, ` +
        `${seconds} s each, in turn ${PAGE_ROUNDS} times`,
    );
    // In turn, the first of each round alternating, medians: a burst of load on a shared machine during one of the
    // loads would otherwise decide the ratio.
    const pages: Record<"plain" | "details", LoadResult[]> = { plain: [], details: [] };
    for (let round = 0; round < PAGE_ROUNDS; round++) {
      for (const arm of round % 2 === 0 ? (["plain", "details"] as const) : (["details", "plain"] as const)) {
        const url = `${app.url}${inventory}${arm === "details" ? "&details=true" : ""}`;
        pages[arm].push(await load({ what: `contracts of an owner (${arm})`, url, connections: CONNECTIONS, seconds }));
      }
    }
    const median = (arm: "plain" | "details", of: (r: LoadResult) => number) =>
      pages[arm].map(of).sort((a, b) => a - b)[Math.floor(PAGE_ROUNDS / 2)];
    const plain = { requestsPerSecond: median("plain", (r) => r.requestsPerSecond), p99Ms: median("plain", (r) => r.p99Ms) };
    const details = { requestsPerSecond: median("details", (r) => r.requestsPerSecond), p99Ms: median("details", (r) => r.p99Ms) };
    const n = chain.contracts.length;
    /** A pass of `readEach`: its median against the cached pass's, then the node's calls per read. */
    const readRows = (read: { ms: number; calls: number }, which: string, callsWhich: string): Row[] => [
      {
        suite: "collections",
        metric: `GET /collection ${which}, median`,
        value: read.ms,
        unit: "ms",
        reference: { label: "cached, median", value: cached1.ms },
        ratio: read.ms / cached1.ms,
      },
      { suite: "collections", metric: `  node calls per collection ${callsWhich}`, value: read.calls, unit: "calls" },
    ];
    return [
      ...readRows(first, "never read (finds the deployment)", "never read"),
      ...readRows(newBlock, "at a block no read has seen", "at a new block"),
      { suite: "collections", metric: `GET /collection cached, ${CONNECTIONS} conn`, value: cached.requestsPerSecond, unit: "req/s" },
      { suite: "collections", metric: "  p99", value: cached.p99Ms, unit: "ms" },
      { suite: "collections", metric: "  node calls per cached read", value: cachedCalls, unit: "calls" },
      {
        suite: "collections",
        metric: `contracts of an owner (${n}) with details=true, ${CONNECTIONS} conn, median of ${PAGE_ROUNDS}`,
        value: details.requestsPerSecond,
        unit: "req/s",
        reference: { label: "same page without details", value: plain.requestsPerSecond },
        ratio: details.requestsPerSecond / plain.requestsPerSecond,
        budget: { text: "≥ 0.5", met: details.requestsPerSecond / plain.requestsPerSecond >= 0.5 },
      },
      {
        suite: "collections",
        metric: "  p99",
        value: details.p99Ms,
        unit: "ms",
        reference: { label: "without details", value: plain.p99Ms },
        ratio: details.p99Ms / plain.p99Ms,
      },
    ];
  } finally {
    await app.stop();
    await proxy.close();
  }
}

async function until(what: string, done: () => Promise<boolean | undefined>): Promise<void> {
  const started = performance.now();
  while (!(await done())) {
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`collections: gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
