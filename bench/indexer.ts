import { Wallet, type JsonRpcProvider } from "ethers";
import pino from "pino";
import { startLocalNode } from "../local/node";
import { rawRpc } from "../server/chain/raw-rpc";
import { NetworkIndexer } from "../server/indexer/indexer";
import { TRANSFER_TOPIC } from "../server/indexer/transfers";
import { createTestDatabase } from "../support/database";
import { providerFor } from "../support/chain";
import { startRpcProxy } from "../support/rpc-proxy";
import { AliceNFT__factory, ConsecutiveNFT__factory, type AliceNFT } from "../typechain-types";
import { load, percentile, startService, type Row, type Suite } from "./lib";

const CONNECTIONS = 32;
const TRANSFERS = 100_000;
const PER_TX = 500;
const HOLDER_TOKENS = 1_000;
const LAG_SAMPLES = 40;

const indexer: Suite = {
  name: "indexer",
  method: [
    "A cold sync of 100,000 ERC-721 transfers beside bare `eth_getLogs` of the same blocks (the indexer cannot be faster than the node hands out logs).",
    "Its calls to the node are counted by a JSON-RPC proxy in front of it, per block with transfers, against the fewest that index them: the header of each block with transfers, and per range one `eth_getLogs` and one `eth_blockNumber`.",
    "The lag from a mined block to the inventory route showing it, with the indexer polling every second.",
    "The data routes at 32 connections, the service in its own process and the load generator beside it.",
  ],
  async run({ seconds, log, database }) {
    const node = await startLocalNode();
    const provider = providerFor(node.url);
    const rows: Row[] = [];
    try {
      const deployer = await provider.getSigner(0);
      const token = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
      const contract = await token.getAddress();
      const holder = await provider.getSigner(1);
      const holderAddress = await holder.getAddress();

      log(`minting ${TRANSFERS.toLocaleString("en-US")} tokens (${PER_TX} per transaction; ${HOLDER_TOKENS} to one holder)`);
      for (let first = 0; first < TRANSFERS; first += PER_TX) {
        const to = first < HOLDER_TOKENS ? holderAddress : Wallet.createRandom().address;
        await (await token.mintRange(to, first, PER_TX, { gasLimit: 16_000_000 })).wait();
      }
      const head = await provider.getBlockNumber();

      rows.push(...(await coldSync(provider, node.url, head, log)));
      rows.push(...(await http({ node: node.url, provider, token, contract, holder: holderAddress, head, seconds, log, database })));
      return rows;
    } finally {
      provider.destroy();
      await node.stop();
    }
  },
};

