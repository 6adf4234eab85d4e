import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { Client } from "pg";

const ROOT = path.resolve(__dirname, "..", "..");

/** The processes whose parent is `pid`, with their command lines (from /proc). */
function childrenOf(pid: number): Array<{ pid: number; command: string }> {
  const children: Array<{ pid: number; command: string }> = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid)
        children.push({ pid: Number(entry), command: fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ") });
    } catch {
      // It exited while being read.
    }
  }
  return children;
}

/** Whether `pid` runs (a zombie, exited and not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The test databases on the server of DATABASE_URL (none without it: the services then run on PGlite). */
async function testDatabases(): Promise<string[]> {
  if (!process.env.DATABASE_URL) return [];
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 't\\_%'");
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/** The services' data directories (bench/lib/service.ts) in the temporary folder. */
const dataDirs = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith("bench-"));

/**
 * A bench run stopped by a signal stops what it started: before, SIGTERM ended the runner at once and its service
 * (with its database and data directory) and its Hardhat node went on running, orphaned.
 */
describe("an interrupted bench run", function () {
  this.timeout(120_000);

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`stops its service, database and Hardhat node on ${signal}, then exits ${code}`, async function () {
      const databasesBefore = new Set(await testDatabases());
      const dirsBefore = new Set(dataDirs());
      const run = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "bench/run.ts", "latest-block"], {
        cwd: ROOT,
        env: { ...process.env, BENCH_SECONDS: "60" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let output = "";
      run.stderr!.on("data", (chunk) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => run.once("exit", (status) => resolve(status)));
      // Its service is started once its Hardhat node listens: the signal comes while the service starts or loads.
      let children: Array<{ pid: number; command: string }> = [];
      const deadline = Date.now() + 90_000;
      while (!children.some((child) => child.command.includes("local/start.ts"))) {
        if (run.exitCode !== null || Date.now() > deadline) throw new Error(`the run started no service:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        children = childrenOf(run.pid!);
      }
      expect(children.some((child) => child.command.includes("hardhat"))).to.equal(true);
      run.kill(signal);
      expect(await exited, output).to.equal(code);
      expect(output).to.include(`${signal}: stopping what the run started`);
      expect(children.filter((child) => running(child.pid))).to.deep.equal([]);
      expect((await testDatabases()).filter((name) => !databasesBefore.has(name))).to.deep.equal([]);
      expect(dataDirs().filter((name) => !dirsBefore.has(name))).to.deep.equal([]);
    });
  }
});
