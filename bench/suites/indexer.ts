import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { Wallet, type JsonRpcProvider } from "ethers";
import { rawRpc } from "../../server/chain/raw-rpc";
import { TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from "../../server/indexer/transfers";
import { createTestDatabase } from "../../support/database";
import { AliceNFT__factory, TransferFlood1155__factory, type AliceNFT } from "../../typechain-types";
import { DEFAULT_BEFORE_REF, moduleOf, withBeforeTree } from "../lib/before";
import { processCpuMs, ServerCpu } from "../lib/cpu";
import { expectOk } from "../lib/answers";
import { stopIfInterrupted } from "../lib/interrupt";
import { untilIndexed } from "../lib/indexed";
import { bareNodeMs, productionBuild, startupOnce, type Startup } from "../lib/indexer-startup";
import { CONNECTIONS, load, percentile } from "../lib/load";
import { pageAgainstLatestBlock } from "../lib/page-budgets";
import { withLocalChain } from "../lib/local-chain";
import { startService } from "../lib/service";
import type { Row, Suite } from "../lib/suite";

/** Transfers minted, rounds of the cold sync comparison (an odd count: medians of runs) and samples of the head lag. */
const FULL = { transfers: 100_000, rounds: 3, lagSamples: 40, tokenMoves: 100, starts: 5 };
const SMOKE = { transfers: 2_000, rounds: 1, lagSamples: 3, tokenMoves: 10, starts: 1 };
type Sizes = typeof FULL;
const PER_TX = 500;
const HOLDER_TOKENS = 1_000;
/** The holder's token whose history is read: moved to another address and back, `tokenMoves` times in all. */
const MOVED_TOKEN = BigInt(HOLDER_TOKENS - 1);
/** The indexer's widest `eth_getLogs` range in the cold sync, and the bare loop's. */
const MAX_RANGE = 10_000;
/** The budgets of the cold sync: its rate against bare eth_getLogs, and its server CPU per ERC-721 transfer on PostgreSQL. */
const SYNC_RATE_SHARE = 0.9;
const CPU_PER_TRANSFER_MICROS = 25;
/** ERC-1155 transfers (single and batch) may cost at most this multiple of an ERC-721 transfer's server CPU. */
const ERC1155_CPU_MULTIPLE = 1.5;
/** Ids of each TransferBatch of the batch sync. */
const PER_BATCH = 10;
/** From the spawn of the production build's standalone indexer to its first range written. */
const STARTUP_BUDGET_MS = 500;
/** The service's own cold sync of every transfer, before its routes are loaded: far more than one block to index. */
const SERVICE_SYNC_TIMEOUT_MS = 600_000;

const indexer: Suite = {
  method: [
    "A cold sync of 100,000 ERC-721 transfers beside a bare loop of `eth_getLogs` over the same blocks on the same node (the indexer cannot be faster than the node hands out logs), each sync on a fresh database in a process of its own (`bench/lib/indexer-runner.ts`).",
    "The same cold sync with the code of the layout before the compact tables (`0c9097d`, or `--before <ref>`: a worktree of it, its migrations making its database) in the same run: three rounds, in turn bare, this tree, the ref and this tree, the ref, bare; the figures are medians of three.",
    "Server CPU per transfer: the indexer process's own CPU time (`process.cpuUsage()`, from its start to the commit of the range that reaches the head, which the indexer reports through its metrics hook: the bench sends no statement of its own meanwhile) plus, on PostgreSQL, the CPU times (utime + stime in /proc/<pid>/stat) of the client backends of its database in `pg_stat_activity`, sampled every 200 ms and once more at the head before it disconnects; PostgreSQL's background processes (WAL writer, checkpointer, autovacuum) are not counted, being shared with other users of the server. On PGlite the database runs inside the indexer's process: its CPU is the total.",
    "Its calls to the node are counted as its provider sends them, per block with transfers, against the fewest that index them: the header of each block with transfers, and per range one `eth_getLogs` and one `eth_blockNumber`.",
    "The lag from a mined block to the inventory route showing it, with the indexer polling every second.",
    "The data routes at 32 connections, the service in its own process and the load generator beside it.",
    "The start of the standalone indexer from the production build (`npm run build` once, or a current `dist/`): `node dist/server/indexer/main.js` spawned with NODE_ENV=production on a migrated database with an empty index, timed from the spawn to its first range written (median of 5 starts, each on a fresh database), beside a bare `node -e 0` spawned to its exit; its parts come from its own log lines at debug level (`bench/lib/indexer-startup.ts`).",
    "ERC-1155 cold syncs beside the ERC-721 one, on chains of their own laid out alike (500 transfers a block, emitted by `TransferFlood1155`): as many `TransferSingle` mints, and as many ids in `TransferBatch` mints of 10 ids; their server CPU per transfer is held to the ERC-721 sync's of the same run.",
    "The data pages (an inventory, a contract's holders, an owner's history and a token's history, pages of 100) are held to the latest-block route measured in the same run before and after them (the mean of both): on PostgreSQL each must answer at least 0.25× its requests per second with a p99 at most 4× its p99.",
    "Beside each, its server CPU per request, read from /proc over its load: the service process's (held beside the latest block's) and, on PostgreSQL, its backends' (the latest block reads none): where a page's cost goes.",
  ],
  async run({ seconds, log, database, beforeRef, smoke }) {
    const sizes = smoke ? SMOKE : FULL;
    const TRANSFERS = sizes.transfers;
    return withLocalChain(async ({ node, provider }) => {
      const rows: Row[] = [];
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
      log(`moving token ${MOVED_TOKEN} ${sizes.tokenMoves} times (a token history of as many transfers)`);
      const other = await provider.getSigner(4);
      for (let move = 0; move < sizes.tokenMoves; move += 2) {
        await (await token.connect(holder).transferFrom(holderAddress, await other.getAddress(), MOVED_TOKEN)).wait();
        await (await token.connect(other).transferFrom(await other.getAddress(), holderAddress, MOVED_TOKEN)).wait();
      }
      const head = await provider.getBlockNumber();

      rows.push(...(await startup({ nodeUrl: node.url, starts: sizes.starts, log })));
      const erc721 = await coldSync({
        provider,
        nodeUrl: node.url,
        nodePid: node.process.pid!,
        head,
        beforeRef,
        smoke,
        rounds: sizes.rounds,
        log,
      });
      rows.push(...erc721.rows);
      rows.push(...(await erc1155Syncs({ transfers: TRANSFERS, rounds: sizes.rounds, erc721Cpu: erc721.cpuPerTransfer, log })));
      rows.push(...(await http({ node: node.url, provider, token, contract, holder: holderAddress, head, seconds, log, database, sizes })));
      return rows;
    });
  },
};

/**
 * The code whose index layout the cold sync's CPU is compared with unless `--before <ref>` names another: main
 * before the compact layout (addresses and hashes as hex text, 0260/0261 not there yet).
 */
export const INDEXER_BEFORE_REF = "0c9097d732a70c0f98c7e545ce062662c2a14e2c";

const ROOT = path.resolve(__dirname, "..", "..");

interface Sync {
  ms: number;
  /** The indexer process's CPU (user + system) from its start to the cursor at the head. */
  indexerMicros: number;
  /** Its PostgreSQL backends' CPU over the same time; undefined on PGlite (inside the indexer's process). */
  databaseMicros?: number;
  /** The node's CPU over the same time (a diagnostic, in the log: it serves the logs and headers). */
  nodeMicros: number;
  transfers: number;
  calls: Record<string, number>;
}

/** The median of `values` (the mean of the middle two for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Bare `eth_getLogs` of the transfers (logs of `topic`) in blocks 0–head, in ranges as wide as the indexer's widest; the logs. */
async function bareLogs(
  provider: JsonRpcProvider,
  head: number,
  topic = TRANSFER_TOPIC,
): Promise<{ ms: number; logs: { blockNumber: string }[] }> {
  const started = performance.now();
  const logs: { blockNumber: string }[] = [];
  for (let from = 0; from <= head; from += MAX_RANGE) {
    const to = Math.min(head, from + MAX_RANGE - 1);
    logs.push(
      ...(await rawRpc<{ blockNumber: string }[]>(provider, "eth_getLogs", [
        { fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}`, topics: [topic] },
      ])),
    );
  }
  return { ms: performance.now() - started, logs };
}

/**
 * A cold sync to `head` with the code of `tree` (this checkout or a ref's) on a fresh database its migrations made,
 * in a process of its own (lib/indexer-runner.ts): its wall time, its CPU and, on PostgreSQL, the CPU of the backends
 * serving its database (from /proc, sampled every 200 ms while it runs and once more at the head, before it
 * disconnects).
 */
async function syncOnce(tree: string, nodeUrl: string, nodePid: number, head: number): Promise<Sync> {
  const { migrate } = moduleOf<typeof import("../../server/db/migrate")>(tree, "server/db/migrate");
  let target: string;
  let cleanup: () => Promise<void>;
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    const db = await database.open();
    await migrate(db);
    await db.close();
    target = (database.config as { url: string }).url;
    cleanup = () => database.drop();
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-indexer-"));
    const { openPglite } = moduleOf<typeof import("../../server/db/pglite")>(tree, "server/db/pglite");
    const db = await openPglite(dir);
    await migrate(db);
    await db.close();
    target = dir;
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(__dirname, "..", "lib", "indexer-runner.ts"), tree, nodeUrl, String(head), target],
    { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const forget = stopIfInterrupted(async () => {
    child.kill("SIGKILL");
    await exited;
    await cleanup();
  });
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (word: string): Promise<string> => {
    const line = await lines.next();
    if (line.done || !line.value.startsWith(word))
      throw new Error(`indexer-runner: expected ${word}, got ${line.done ? "its exit" : line.value}`);
    return line.value.slice(word.length).trim();
  };
  const cpu = process.env.DATABASE_URL ? await ServerCpu.open(child.pid!, target) : undefined;
  try {
    await next("ready");
    const start = await cpu?.sample();
    // The last CPU time seen of each backend: one that closes during the sync keeps what it used until then.
    const latest = new Map<number, number>(start?.backends);
    let running = true;
    const poll = (async () => {
      while (cpu && running) {
        for (const [pid, ms] of (await cpu.sample()).backends) latest.set(pid, ms);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const nodeStart = processCpuMs(nodePid)!;
    child.stdin!.write("go\n");
    const done = JSON.parse(await next("done")) as { ms: number; cpuMicros: number };
    const nodeMicros = (processCpuMs(nodePid)! - nodeStart) * 1000;
    running = false;
    await poll;
    let databaseMicros: number | undefined;
    if (cpu) {
      for (const [pid, ms] of (await cpu.sample()).backends) latest.set(pid, ms);
      databaseMicros = 0;
      for (const [pid, ms] of latest) databaseMicros += (ms - (start!.backends.get(pid) ?? 0)) * 1000;
    }
    child.stdin!.write("count\n");
    const counted = JSON.parse(await next("counted")) as { transfers: number; calls: Record<string, number> };
    child.stdin!.end();
    const code = await exited;
    if (code !== 0) throw new Error(`indexer-runner exited with ${code}`);
    return { ms: done.ms, indexerMicros: done.cpuMicros, databaseMicros, nodeMicros, ...counted };
  } finally {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    await cpu?.close();
    await cleanup();
    forget();
  }
}

/** The cold syncs of this tree and of the ref beside bare `eth_getLogs`, `rounds` times each (each round runs the three once). */
async function coldSync({
  provider,
  nodeUrl,
  nodePid,
  head,
  beforeRef,
  smoke,
  rounds: ROUNDS,
  log,
}: {
  provider: JsonRpcProvider;
  nodeUrl: string;
  nodePid: number;
  head: number;
  beforeRef: string;
  smoke: boolean;
  rounds: number;
  log: (message: string) => void;
}): Promise<{ rows: Row[]; cpuPerTransfer: number }> {
  const ref = beforeRef === DEFAULT_BEFORE_REF ? INDEXER_BEFORE_REF : beforeRef;
  const short = ref.slice(0, 7);
  // The budget is the text layout's CPU; another ref is an A/B of two trees, with no budget.
  const textLayout = ref === INDEXER_BEFORE_REF;
  return withBeforeTree(ref, { log, smoke }, async (before) => {
    const bare: number[] = [];
    const bareNode: number[] = [];
    const seconds = (micros: number) => (micros / 1e6).toFixed(1);
    const logSync = (sync: Sync) =>
      log(
        `  ${(sync.ms / 1000).toFixed(1)} s; CPU: the indexer ${seconds(sync.indexerMicros)} s, ${sync.databaseMicros === undefined ? "PGlite inside it" : `its backends ${seconds(sync.databaseMicros)} s`}, the node ${seconds(sync.nodeMicros)} s`,
      );
    const syncs: { tree: Sync[]; ref: Sync[] } = { tree: [], ref: [] };
    let expected: { blockNumber: string }[] | undefined;
    const run = {
      bare: async () => {
        log(`bare eth_getLogs, blocks 0–${head}`);
        const nodeStart = processCpuMs(nodePid)!;
        const { ms, logs } = await bareLogs(provider, head);
        bareNode.push(processCpuMs(nodePid)! - nodeStart);
        log(`  ${(ms / 1000).toFixed(2)} s; the node ${(bareNode.at(-1)! / 1000).toFixed(1)} s CPU`);
        if (expected && logs.length !== expected.length) throw new Error(`eth_getLogs gave ${logs.length} logs, before ${expected.length}`);
        expected = logs;
        bare.push(ms);
      },
      tree: async () => {
        log("cold sync, this tree, on a fresh database, in its own process");
        syncs.tree.push(await syncOnce(ROOT, nodeUrl, nodePid, head));
        logSync(syncs.tree.at(-1)!);
      },
      ref: async () => {
        log(`cold sync, the code of ${short}, on a fresh database its migrations made, in its own process`);
        syncs.ref.push(await syncOnce(before, nodeUrl, nodePid, head));
        logSync(syncs.ref.at(-1)!);
      },
    };
    for (let round = 0; round < ROUNDS; round++) {
      // bare, tree, ref, tree, ref, bare, …: each side takes turns at the start and the end of the comparison.
      for (const side of round % 2 === 0 ? (["bare", "tree", "ref"] as const) : (["tree", "ref", "bare"] as const)) await run[side]();
    }
    const transfers = expected!.length;
    for (const [side, list] of Object.entries(syncs)) {
      for (const sync of list) {
        if (sync.transfers !== transfers) throw new Error(`${side}: indexed ${sync.transfers} transfers, the node has ${transfers}`);
      }
    }
    const perSecond = (ms: number) => transfers / (ms / 1000);
    const bareRate = perSecond(median(bare));
    const treeRate = perSecond(median(syncs.tree.map((s) => s.ms)));
    const refRate = perSecond(median(syncs.ref.map((s) => s.ms)));
    const perTransfer = (list: Sync[], of: (sync: Sync) => number) => median(list.map(of)) / transfers;
    const cpu = { tree: perTransfer(syncs.tree, serverMicros), ref: perTransfer(syncs.ref, serverMicros) };
    const onPostgres = Boolean(process.env.DATABASE_URL);
    const count = transfers.toLocaleString("en-US");
    const rows: Row[] = [
      {
        suite: "indexer",
        metric: `cold sync, ${count} ERC-721 transfers (median of ${ROUNDS})`,
        value: treeRate,
        unit: "transfers/s",
        reference: { label: "bare eth_getLogs", value: bareRate },
        ratio: treeRate / bareRate,
        budget: { text: `≥ ${SYNC_RATE_SHARE}`, met: treeRate / bareRate >= SYNC_RATE_SHARE },
      },
      {
        suite: "indexer",
        metric: `cold sync with the code of ${short}${textLayout ? " (text layout)" : ""}, same blocks`,
        value: refRate,
        unit: "transfers/s",
        reference: { label: "bare eth_getLogs", value: bareRate },
        ratio: refRate / bareRate,
      },
      {
        suite: "indexer",
        metric: onPostgres
          ? "server CPU per transfer, cold sync (indexer + PostgreSQL backends)"
          : "server CPU per transfer, cold sync (the indexer's process, PGlite inside it)",
        value: cpu.tree,
        unit: "µs",
        reference: { label: short, value: cpu.ref },
        ratio: cpu.tree / cpu.ref,
        ...(textLayout ? { budget: { text: "≤ 0.35", met: cpu.tree / cpu.ref <= 0.35 } } : {}),
      },
    ];
    rows.push({
      suite: "indexer",
      metric: "server CPU per ERC-721 transfer, cold sync, against its budget",
      value: cpu.tree,
      unit: "µs",
      budget: {
        text: `≤ ${CPU_PER_TRANSFER_MICROS} µs${onPostgres ? "" : " (on PostgreSQL)"}`,
        met: !onPostgres || cpu.tree <= CPU_PER_TRANSFER_MICROS,
      },
    });
    if (onPostgres) {
      for (const [label, of] of [
        ["indexer process", (sync: Sync) => sync.indexerMicros],
        ["PostgreSQL backends", (sync: Sync) => sync.databaseMicros!],
      ] as const) {
        const mine = perTransfer(syncs.tree, of);
        const theirs = perTransfer(syncs.ref, of);
        rows.push({
          suite: "indexer",
          metric: `  of which the ${label}`,
          value: mine,
          unit: "µs",
          reference: { label: short, value: theirs },
          ratio: mine / theirs,
        });
      }
    }
    // What a paid provider bills: the calls per block with transfers, against the fewest that index them (the header
    // of each block with transfers, and per range one eth_getLogs and one eth_blockNumber).
    const byMethod = syncs.tree[0].calls;
    const calls = Object.values(byMethod).reduce((a, b) => a + b, 0);
    const blocks = new Set(expected!.map((entry) => entry.blockNumber)).size;
    const ranges = byMethod.eth_getLogs ?? 0;
    const minimum = blocks + 2 * ranges;
    const methods = Object.entries(byMethod)
      .sort(([, a], [, b]) => b - a)
      .map(([method, n]) => `${method} ${n}`)
      .join(", ");
    rows.push({
      suite: "indexer",
      metric: `RPC calls per block with transfers, cold sync (${blocks} blocks; ${methods})`,
      value: calls / blocks,
      unit: "calls",
      reference: { label: "the minimum", value: minimum / blocks },
      ratio: calls / minimum,
      budget: { text: "≤ 1.5", met: calls / minimum <= 1.5 },
    });
    return { rows, cpuPerTransfer: cpu.tree };
  });
}

/** A sync's server CPU: the indexer's and, on PostgreSQL, its backends'. */
const serverMicros = (sync: Sync) => sync.indexerMicros + (sync.databaseMicros ?? 0);

/**
 * The standalone indexer of the production build, started `starts` times on a fresh database with the node at
 * `nodeUrl`: the median of its spawn to its first range written, and of each part, beside a bare Node process.
 */
async function startup({ nodeUrl, starts, log }: { nodeUrl: string; starts: number; log: (message: string) => void }): Promise<Row[]> {
  productionBuild(log);
  const runs: Startup[] = [];
  const bare: number[] = [];
  for (let i = 0; i < starts; i++) {
    bare.push(bareNodeMs());
    runs.push(await startupOnce(nodeUrl, "localhost"));
    const { total, transfers, ...parts } = runs.at(-1)!;
    const list = Object.entries(parts)
      .map(([part, ms]) => `${part} ${ms.toFixed(0)}`)
      .join(", ");
    log(
      `  start ${i + 1}: ${total.toFixed(0)} ms to the first range written (${transfers} transfers; ${list} ms); bare node ${bare.at(-1)!.toFixed(0)} ms`,
    );
  }
  const of = (part: keyof Startup) => median(runs.map((run) => run[part]));
  const total = of("total");
  const bareMs = median(bare);
  const rows: Row[] = [
    {
      suite: "indexer",
      metric: `standalone indexer (production build), spawn to first range written (${of("transfers")} transfers; median of ${starts})`,
      value: total,
      unit: "ms",
      reference: { label: "bare node -e 0", value: bareMs },
      ratio: total / bareMs,
      budget: { text: `≤ ${STARTUP_BUDGET_MS} ms`, met: total <= STARTUP_BUDGET_MS },
    },
  ];
  const parts: Array<[keyof Startup, string]> = [
    ["modules", "Node's start and the modules loaded"],
    ["config", "configuration read"],
    ["database", "database connected, migrations checked"],
    ["lock", "writer's connection and lock"],
    ["check", "cursor read and head asked (the provider's first call)"],
    ["fetch", "first range's headers and eth_getLogs, decoded"],
    ["write", "first range written"],
  ];
  for (const [part, label] of parts) rows.push({ suite: "indexer", metric: `  of which ${label} (median)`, value: of(part), unit: "ms" });
  return rows;
}

/**
 * Cold syncs of ERC-1155 transfers, `TransferSingle` and `TransferBatch` each on a chain of its own with as many
 * transfers as the ERC-721 sync, laid out alike (PER_TX transfers a block): their server CPU per transfer against the
 * ERC-721 sync's (`erc721Cpu`, the median of the same run), and their rate against bare eth_getLogs of their logs.
 */
async function erc1155Syncs({
  transfers,
  rounds,
  erc721Cpu,
  log,
}: {
  transfers: number;
  rounds: number;
  erc721Cpu: number;
  log: (message: string) => void;
}): Promise<Row[]> {
  const onPostgres = Boolean(process.env.DATABASE_URL);
  const rows: Row[] = [];
  for (const kind of ["single", "batch"] as const) {
    await withLocalChain(async ({ node, provider }) => {
      const flood = await new TransferFlood1155__factory(await provider.getSigner(0)).deploy();
      const label = kind === "single" ? "TransferSingle" : `TransferBatch of ${PER_BATCH} ids`;
      log(`ERC-1155 ${label}: ${transfers.toLocaleString("en-US")} transfers, ${PER_TX} a block`);
      for (let first = 0; first < transfers; first += PER_TX) {
        const to = Wallet.createRandom().address;
        const sent = kind === "single" ? flood.floodSingle(to, first, PER_TX) : flood.floodBatch(to, first, PER_TX / PER_BATCH, PER_BATCH);
        await (await sent).wait();
      }
      const head = await provider.getBlockNumber();
      const topic = kind === "single" ? TRANSFER_SINGLE_TOPIC : TRANSFER_BATCH_TOPIC;
      const bare: number[] = [];
      const syncs: Sync[] = [];
      for (let round = 0; round < rounds; round++) {
        bare.push((await bareLogs(provider, head, topic)).ms);
        syncs.push(await syncOnce(ROOT, node.url, node.process.pid!, head));
        const sync = syncs.at(-1)!;
        if (sync.transfers !== transfers)
          throw new Error(`ERC-1155 ${kind}: indexed ${sync.transfers} transfers, the node has ${transfers}`);
        log(
          `  ${(sync.ms / 1000).toFixed(1)} s, ${(serverMicros(sync) / transfers).toFixed(1)} µs of server CPU a transfer; bare ${(bare.at(-1)! / 1000).toFixed(2)} s`,
        );
      }
      const cpu = median(syncs.map(serverMicros)) / transfers;
      const rate = transfers / (median(syncs.map((sync) => sync.ms)) / 1000);
      const bareRate = transfers / (median(bare) / 1000);
      rows.push(
        {
          suite: "indexer",
          metric: `server CPU per transfer, cold sync, ERC-1155 ${label}`,
          value: cpu,
          unit: "µs",
          reference: { label: "ERC-721", value: erc721Cpu },
          ratio: cpu / erc721Cpu,
          budget: {
            text: `≤ ${ERC1155_CPU_MULTIPLE}${onPostgres ? "" : " (on PostgreSQL)"}`,
            met: !onPostgres || cpu / erc721Cpu <= ERC1155_CPU_MULTIPLE,
          },
        },
        {
          suite: "indexer",
          metric: `cold sync, ERC-1155 ${label} (median of ${rounds})`,
          value: rate,
          unit: "transfers/s",
          reference: { label: "bare eth_getLogs", value: bareRate },
          ratio: rate / bareRate,
        },
      );
    });
  }
  return rows;
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
  sizes: Sizes;
}): Promise<Row[]> {
  const { provider, token, contract, holder, seconds, log } = options;
  const { transfers: TRANSFERS, lagSamples: LAG_SAMPLES } = options.sizes;
  const app = await startService({ RPC_URL_LOCALHOST: options.node, INDEXER_POLL_MS: "1000" });
  const cpu = await ServerCpu.forService(app);
  try {
    log("service: waiting for its index to reach the head");
    await untilIndexed(app.url, `/inventory/localhost/${holder}`, options.head, SERVICE_SYNC_TIMEOUT_MS);

    const rows: Row[] = [];
    /** The server CPU per request of a load (µs): the service's, and its PostgreSQL backends'. */
    const perRequest = async (metric: string, path: string) => {
      const start = await cpu.sample();
      const result = await measure(metric, path);
      const used = ServerCpu.between(start, await cpu.sample());
      const requests = result.requestsPerSecond * seconds;
      return { result, service: (used.service * 1000) / requests, database: (used.database * 1000) / requests };
    };
    const measure = (metric: string, path: string | (() => string)) => {
      log(`${metric}, ${CONNECTIONS} connections, ${seconds} s`);
      return load({
        what: metric,
        url: typeof path === "string" ? `${app.url}${path}` : app.url,
        connections: CONNECTIONS,
        seconds,
        ...(typeof path === "string" ? {} : { next: () => ({ path: path() }) }),
      });
    };
    const route = async (metric: string, path: string | (() => string)) => {
      const result = await measure(metric, path);
      rows.push({ suite: "indexer", metric: `${metric}, ${CONNECTIONS} conn`, value: result.requestsPerSecond, unit: "req/s" });
      rows.push({ suite: "indexer", metric: `${metric}, p99`, value: result.p99Ms, unit: "ms" });
    };
    // The floor the data pages are held to: the latest-block route, before and after them (their mean), in this run.
    const floorLoads = [await perRequest("latest block", "/block/localhost/latest")];
    const pages: Array<[string, Awaited<ReturnType<typeof perRequest>>]> = [];
    for (const [metric, path] of [
      ["inventory, owner of 1,000 (first page of 100)", `/inventory/localhost/${holder}/${contract}`],
      ["holders (first page of 100)", `/holders/localhost/${contract}`],
      ["history of an owner (first page of 100)", `/transfers/localhost/owner/${holder}`],
      [`history of a token moved ${options.sizes.tokenMoves} times (first page of 100)`, `/transfers/localhost/${contract}/${MOVED_TOKEN}`],
    ] as const) {
      pages.push([metric, await perRequest(metric, path)]);
    }
    floorLoads.push(await perRequest("latest block, again", "/block/localhost/latest"));
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const floor = {
      rate: mean(floorLoads.map(({ result }) => result.requestsPerSecond)),
      p99: mean(floorLoads.map(({ result }) => result.p99Ms)),
      service: mean(floorLoads.map(({ service }) => service)),
    };
    rows.push(
      { suite: "indexer", metric: `latest block (mean of 2), ${CONNECTIONS} conn`, value: floor.rate, unit: "req/s" },
      { suite: "indexer", metric: "latest block (mean of 2), p99", value: floor.p99, unit: "ms" },
      { suite: "indexer", metric: "latest block, server CPU per request: the service", value: floor.service, unit: "µs" },
    );
    const onPostgres = options.database === "PostgreSQL";
    for (const [metric, { result, service, database }] of pages) {
      rows.push(
        ...pageAgainstLatestBlock({
          suite: "indexer",
          rateMetric: `${metric}, ${CONNECTIONS} conn`,
          p99Metric: `${metric}, p99`,
          page: { rps: result.requestsPerSecond, p99: result.p99Ms },
          floor: { rps: floor.rate, p99: floor.p99 },
          judged: onPostgres,
        }),
        // Where a page's cost goes: the service's CPU beside the latest block's, and the database's (none for that route).
        {
          suite: "indexer",
          metric: `${metric}, server CPU per request: the service`,
          value: service,
          unit: "µs",
          reference: { label: "latest block", value: floor.service },
          ratio: service / floor.service,
        },
        ...(onPostgres
          ? [{ suite: "indexer", metric: `${metric}, server CPU per request: PostgreSQL backends`, value: database, unit: "µs" }]
          : []),
      );
    }
    await route("inventory, owner of 1,000 (limit=1000)", `/inventory/localhost/${holder}/${contract}?limit=1000`);
    await route("contracts of an owner", `/inventory/localhost/${holder}`);
    let id = 0;
    await route("owner of (ownerOf, ids vary)", () => `/localhost/${contract}/${id++ % TRANSFERS}`);

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
        const inventory = `/inventory/localhost/${to}/${contract}?limit=1000`;
        const text = await (await expectOk(`GET ${inventory}`, await fetch(`${app.url}${inventory}`))).text();
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
    await cpu.close();
    await app.stop();
  }
}

export default indexer;
