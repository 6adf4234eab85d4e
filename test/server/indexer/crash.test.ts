import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { settingDefaults } from "../../../server/config";
import { openDatabase, type Database } from "../../../server/db/database";
import { LOCK_RETRY_MS } from "../../../server/indexer/network-indexer";
import { closesAfterEach } from "../../helpers/closes-after-each";
import { createTestDatabase, usingPostgres, type TestDatabase } from "../../helpers/database";
import { expectIndexMatchesChain } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";

/** `npm run indexer` as a real child process, with its log lines (pino JSON) collected. */
class IndexerProcess {
  readonly child: ChildProcess;
  readonly lines: Array<{ msg: string; time: number; to?: number; block?: number; url?: string }> = [];
  private readonly waiters: Array<() => void> = [];
  readonly exited: Promise<void>;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "server/indexer/main.ts"], {
      // A free metrics port each: children run side by side, beside other suites' listeners.
      env: { PATH: process.env.PATH, LOG_LEVEL: "debug", LOCAL_CHAIN: "false", INDEXER_POLL_MS: "50", METRICS_PORT: "0", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buffer = "";
    this.child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        try {
          this.lines.push(JSON.parse(line));
        } catch {
          continue;
        }
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
    this.exited = new Promise((resolve) => this.child.once("exit", () => resolve()));
  }

  count(msg: string): number {
    return this.lines.filter((line) => line.msg === msg).length;
  }

  /** Resolves when `done` holds over the lines seen so far. */
  async until(done: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`indexer process: gave up waiting for ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}

describe("indexer process: crashes and takeover", function () {
  this.timeout(240_000);
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const alice = await chain.deployAlice();
    const holders = await Promise.all([1, 2, 3, 4].map((i) => chain.signer(i)));
    // 120 blocks of mints, then transfers of the same tokens: a token's owner depends on every range being
    // applied once and in order.
    const ids: bigint[] = [];
    for (let block = 0; block < 80; block++) {
      const first = BigInt(block * 25);
      ids.push(...Array.from({ length: 25 }, (_, i) => first + BigInt(i)));
      await (await alice.mintRange(await holders[block % 4].getAddress(), first, 25)).wait();
    }
    for (let block = 0; block < 40; block++) {
      const id = BigInt(block * 25 + 3);
      const from = holders[block % 4];
      await (await alice.connect(from).transferFrom(await from.getAddress(), await holders[(block + 1) % 4].getAddress(), id)).wait();
    }
    return { alice, ids };
  });
  const closesAfterTest = closesAfterEach();

  function indexer(database: { DATABASE_URL?: string; DATA_DIR?: string }, env: Record<string, string> = {}) {
    const child = new IndexerProcess({ RPC_URL_LOCALHOST: suite().chain.url, INDEXER_MAX_RANGE: "4", ...database, ...env });
    closesAfterTest({ close: () => child.kill() });
    return child;
  }
  const ranges = (child: IndexerProcess) => child.count("indexer: range written");
  const reached = (child: IndexerProcess, block: number) =>
    child.lines.some(
      (line) =>
        (line.msg === "indexer: range written" && line.to === block) || (line.msg === "indexer: at the head" && line.block === block),
    );

  async function killRepeatedly(database: { DATABASE_URL?: string; DATA_DIR?: string }, head: number) {
    // SIGKILL at random moments mid-sync, each time after the child has written at least one more range.
    let midSync = 0;
    for (let round = 0; round < 5; round++) {
      const child = indexer(database);
      const goal = 1 + Math.floor(Math.random() * 4);
      await child.until(() => ranges(child) >= goal || reached(child, head), `range ${goal}`);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
      await child.kill();
      if (!reached(child, head)) midSync++;
    }
    expect(midSync, "kills that hit the sync before the head").to.be.at.least(3);
    const last = indexer(database);
    await last.until(() => last.lines.some((line) => line.msg === "indexer: at the head" && line.block === head), "the head");
    await last.kill("SIGTERM");
  }

  async function expectComplete(db: Database, head: number) {
    const { chain, alice, ids } = suite();
    const { rows } = await db.query<{ block_number: string }>("SELECT block_number FROM indexer_cursors WHERE network = 'localhost'");
    expect(Number(rows[0].block_number)).to.equal(head);
    await expectIndexMatchesChain(db, chain.provider, "localhost", await alice.getAddress(), ids);
  }

  it("loses and duplicates nothing when killed with SIGKILL mid-sync, again and again", async function () {
    const { chain } = suite();
    const head = await chain.provider.getBlockNumber();
    if (usingPostgres()) {
      const database = await createTestDatabase();
      try {
        await killRepeatedly({ DATABASE_URL: (database.config as { url: string }).url }, head);
        await expectComplete(await database.open(), head);
      } finally {
        await database.drop();
      }
    } else {
      // PGlite lives in one process at a time: the test opens it only once every child is gone.
      const dir = mkdtempSync(path.join(os.tmpdir(), "indexer-crash-"));
      try {
        await killRepeatedly({ DATA_DIR: dir }, head);
        const db = await openDatabase({ kind: "pglite", dataDir: path.join(dir, "pglite") });
        try {
          await expectComplete(db, head);
        } finally {
          await db.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it("serves its metrics on its own listener, as the service does: the index's block and lag, its RPC calls, its pool", async function () {
    const { chain } = suite();
    const head = await chain.provider.getBlockNumber();
    const database = usingPostgres() ? await createTestDatabase() : undefined;
    const dir = database ? undefined : mkdtempSync(path.join(os.tmpdir(), "indexer-metrics-"));
    try {
      const child = indexer(database ? { DATABASE_URL: (database.config as { url: string }).url } : { DATA_DIR: dir! }, {
        INDEXER_MAX_RANGE: "1000",
      });
      const url = () => child.lines.find((line) => line.msg === "metrics listening")?.url;
      await child.until(() => url() !== undefined, "the metrics listener");
      expect(new URL(url()!).hostname).to.equal("127.0.0.1");
      await child.until(() => child.lines.some((line) => line.msg === "indexer: at the head" && line.block === head), "the head");
      const answer = await fetch(url()!);
      expect(answer.status).to.equal(200);
      const text = await answer.text();
      expect(text).to.match(new RegExp(`^indexer_block\\{network="localhost"\\} ${head}$`, "m"));
      expect(text).to.match(/^indexer_head_lag_blocks\{network="localhost"\} 0$/m);
      expect(text).to.match(/^indexer_transfers_total\{network="localhost"\} [1-9]\d*$/m);
      expect(text).to.match(/^rpc_calls_total\{network="localhost",method="eth_getLogs",outcome="ok"\} [1-9]\d*$/m);
      expect(text).to.match(new RegExp(`^db_pool_max\\{database="${database ? "postgres" : "pglite"}"\\} \\d+$`, "m"));
      await child.kill("SIGTERM");
      await expect(fetch(url()!)).to.be.rejected;
    } finally {
      await database?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });

  it("drill: has one writer per network; when the writer is killed, the standby takes over within the documented bound", async function () {
    const { chain, alice } = suite();
    if (!usingPostgres()) this.skip(); // two processes on one database need a server (PGlite is single-process)
    const database: TestDatabase = await createTestDatabase();
    try {
      const url = (database.config as { url: string }).url;
      let head = await chain.provider.getBlockNumber();
      const atHead = (child: IndexerProcess, block: number) =>
        child.lines.some((line) => line.msg === "indexer: at the head" && line.block === block);
      const first = indexer({ DATABASE_URL: url });
      await first.until(() => atHead(first, head), "the first writer at the head");
      const second = indexer({ DATABASE_URL: url });
      await second.until(() => second.lines.some((line) => line.msg === "indexer started"), "the second start");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(second.count("indexer: writing"), "the second instance must wait").to.equal(0);
      const killedAt = Date.now();
      await first.kill();
      // Blocks mined after the writer died: only the second instance can index them.
      const holder = await chain.provider.getSigner(1); // minted token 2 in the first block
      await (
        await alice.connect(holder).transferFrom(await holder.getAddress(), await (await chain.provider.getSigner(7)).getAddress(), 2n)
      ).wait();
      head = await chain.provider.getBlockNumber();
      await second.until(() => atHead(second, head), "the takeover");
      expect(second.count("indexer: writing")).to.equal(1);
      // docs/operations/running.md: the standby takes the lock at its next try, LOCK_RETRY_MS after its last, and a try first
      // waits for a connection, at most DATABASE_ACQUIRE_TIMEOUT_MS. The time is the child's own log line's.
      const tookOver = second.lines.find((line) => line.msg === "indexer: writing")!.time - killedAt;
      const bound = LOCK_RETRY_MS + settingDefaults().database.acquireTimeoutMs;
      expect(tookOver, `took over ${tookOver} ms after the kill`).to.be.within(0, bound);
      await second.kill("SIGTERM");
      await expectComplete(await database.open(), head);
    } finally {
      await database.drop();
    }
  });
});