async function coldSync(provider: JsonRpcProvider, nodeUrl: string, head: number, log: (message: string) => void): Promise<Row[]> {
  log(`bare eth_getLogs, blocks 0–${head}`);
  const bareStarted = performance.now();
  const logs = await rawRpc<unknown[]>(provider, "eth_getLogs", [
    { fromBlock: "0x0", toBlock: `0x${head.toString(16)}`, topics: [TRANSFER_TOPIC] },
  ]);
  const bareMs = performance.now() - bareStarted;

  log("cold sync of the index on a fresh database, its calls to the node counted by a proxy");
  const database = await createTestDatabase();
  const db = await database.open();
  const proxy = await startRpcProxy(nodeUrl);
  const counted = providerFor(proxy.url);
  try {
    const { migrate } = await import("../server/db/migrate");
    await migrate(db);
    const indexer = new NetworkIndexer({
      network: "localhost",
      provider: counted,
      db,
      startBlock: 0,
      contracts: [],
      pollMs: 1_000,
      maxRange: 10_000,
      maxConsecutive: 5_000,
      logLagBlocks: 128,
      log: pino({ level: "warn" }),
    });
    const started = performance.now();
    const done = new Promise<void>((resolve) => {
      indexer.onProgress = (cursor) => {
        if (cursor.block >= head) resolve();
      };
    });
    indexer.start();
    await done;
    const syncMs = performance.now() - started;
    await indexer.stop();
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM nft_transfers");
    if (rows[0].n !== logs.length) throw new Error(`indexed ${rows[0].n} transfers, the node has ${logs.length}`);
    const indexed = logs.length / (syncMs / 1000);
    const bare = logs.length / (bareMs / 1000);
    // What a paid provider bills: the calls per block with transfers, against the fewest that index them (the header
    // of each block with transfers, and per range one eth_getLogs and one eth_blockNumber).
    const byMethod: Record<string, number> = {};
    for (const call of proxy.calls) byMethod[call.method] = (byMethod[call.method] ?? 0) + 1;
    const blocks = new Set((logs as { blockNumber: string }[]).map((entry) => entry.blockNumber)).size;
    const ranges = byMethod.eth_getLogs ?? 0;
    const minimum = blocks + 2 * ranges;
    const methods = Object.entries(byMethod)
      .sort(([, a], [, b]) => b - a)
      .map(([method, n]) => `${method} ${n}`)
      .join(", ");
    return [
      {
        suite: "indexer",
        metric: `cold sync, ${logs.length.toLocaleString("en-US")} ERC-721 transfers`,
        value: indexed,
        unit: "transfers/s",
        reference: { label: "bare eth_getLogs", value: bare },
        ratio: indexed / bare,
        budget: { text: "≥ 0.5", met: indexed / bare >= 0.5 },
      },
      {
        suite: "indexer",
        metric: `RPC calls per block with transfers, cold sync (${blocks} blocks; ${methods})`,
        value: proxy.calls.length / blocks,
        unit: "calls",
        reference: { label: "the minimum", value: minimum / blocks },
        ratio: proxy.calls.length / minimum,
        budget: { text: "≤ 1.5", met: proxy.calls.length / minimum <= 1.5 },
      },
    ];
  } finally {
    counted.destroy();
    await proxy.close();
    await database.drop();
  }
}

