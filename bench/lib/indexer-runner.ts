import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import readline from "node:readline";
import pino from "pino";
import type * as DatabaseModule from "../../server/db/database";
import type * as IndexerModule from "../../server/indexer/network-indexer";
import { readCursor } from "../../server/indexer/store/blocks";
import type { IndexerMetrics } from "../../server/metrics/metrics";
import { providerFor } from "../../support/chain";
import { moduleOf } from "./before";

/**
 * One cold sync of bench/suites/indexer.ts in a process of its own, so that its CPU time is the indexer's alone (and on
 * PGlite, the database's too, which runs inside it). The code is a tree's (this checkout or a ref's, see before.ts):
 *
 *   node -r ts-node/register/transpile-only bench/lib/indexer-runner.ts <tree> <rpc url> <head> <postgres URL | PGlite dir>
 *
 * on a database the tree's migrations made. It talks in lines: it prints `ready` once the database is open, starts
 * on `go`, prints `done <json>` (wall ms and its CPU µs from start to the commit of the range that reaches `head`) at once, then on
 * `count` stops, prints `counted <json>` (the transfers indexed and the JSON-RPC calls it sent to the node, by method) and
 * closes the database and exits when its stdin ends. The pause between `done` and `count` lets the bench read the
 * CPU times of the PostgreSQL backends that served it while they are still open.
 */
async function main() {
  const [tree, rpcUrl, headText, database] = process.argv.slice(2);
  const head = Number(headText);
  const { openDatabase } = moduleOf<typeof DatabaseModule>(tree, "server/db/database");
  // A tree from before the indexer's module was named network-indexer.ts has it as indexer.ts.
  const indexerModule = fs.existsSync(path.join(tree, "server/indexer/network-indexer.ts")) ? "network-indexer" : "indexer";
  const { NetworkIndexer } = moduleOf<typeof IndexerModule>(tree, `server/indexer/${indexerModule}`);

  const db = await openDatabase(
    database.startsWith("postgres") ? { kind: "postgres", url: database } : { kind: "pglite", dataDir: database },
  );
  await db.query("SELECT 1");
  // Its calls are counted as they are sent, whatever sends them: in this tree ethers' provider and the large reads of
  // server/chain/raw-rpc.ts go over the tree's undici (each call dispatched once, with its JSON-RPC payload whole),
  // in trees from 623e467 until then over Node's HTTP client (each request's body one write), the large reads of older
  // trees over fetch. Nothing else of this process speaks HTTP.
  const provider = providerFor(rpcUrl);
  const calls: Record<string, number> = {};
  const count = (body: unknown) => {
    const text = typeof body === "string" ? body : body instanceof Uint8Array ? Buffer.from(body).toString() : undefined;
    if (!text?.startsWith("{") && !text?.startsWith("[")) return;
    const payload = JSON.parse(text) as { method: string } | { method: string }[];
    for (const call of Array.isArray(payload) ? payload : [payload]) calls[call.method] = (calls[call.method] ?? 0) + 1;
  };
  for (const method of ["write", "end"] as const) {
    const original = http.ClientRequest.prototype[method] as (...args: unknown[]) => unknown;
    http.ClientRequest.prototype[method] = function (this: http.ClientRequest, ...args: unknown[]) {
      if (typeof args[0] !== "function") count(args[0]);
      return original.apply(this, args);
    } as never;
  }
  // The Agent's dispatch hands the same options to one of its clients' dispatch: each is counted once.
  const dispatched = new WeakSet<object>();
  const undici = moduleOf<typeof import("undici")>(tree, "node_modules/undici");
  for (const Dispatcher of [undici.Agent, undici.Client]) {
    const original = Dispatcher.prototype.dispatch;
    Dispatcher.prototype.dispatch = function (this: InstanceType<typeof Dispatcher>, options, handler) {
      if (!dispatched.has(options)) {
        dispatched.add(options);
        count(options.body);
      }
      return original.call(this, options, handler);
    };
  }
  const fetchRpc = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    count(init?.body);
    return fetchRpc(input, init);
  };
  // The indexer reports each range once its transaction committed, through its metrics hook (every tree the bench runs
  // has it): the range that reaches the head ends the sync. Reading the cursor in the database every 10 ms instead
  // charged the bench's own reads to the sync: about 27 ms of this process's CPU a second, and its backend's beside.
  let headReached!: () => void;
  const reached = new Promise<void>((resolve) => (headReached = resolve));
  const metrics: IndexerMetrics = {
    range: (_network, range) => {
      if (range.to >= head) headReached();
    },
    atHead() {},
    skippedRanges() {},
    standby() {},
    metadataMarks() {},
    diverged() {},
  };
  const indexer = new NetworkIndexer({
    network: "localhost",
    provider,
    db,
    startBlock: 0,
    contracts: [],
    pollMs: 1_000,
    maxRange: 10_000,
    maxConsecutive: 5_000,
    maxConsecutivePerBlock: 50_000,
    logLagBlocks: 128,
    fullDiskPauseMs: 60_000,
    log: pino({ level: "warn" }),
    metrics,
  });

  const lines = readline.createInterface({ input: process.stdin });
  const commands = lines[Symbol.asyncIterator]();
  const expect = async (command: string) => {
    const line = await commands.next();
    if (line.done || line.value.trim() !== command) throw new Error(`indexer-runner: expected ${command}, got ${line.value}`);
  };
  console.log("ready");
  await expect("go");

  const cpu = process.cpuUsage();
  const started = performance.now();
  indexer.start();
  await reached;
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  console.log(`done ${JSON.stringify({ ms, cpuMicros: user + system })}`);
  // What the hook said, as the database has it (read after the measured time).
  const cursor = await readCursor(db, "localhost");
  if (!cursor || cursor.block < head)
    throw new Error(`indexer-runner: the range to ${head} was reported, the cursor is at ${cursor?.block}`);

  await expect("count");
  await indexer.stop();
  // Both standards' transfers, in trees that have ERC-1155's table.
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM nft_transfers");
  const { rows: tables } = await db.query<{ erc1155: boolean }>("SELECT to_regclass('nft_1155_transfers') IS NOT NULL AS erc1155");
  const erc1155 = tables[0].erc1155 ? (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM nft_1155_transfers")).rows[0].n : 0;
  console.log(`counted ${JSON.stringify({ transfers: rows[0].n + erc1155, calls })}`);
  while (!(await commands.next()).done);
  await db.close();
  provider.destroy();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
