import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { migrate } from "../../server/db/migrate";
import { openPglite } from "../../server/db/pglite";
import { createTestDatabase } from "../../support/database";
import { stopIfInterrupted } from "./interrupt";

const ROOT = path.resolve(__dirname, "..", "..");
const ENTRY = path.join(ROOT, "dist", "server", "indexer", "main.js");
/** A start that has not written its first range by then failed. */
const START_TIMEOUT_MS = 60_000;

/** The start of the standalone indexer to its first range written, and its parts, in ms. */
export interface Startup {
  /** From the spawn (as the bench's clock sees it) to the first range committed. */
  total: number;
  /** Node's own start and the loading of the modules, to the entry's first line. */
  modules: number;
  config: number;
  /** The connection pool opened and the migrations checked (none to apply: the database is migrated). */
  database: number;
  /** From "indexer started" to the writer's lock taken: its connection, the lock. */
  lock: number;
  /** The cursor read and the node's head asked (the first call to the provider). */
  check: number;
  /** The first range's headers and eth_getLogs, decoded. */
  fetch: number;
  /** The first range's transaction. */
  write: number;
  /** Transfers of the first range. */
  transfers: number;
}

/** Whether `dist/` holds a build at least as new as every source file of server/ (and this tree's typechain-types/). */
function buildIsCurrent(): boolean {
  if (!fs.existsSync(ENTRY)) return false;
  const built = fs.statSync(ENTRY).mtimeMs;
  const newest = (dir: string): number => {
    let time = 0;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      time = Math.max(time, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
    }
    return time;
  };
  return newest(path.join(ROOT, "server")) <= built;
}

/**
 * The production build the start is timed from: `dist/` as `npm run build` makes it, built once (here) when it is
 * missing or older than a file of server/.
 */
export function productionBuild(log: (message: string) => void): void {
  if (buildIsCurrent()) {
    log("the production build in dist/ is current: timing it as it is");
    return;
  }
  log("npm run build (the production build, in dist/)");
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
}

/** A bare Node process, spawned to its exit: the floor of any start. */
export function bareNodeMs(): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, ["-e", "0"]);
  if (result.status !== 0) throw new Error(`node -e 0 exited with ${result.status}`);
  return performance.now() - started;
}

/** A migrated database with an empty index, as a new deployment's indexer finds it: its setting and its removal. */
async function freshDatabase(): Promise<{ env: NodeJS.ProcessEnv; drop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    const db = await database.open();
    await migrate(db);
    await db.close();
    return { env: { DATABASE_URL: (database.config as { url: string }).url }, drop: () => database.drop() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-indexer-start-"));
  const db = await openPglite(dir);
  await migrate(db);
  await db.close();
  return { env: { DATA_DIR: dir }, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Spawns the standalone indexer of the production build (`node dist/server/indexer/main.js`, NODE_ENV=production)
 * on a migrated database with an empty index and the node at `nodeUrl`, and times it to its first range written,
 * from its own log lines at debug level (pino's epoch `time` of each): the parts it logs with "indexer started"
 * (modules, config, database) and with the first "indexer: range written" (check, fetch, write), and the lock between.
 * The process is stopped (SIGTERM) once it has written.
 */
export async function startupOnce(nodeUrl: string, network: string): Promise<Startup> {
  const database = await freshDatabase();
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      LOG_LEVEL: "debug",
      METRICS_PORT: "0",
      [`RPC_URL_${network.toUpperCase()}`]: nodeUrl,
      ...database.env,
    };
    const spawned = Date.now();
    const child = spawn(process.execPath, [ENTRY], { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const forget = stopIfInterrupted(async () => {
      child.kill("SIGKILL");
      await exited;
      await database.drop();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), START_TIMEOUT_MS);
    try {
      let started: { time: number; startupMs: { modules: number; config: number; database: number } } | undefined;
      let writing: number | undefined;
      for await (const line of readline.createInterface({ input: child.stdout! })) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { time: number; msg: string; [field: string]: unknown };
        if (entry.msg === "indexer started") started = entry as unknown as typeof started;
        else if (entry.msg === "indexer: writing") writing = entry.time;
        else if (entry.msg === "indexer: range written") {
          if (!started || writing === undefined) throw new Error("indexer: a range written before its start and lock were logged");
          const { ms, transfers } = entry as unknown as { ms: { check: number; fetch: number; write: number }; transfers: number };
          return {
            total: entry.time - spawned,
            ...started.startupMs,
            lock: writing - started.time,
            ...ms,
            transfers,
          };
        }
      }
      throw new Error("the indexer exited before it wrote a range");
    } finally {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      forget();
    }
  } finally {
    await database.drop();
  }
}