async function http(options: {
  node: string;
  provider: JsonRpcProvider;
  token: AliceNFT;
  contract: string;
  holder: string;
  head: number;
  seconds: number;
  database: string;
  log: (message: string) => void;
}): Promise<Row[]> {
  const { provider, token, contract, holder, seconds, log } = options;
  const app = await startService({ RPC_URL_LOCALHOST: options.node, INDEXER_POLL_MS: "1000" });
  try {
    log("service: waiting for its index to reach the head");
    for (;;) {
      const response = await fetch(`${app.url}/inventory/localhost/${holder}`);
      if (response.ok && Number(response.headers.get("x-indexed-block")) >= options.head) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const rows: Row[] = [];
    const route = async (metric: string, path: string | (() => string), budget?: (p99: number) => Row["budget"]) => {
      log(`${metric}, ${CONNECTIONS} connections, ${seconds} s`);
      const result = await load({
        url: typeof path === "string" ? `${app.url}${path}` : app.url,
        connections: CONNECTIONS,
        seconds,
        ...(typeof path === "string" ? {} : { next: () => ({ path: path() }) }),
      });
      if (result.errors + result.non2xx > 0) throw new Error(`${metric}: ${result.errors} errors, ${result.non2xx} non-2xx`);
      rows.push({ suite: "indexer", metric: `${metric}, ${CONNECTIONS} conn`, value: result.requestsPerSecond, unit: "req/s" });
      rows.push({ suite: "indexer", metric: `${metric}, p99`, value: result.p99Ms, unit: "ms", budget: budget?.(result.p99Ms) });
    };
    const inventoryBudget = (p99: number) =>
      options.database === "PostgreSQL" ? { text: "≤ 50 ms", met: p99 <= 50 } : { text: "≤ 50 ms (on PostgreSQL)", met: true };
    await route("inventory, owner of 1,000 (first page of 100)", `/inventory/localhost/${holder}/${contract}`, inventoryBudget);
    await route("inventory, owner of 1,000 (limit=1000)", `/inventory/localhost/${holder}/${contract}?limit=1000`);
    await route("contracts of an owner", `/inventory/localhost/${holder}`);
    let id = 0;
    await route("owner of (ownerOf, ids vary)", () => `/localhost/${contract}/${id++ % TRANSFERS}`);
    await route("latest block", "/block/localhost/latest");

    log(`head lag: ${LAG_SAMPLES} transfers, each polled on the inventory route`);
    const lags: number[] = [];
    const sender = await provider.getSigner(1);
    const receivers = await Promise.all([2, 3].map(async (i) => (await provider.getSigner(i)).getAddress()));
    for (let i = 0; i < LAG_SAMPLES; i++) {
      // A random moment relative to the indexer's polling.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 1_000));
      const to = receivers[i % 2];
      const tokenId = BigInt(i);
      // The local node mines on arrival: the block exists once the send returns.
      const sent = await token.connect(sender).transferFrom(holder, to, tokenId);
      const mined = performance.now();
      await sent.wait();
      for (;;) {
        const text = await (await fetch(`${app.url}/inventory/localhost/${to}/${contract}?limit=1000`)).text();
        if (text.includes(`"id":${tokenId},`)) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      lags.push(performance.now() - mined);
    }
    const p95 = percentile(lags, 95);
    rows.push({
      suite: "indexer",
      metric: "head lag p95 (mined → inventory), 1 s polling",
      value: p95,
      unit: "ms",
      budget: { text: "≤ 1,500 ms", met: p95 <= 1_500 },
    });
    rows.push({ suite: "indexer", metric: "head lag p50", value: percentile(lags, 50), unit: "ms" });
    return rows;
  } finally {
    await app.stop();
  }
}

const CONSECUTIVE_IDS = 5_000;

export const consecutive: Suite = {
  name: "consecutive",
  method: [
    "The largest ERC-2309 range the index expands: one constructor minting 5,000 ids in one `ConsecutiveTransfer`, indexed on a fresh database as a live range (it also fills the change log).",
  ],
  async run({ log }) {
    const node = await startLocalNode();
    const provider = providerFor(node.url);
    const database = await createTestDatabase();
    const db = await database.open();
    try {
      const deployer = await provider.getSigner(0);
      await (await new ConsecutiveNFT__factory(deployer).deploy(await deployer.getAddress(), CONSECUTIVE_IDS)).waitForDeployment();
      const head = await provider.getBlockNumber();
      const { migrate } = await import("../server/db/migrate");
      await migrate(db);
      log(`indexing one ConsecutiveTransfer of ${CONSECUTIVE_IDS.toLocaleString("en-US")} ids`);
      const indexer = new NetworkIndexer({
        network: "localhost",
        provider,
        db,
        startBlock: head,
        contracts: [],
        pollMs: 1_000,
        maxRange: 1,
        maxConsecutive: CONSECUTIVE_IDS,
        logLagBlocks: 128,
        log: pino({ level: "error" }),
      });
      const done = new Promise<void>((resolve) => {
        indexer.onProgress = (cursor) => {
          if (cursor.block >= head) resolve();
        };
      });
      const started = performance.now();
      indexer.start();
      await done;
      const ms = performance.now() - started;
      await indexer.stop();
      const { rows } = await db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM nft_transfers)::int + (SELECT count(*) FROM nft_owners)::int
              + (SELECT count(*) FROM nft_changes)::int + (SELECT count(*) FROM nft_holdings)::int AS n`,
      );
      return [
        {
          suite: "consecutive",
          metric: `index a ${CONSECUTIVE_IDS.toLocaleString("en-US")}-id ConsecutiveTransfer`,
          value: ms,
          unit: "ms",
        },
        { suite: "consecutive", metric: "rows written (transfers, owners, change log, holdings)", value: rows[0].n, unit: "rows" },
      ];
    } finally {
      await db.close();
      await database.drop();
      provider.destroy();
      await node.stop();
    }
  },
};

export default indexer;
