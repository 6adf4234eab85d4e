import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { getBytes, hashMessage } from "ethers";
import * as libsecp256k1 from "tiny-secp256k1";
import { START_NODE_ARGS } from "../local/start-command";
import { openMigratedDatabase, type Database } from "../server/db/database";
import { readMigrations, type Migration } from "../server/db/migrate";
import { startCountingProxy, type CountingProxy, type QueryCounts } from "./pg-count-proxy";
import { fmt, type Row } from "../support/bench-report";
import { createTestDatabase, type TestDatabase } from "../support/database";

export { fmt, type Row } from "../support/bench-report";

export interface Suite {
  name: string;
  /** Runs only when named (`npm run bench -- scale`): it takes long. */
  onlyWhenNamed?: boolean;
  /** How it measures, one sentence a line: docs/benchmarks.md shows it above the suite's figures. */
  method: string[];
  run(context: BenchContext): Promise<Row[]>;
}

export interface BenchContext {
  /** Seconds each HTTP load lasts (BENCH_SECONDS, default 5). */
  seconds: number;
  /** Whether the service runs on PostgreSQL (DATABASE_URL) or the embedded PGlite. */
  database: "PostgreSQL" | "PGlite";
  /** The git ref whose code a suite's "before" runs (`--before <ref>`, default DEFAULT_BEFORE_REF in before.ts). */
  beforeRef: string;
  log(message: string): void;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface NextRequest {
  method?: "GET" | "POST";
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * HTTP load from this process: `connections` concurrent keep-alive connections for `seconds` (or until `amount`
 * requests). `next` makes each request differ (a counter shared by all connections: no request is sent twice).
 */
export async function load(options: {
  url: string;
  connections: number;
  seconds?: number;
  amount?: number;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  next?: () => NextRequest;
}): Promise<LoadResult> {
  const next = options.next;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount === undefined ? { duration: options.seconds } : { amount: options.amount }),
    method: options.method ?? "GET",
    body: options.body,
    headers: options.headers,
    requests: next
      ? [
          {
            setupRequest: (request: autocannon.Request) => {
              const made = next();
              return { ...request, ...made, headers: { ...request.headers, ...made.headers } };
            },
          },
        ]
      : undefined,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * EIP-191 personal_sign with libsecp256k1, as a wallet would sign: the load generator shares the cores with the
 * service, so it signs at the cost of the fastest library.
 */
export function personalSign(privateKey: Uint8Array | string, message: string): string {
  const { signature, recoveryId } = libsecp256k1.signRecoverable(getBytes(hashMessage(message)), getBytes(privateKey));
  return `0x${Buffer.from(signature).toString("hex")}${(27 + recoveryId).toString(16)}`;
}

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function printTable(rows: Row[], out: (line: string) => void = console.log): void {
  const header = ["suite", "metric", "value", "reference", "ratio", "budget"];
  const cells = rows.map((row) => [
    row.suite,
    row.metric,
    `${fmt(row.value)} ${row.unit}`,
    row.reference ? `${fmt(row.reference.value)} ${row.unit} (${row.reference.label})` : "",
    row.ratio === undefined ? "" : fmt(row.ratio),
    row.budget ? `${row.budget.text} ${row.budget.met ? "✓" : "✗ MISSED"}` : "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(" | ")} |`;
  out(line(header));
  out(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const c of cells) out(line(c));
}

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
 * its statements on the wire (pg-count-proxy.ts).
 */
export async function startService(
  env: Record<string, string>,
  prepare?: (db: Database, applied: Migration[]) => Promise<void>,
  options: { database?: TestDatabase; tree?: string; countQueries?: boolean } = {},
): Promise<Service> {
  const tree = options.tree ?? path.resolve(__dirname, "..");
  const database = options.database ?? (await createTestDatabase());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-"));
  if (prepare) {
    try {
      // Before the service starts: PGlite is one process at a time.
      const { db, applied } = await openMigratedDatabase(
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
  const child = spawn(process.execPath, START_NODE_ARGS, {
    cwd: tree,
    env: {
      ...process.env,
      PORT: "0",
      LOG_LEVEL: "warn",
      LOCAL_CHAIN: "false",
      DATA_DIR: dataDir,
      // The load comes from one address: the per-client limits would measure themselves.
      DATA_RATE_LIMIT: "1000000",
      CONVERTER_RATE_LIMIT: "1000000",
      ...(database.config.kind === "postgres"
        ? { DATABASE_URL: proxy?.url(database.config.url) ?? database.config.url }
        : { DATABASE_URL: "" }),
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /Service\s+(http:\/\/\S+)/.exec(output);
      if (match && output.includes("Ctrl-C")) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the service exited with ${code}:\n${output}`)));
  });
  child.stdout!.resume();
  return {
    url,
    database,
    pid: child.pid!,
    queryCounts: () => proxy?.counts(),
    lastRuns: () => proxy?.lastRuns() ?? new Map(),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await proxy?.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
