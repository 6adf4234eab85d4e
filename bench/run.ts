import fs from "node:fs";
import path from "node:path";
import indexer, { consecutive } from "./indexer";
import latestBlock from "./latest-block";
import login from "./login";
import { printTable, type BenchContext, type Row, type Suite } from "./lib";
import metadata from "./metadata";
import metrics from "./metrics";
import scale from "./scale";
import token from "./token";

/**
 * `npm run bench [-- suite ...]`: runs the benchmark suites one after another (never part of `npm test`),
 * prints one table and writes bench/results.json. Set DATABASE_URL to measure on PostgreSQL.
 */
const SUITES: Suite[] = [latestBlock, metadata, indexer, consecutive, login, token, metrics, scale];

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !SUITES.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    console.error(`unknown suite(s): ${unknown.join(", ")}; known: ${SUITES.map((s) => s.name).join(", ")}`);
    process.exit(2);
  }
  const context: BenchContext = {
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    database: process.env.DATABASE_URL ? "PostgreSQL" : "PGlite",
    log: (message) => console.error(`  · ${message}`),
  };
  const rows: Row[] = [];
  for (const suite of SUITES.filter((s) => (wanted.length === 0 && !s.onlyWhenNamed) || wanted.includes(s.name))) {
    console.error(`${suite.name}`);
    rows.push(...(await suite.run(context)));
  }
  console.log(`\nBenchmarks (${context.database}, ${context.seconds} s per load, node ${process.version})\n`);
  printTable(rows);
  const file = path.join(__dirname, "results.json");
  fs.writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), database: context.database, rows }, null, 2)}\n`);
  console.log(`\n(written to ${path.relative(process.cwd(), file)})`);
  process.exit(rows.some((row) => row.budget && !row.budget.met) ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
