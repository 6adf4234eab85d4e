import { spawn } from "node:child_process";
import fs from "node:fs";
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

/** The variables `pid` was started with (from /proc). */
function environmentOf(pid: number): Record<string, string> {
  const pairs = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

/** Whether the PostgreSQL database at `url` exists (on its server, as DATABASE_URL reaches it). */
async function databaseExists(url: string): Promise<boolean> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [new URL(url).pathname.slice(1)]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

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
      const service = children.find((child) => child.command.includes("local/start.ts"))!;
      expect(children.some((child) => child.command.includes("hardhat"))).to.equal(true);
      // Its own database and data directory: other test files make theirs meanwhile.
      const { DATABASE_URL: databaseUrl, DATA_DIR: dataDir } = environmentOf(service.pid);
      expect(fs.existsSync(dataDir), dataDir).to.equal(true);
      if (databaseUrl) expect(await databaseExists(databaseUrl), databaseUrl).to.equal(true);
      run.kill(signal);
      expect(await exited, output).to.equal(code);
      expect(output).to.include(`${signal}: stopping what the run started`);
      // A process killed a moment ago may take a moment to end.
      for (let waited = 0; children.some((child) => running(child.pid)) && waited < 5_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(children.filter((child) => running(child.pid))).to.deep.equal([]);
      expect(fs.existsSync(dataDir), dataDir).to.equal(false);
      if (databaseUrl) expect(await databaseExists(databaseUrl), databaseUrl).to.equal(false);
    });
  }
});
