import os from "node:os";
import path from "node:path";
import { beforeRefOf } from "./before";
import indexer, { consecutive } from "./indexer";
import latestBlock from "./latest-block";
import login from "./login";
import loginProfile from "./login-profile";
import { printTable, type BenchContext, type Row, type Suite } from "./lib";
import metadata from "./metadata";
import metrics from "./metrics";
import migration from "./migration";
import rpcPool from "./rpc-pool";
import { writeResult, type SuiteResult } from "../support/bench-report";
import scale from "./scale";
import sharedLimits from "./shared-limits";
import { runTags } from "./tags";
import token from "./token";

/**
 * `npm run bench [-- suite ...] [--before <ref>]`: runs the benchmark suites one after another (never part of
 * `npm test`), prints one table and writes each suite's result, tagged with the machine, Node, the database and the
 * commit, to bench/results/<suite>-<commit>-<timestamp>.json (`npm run bench:report` makes docs/benchmarks.md of the
 * newest of each suite). Set DATABASE_URL to measure on PostgreSQL. `--before <ref>`: the git ref whose code the
 * suites that compare with the code as it was run as their "before" (see before.ts).
 */
const SUITES: Suite[] = [
  latestBlock,
  metadata,
  indexer,
  consecutive,
  login,
  loginProfile,
  token,
  metrics,
  sharedLimits,
  rpcPool,
  scale,
  migration,
];

async function main() {
  const { ref: beforeRef, rest: wanted } = beforeRefOf(process.argv.slice(2));
  const unknown = wanted.filter((name) => !SUITES.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    console.error(`unknown suite(s): ${unknown.join(", ")}; known: ${SUITES.map((s) => s.name).join(", ")}`);
    process.exit(2);
  }
  const context: BenchContext = {
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    database: process.env.DATABASE_URL ? "PostgreSQL" : "PGlite",
    beforeRef,
    log: (message) => console.error(`  · ${message}`),
  };
  const tags = await runTags(process.env.DATABASE_URL);
  const rows: Row[] = [];
  for (const suite of SUITES.filter((s) => (wanted.length === 0 && !s.onlyWhenNamed) || wanted.includes(s.name))) {
    console.error(`${suite.name}`);
    const loadAtStart = os.loadavg()[0];
    const suiteRows = await suite.run(context);
    rows.push(...suiteRows);
    const result: SuiteResult = {
      suite: suite.name,
      tags,
      seconds: context.seconds,
      method: suite.method,
      load: { start: loadAtStart, end: os.loadavg()[0] },
      rows: suiteRows,
    };
    console.error(`  · written to ${path.relative(process.cwd(), writeResult(result))}`);
  }
  console.log(`\nBenchmarks (${tags.database}, ${context.seconds} s per load, node ${tags.node}, ${tags.commit})\n`);
  printTable(rows);
  process.exit(rows.some((row) => row.budget && !row.budget.met) ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
