import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { postgresTestDatabase, type TestDatabase } from "./database";
import { freePort } from "./net";

const run = promisify(execFile);

const SERVER_TOOLS = ["initdb", "pg_ctl", "pg_basebackup", "postgres"];

/**
 * The folder of PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup): `pg_config --bindir`, or the newest of
 * Debian's /usr/lib/postgresql/<version>/bin; undefined where they are not installed (the client alone is not enough).
 */
export function postgresServerBinaries(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {
    // no pg_config on PATH
  }
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => /^\d+$/.test(v));
    candidates.push(...versions.sort((a, b) => Number(b) - Number(a)).map((v) => path.join(debian, v, "bin")));
  }
  return candidates.find((dir) => SERVER_TOOLS.every((tool) => fs.existsSync(path.join(dir, tool))));
}

/**
 * Runs one of the server programs of `bin`; initdb and the server refuse root, so as root it runs as the `postgres`
 * user. A failure says what the program printed, and the end of `log` (the server's) when there is one.
 */
export async function runServerTool(bin: string, name: string, args: string[], { cwd, log }: { cwd?: string; log?: string } = {}) {
  const program = path.join(bin, name);
  const [file, argv] = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];
  try {
    await run(file, argv, { cwd, timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    const tail = log && fs.existsSync(log) ? `\n${fs.readFileSync(log, "utf8").slice(-2_000)}` : "";
    throw new Error(`${name} ${args.join(" ")} failed: ${stderr || stdout || (error as Error).message}${tail}`);
  }
}

/** A PostgreSQL server of the test's own, which it may stop and restart without disturbing the shared one. */
export interface PostgresServer {
  /** Its `postgres` database, trust authentication. */
  url: string;
  /** Its data directory (on a tmpfs of its own with `dataDiskMb`), in the folder `remove` deletes. */
  dataDir: string;
  /** A {@link TestDatabase} on it, for `startTestApp({ database })`: dropping it stops and removes the server. */
  database: TestDatabase;
  /** `pg_ctl restart -m <mode>`: returns once the server accepts connections again. */
  restart(mode: "fast" | "immediate"): Promise<void>;
  /** `pg_ctl stop -m <mode>`: returns once the server is gone. */
  stop(mode: "fast" | "immediate"): Promise<void>;
  /** `pg_ctl start`: returns once the server accepts connections (after its crash recovery, if any). */
  start(): Promise<void>;
  /** Stops the server and removes its files. */
  remove(): Promise<void>;
}

/**
 * initdb and pg_ctl on a free port of 127.0.0.1, without a Unix socket, in a temporary directory. initdb refuses
 * root: as root they run as the `postgres` user. `dataDiskMb`: the data directory on a tmpfs of that size of its own
 * (mounting needs root), the WAL outside it, so that filling it makes PostgreSQL refuse writes with 53100 (disk_full)
 * instead of stopping, as a full WAL disk does; `remove` unmounts it.
 */
export async function startPostgresServer(binaries: string, { dataDiskMb }: { dataDiskMb?: number } = {}): Promise<PostgresServer> {
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-drill-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  if (dataDiskMb !== undefined) {
    if (!asRoot) throw new Error("a data disk of its own needs root (mount -t tmpfs)");
    fs.mkdirSync(data);
    await run("mount", ["-t", "tmpfs", "-o", `size=${dataDiskMb}m,mode=0700`, "tmpfs", data]);
  }
  if (asRoot) await run("chown", ["-R", "postgres:postgres", dir]);
  const pg = (tool: string, args: string[]) => runServerTool(binaries, tool, args, { log });
  const port = await freePort();
  const wal = dataDiskMb === undefined ? [] : ["--waldir", path.join(dir, "wal")];
  await pg("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", ...wal]);
  // fsync off: a stopped or killed server keeps what it wrote in the operating system's cache; only a machine crash
  // would need it, and the drills do not crash the machine.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off -c max_connections=50`;
  const start = () => pg("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"]);
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const database = postgresTestDatabase(url, async () => {
    await pg("pg_ctl", ["-D", data, "-w", "-m", "immediate", "stop"]).catch(() => {});
    // A process may still work in it when the stop returns (a backend on its way out), which makes the disk busy: it
    // is then detached at once (lazily) and freed when that process is gone, so that the folder can go now.
    if (dataDiskMb !== undefined) await run("umount", [data]).catch(() => run("umount", ["--lazy", data]).catch(() => {}));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    url,
    dataDir: data,
    database,
    restart: (mode) => pg("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-m", mode, "-o", options, "restart"]),
    stop: (mode) => pg("pg_ctl", ["-D", data, "-w", "-m", mode, "stop"]),
    start,
    remove: () => database.drop(),
  };
}
