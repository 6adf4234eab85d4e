import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { START_NODE_ARGS } from "../../local/start-command";
import { SETTINGS } from "../../server/config/settings";
import type { Database } from "../../server/db/database";
import { readMigrations, type Migration } from "../../server/db/migrate";
import { createTestDatabase, openMigratedForFill, type TestDatabase } from "../../support/database";
import { stopIfInterrupted } from "./interrupt";
import { startCountingProxy, type CountingProxy, type QueryCounts } from "./pg-count-proxy";

/** The value every per-client rate limit is lifted to: a limit per minute no suite's load reaches. */
const RATE_LIMIT_CEILING = "1000000";

/**
 * Every per-client rate limit (each setting named `*_RATE_LIMIT`) at the ceiling: a suite's load comes from one
 * address, and a limit that binds would have it time the service's 429s. Read from the settings list, so that a limit
 * added later is lifted too (its own parser must take the ceiling); a suite that measures a limit sets it in its own `env`.
 */
const LIFTED_RATE_LIMITS: Record<string, string> = Object.fromEntries(
  SETTINGS.filter((setting) => setting.name.endsWith("_RATE_LIMIT")).map((setting) => {
    try {
      setting.parse(RATE_LIMIT_CEILING, 1);
    } catch {
      throw new Error(`${setting.name} does not take ${RATE_LIMIT_CEILING}: lift it to its own maximum in bench/lib/service.ts`);
    }
    return [setting.name, RATE_LIMIT_CEILING];
  }),
);

export interface Service {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** The database it runs on (dropped by stop()). */
  database: TestDatabase;
  /** The service's process id (for its CPU times in /proc). */
  pid: number;
  /** The statements the service has sent to PostgreSQL so far, counted on the wire (`countQueries`); undefined otherwise. */
  queryCounts(): QueryCounts | undefined;
  /** The statements seen on the wire with their last parameters (`countQueries`, PostgreSQL); empty otherwise. */
  lastRuns(): Map<string, (string | null)[]>;
  stop(): Promise<void>;
}

/**
 * The service in a process of its own, started as `npm start` does (so load generated here does not share its
 * event loop), on a fresh database: PostgreSQL when DATABASE_URL is set, else PGlite in a temporary directory; or on
 * `options.database` (a PostgreSQL database the caller made, dropped or kept by its own `drop`). `prepare` gets the
 * migrated database before the service starts (e.g. to register a client), with the migrations applied just now.
 * `tree`: the checkout whose code runs (default this one; a bench's "before" is another, see before.ts), whose
 * migrations `prepare` gets. `countQueries`: on PostgreSQL, the service reaches its database through a proxy that counts
 * its statements on the wire (pg-count-proxy.ts). `nodeArgs`: node's options before those of `npm start` (`--cpu-prof`).
 */
export async function startService(
  env: Record<string, string>,
  prepare?: (db: Database, applied: Migration[]) => Promise<void>,
  options: { database?: TestDatabase; tree?: string; countQueries?: boolean; nodeArgs?: string[] } = {},
): Promise<Service> {
  const tree = options.tree ?? path.resolve(__dirname, "..", "..");
  const database = options.database ?? (await createTestDatabase());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-"));
  if (prepare) {
    try {
      // Before the service starts: PGlite is one process at a time.
      // Under the fill's statement bound, not the service's: a suite's data is not a request.
      const { db, applied } = await openMigratedForFill(
        database.config.kind === "postgres" ? database.config : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
        readMigrations(path.join(tree, "server", "db", "migrations")),
      );
      try {
        await prepare(db, applied);
      } finally {
        await db.close();
      }
    } catch (error) {
      await database.drop().catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }
  const proxy: CountingProxy | undefined =
    options.countQueries && database.config.kind === "postgres" ? await startCountingProxy(database.config.url) : undefined;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...START_NODE_ARGS], {
    cwd: tree,
    env: {
      ...process.env,
      PORT: "0",
      LOG_LEVEL: "warn",
      LOCAL_CHAIN: "false",
      DATA_DIR: dataDir,
      ...LIFTED_RATE_LIMITS,
      ...(database.config.kind === "postgres"
        ? { DATABASE_URL: proxy?.url(database.config.url) ?? database.config.url }
        : { DATABASE_URL: "" }),
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // Once, however many ask (the suite, an interrupted run: registered from the spawn on, so that a run interrupted
  // while the service starts stops it too).
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      forget();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      await proxy?.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    })());
  const forget = stopIfInterrupted(stop);
  const started = new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /Service\s+(http:\/\/\S+)/.exec(output);
      if (match && output.includes("Ctrl-C")) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the service exited with ${code}:\n${output}`)));
  });
  // A service that did not start leaves no database nor data directory behind.
  const url = await started.catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  child.stdout!.resume();
  return {
    url,
    database,
    pid: child.pid!,
    queryCounts: () => proxy?.counts(),
    lastRuns: () => proxy?.lastRuns() ?? new Map(),
    stop,
  };
}

/**
 * Starts several things at once (services, each seconds of start-up): each one that started goes to `keep`, in the
 * order given, so that the caller's cleanup stops it; then the first failure, if any, is thrown.
 */
export async function startTogether<T>(starts: Array<() => Promise<T>>, keep: (started: T, i: number) => void): Promise<void> {
  const settled = await Promise.allSettled(starts.map((start) => start()));
  settled.forEach((result, i) => {
    if (result.status === "fulfilled") keep(result.value, i);
  });
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}
