import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeResult, type SuiteResult } from "../support/bench-report";
import { backendName } from "../support/database";
import { beforeRefOf } from "./lib/before";
import { stopIfInterrupted, stopOnSignals } from "./lib/interrupt";
import { printTable, type BenchContext, type Row, type Suite } from "./lib/suite";
import { runTags } from "./lib/tags";
import checksums from "./suites/checksums";
import collections from "./suites/collections";
import consecutive from "./suites/consecutive";
import events from "./suites/events";
import indexer from "./suites/indexer";
import latestBlock from "./suites/latest-block";
import login from "./suites/login";
import loginProfile from "./suites/login-profile";
import metadata from "./suites/metadata";
import metrics from "./suites/metrics";
import migration from "./suites/migration";
import rpcPool from "./suites/rpc-pool";
import scale from "./suites/scale";
import sharedLimits from "./suites/shared-limits";
import token from "./suites/token";
import webhooks from "./suites/webhooks";

/**
 * `npm run bench [-- suite ...] [--before <ref>]`: runs the benchmark suites one after another (never part of
 * `npm test`), prints one table and writes each suite's result, tagged with the machine, Node, the database and the
 * commit, to bench/results/<suite>-<commit>-<timestamp>.json (`npm run bench:report` makes docs/reference/benchmarks.md of the
 * newest of each suite). Set DATABASE_URL to measure on PostgreSQL. `--before <ref>`: the git ref whose code the
 * suites that compare with the code as it was run as their "before" (see lib/before.ts).
 *
 * `npm run bench -- --smoke`: every suite, those run only when named and the Hardhat ones included, on small data
 * with loads of a second, to show in CI that each still runs; nothing is written and no budget is judged. `--smoke
 * --list` prints the suites it would run, one a line, and runs none.
 */
const SUITES: Record<string, Suite> = {
  "latest-block": latestBlock,
  checksums,
  metadata,
  indexer,
  consecutive,
  collections,
  login,
  "login-profile": loginProfile,
  token,
  metrics,
  "shared-limits": sharedLimits,
  "rpc-pool": rpcPool,
  scale,
  migration,
  webhooks,
  events,
};

/** The suite files that run through Hardhat instead of this runner (`npm run bench:gas`); the smoke runs them so too. */
const HARDHAT_SUITES = ["gas"];
/** Seconds of each HTTP load in the smoke. */
const SMOKE_SECONDS = 1;

/** Each suite is the file of its name in suites/: a suite named otherwise, or a file left out of SUITES, stops the run. */
function checkSuiteFiles(): void {
  const files = fs
    .readdirSync(path.join(__dirname, "suites"))
    .map((file) => path.basename(file, ".ts"))
    .filter((name) => !HARDHAT_SUITES.includes(name));
  const names = Object.keys(SUITES);
  const unlisted = files.filter((file) => !names.includes(file));
  const misnamed = names.filter((name) => !files.includes(name));
  if (unlisted.length + misnamed.length > 0) {
    throw new Error(
      `bench/suites/ and SUITES in bench/run.ts differ: files not run ${unlisted.join(", ") || "none"}; suites without their file ${misnamed.join(", ") || "none"}`,
    );
  }
}

async function main() {
  checkSuiteFiles();
  stopOnSignals((message) => console.error(message));
  const { ref: beforeRef, rest } = beforeRefOf(process.argv.slice(2));
  const smoke = rest.includes("--smoke");
  const profile = rest.includes("--profile");
  const wanted = rest.filter((arg) => arg !== "--smoke" && arg !== "--list" && arg !== "--profile");
  if (smoke && rest.includes("--list")) {
    for (const name of [...Object.keys(SUITES), ...HARDHAT_SUITES]) console.log(name);
    return;
  }
  if (smoke && wanted.length > 0) {
    console.error("--smoke runs every suite: name none");
    process.exit(2);
  }
  const unknown = wanted.filter((name) => !Object.hasOwn(SUITES, name));
  if (unknown.length > 0) {
    console.error(`unknown suite(s): ${unknown.join(", ")}; known: ${Object.keys(SUITES).join(", ")}`);
    process.exit(2);
  }
  const context: BenchContext = {
    seconds: smoke ? SMOKE_SECONDS : Number(process.env.BENCH_SECONDS ?? 5),
    smoke,
    database: backendName,
    beforeRef,
    profile,
    log: (message) => console.error(`  · ${message}`),
  };
  const tags = await runTags(process.env.DATABASE_URL);
  const rows: Row[] = [];
  const chosen = Object.entries(SUITES).filter(
    ([name, suite]) => smoke || (wanted.length === 0 && !suite.onlyWhenNamed) || wanted.includes(name),
  );
  const started = performance.now();
  for (const [name, suite] of chosen) {
    console.error(name);
    const loadAtStart = os.loadavg()[0];
    const suiteStarted = performance.now();
    const suiteRows = await suite.run(context);
    if (smoke) {
      // The smoke's figures come from small data and short loads: shown, never judged nor written.
      rows.push(...suiteRows.map(({ budget: _, ...row }) => row));
      console.error(`  · ran in ${((performance.now() - suiteStarted) / 1000).toFixed(1)} s`);
      continue;
    }
    rows.push(...suiteRows);
    const result: SuiteResult = {
      suite: name,
      tags,
      seconds: context.seconds,
      method: suite.method,
      load: { start: loadAtStart, end: os.loadavg()[0] },
      rows: suiteRows,
    };
    console.error(`  · written to ${path.relative(process.cwd(), writeResult(result))}`);
  }
  if (smoke) {
    for (const name of HARDHAT_SUITES) {
      console.error(name);
      await hardhatSuite(name);
    }
    console.log(
      `\nBenchmark smoke (${tags.database}, ${context.seconds} s per load, node ${tags.node}, ${tags.commit}): every suite ran in ${((performance.now() - started) / 1000).toFixed(0)} s; small data, no budget judged\n`,
    );
    printTable(rows);
    return;
  }
  console.log(`\nBenchmarks (${tags.database}, ${context.seconds} s per load, node ${tags.node}, ${tags.commit})\n`);
  printTable(rows);
  process.exit(rows.some((row) => row.budget && !row.budget.met) ? 1 : 0);
}

/**
 * Runs a suite of the Hardhat runtime (`npx hardhat run`) in its smoke form; it fails when the suite exits otherwise
 * than with 0. Awaited, not run synchronously: a signal to the run is handled at once and stops it too, where a
 * blocked event loop made the run wait for the suite's end.
 */
async function hardhatSuite(name: string): Promise<void> {
  const child = spawn("npx", ["hardhat", "run", path.join(__dirname, "suites", `${name}.ts`)], {
    env: { ...process.env, BENCH_SMOKE: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<number | null>((resolve, reject) => child.once("exit", resolve).once("error", reject));
  let interrupted = false;
  const forget = stopIfInterrupted(async () => {
    interrupted = true;
    child.kill("SIGTERM");
    await exited;
  });
  try {
    const code = await exited;
    // Stopped by the run's own interruption: not the suite's failure; the signal's handler exits with the signal's code.
    if (interrupted) return new Promise<never>(() => {});
    if (code !== 0) throw new Error(`the ${name} suite (npx hardhat run) exited with ${code}`);
  } finally {
    forget();
  }
}

main().then(
  // The suites' processes and sockets are closed; a handle a library keeps must not hold the run.
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
