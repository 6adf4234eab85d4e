import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { RunTags } from "../../support/bench-report";

export type { RunTags } from "../../support/bench-report";

const ROOT = path.resolve(__dirname, "..", "..");

export async function runTags(databaseUrl: string | undefined, date = new Date()): Promise<RunTags> {
  const cpus = os.cpus();
  return {
    machine: { cpu: cpus[0]?.model.trim() ?? "unknown", cores: cpus.length, memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10 },
    node: process.version,
    database: databaseUrl ? `PostgreSQL ${await serverVersion(databaseUrl)}` : `PGlite ${pgliteVersion()}`,
    commit: commit(),
    date: date.toISOString(),
  };
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
  } finally {
    await client.end();
  }
}

function pgliteVersion(): string {
  // Read from the installed package: its exports do not include package.json.
  const file = path.join(ROOT, "node_modules", "@electric-sql", "pglite", "package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

function commit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  return `${git("rev-parse", "HEAD")}${git("status", "--porcelain") ? "-dirty" : ""}`;
}
