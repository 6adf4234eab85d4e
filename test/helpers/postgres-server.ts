import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { openDatabase } from "../../server/db/database";
import type { Database } from "../../server/db/database";
import { freePort } from "../../support/net";
import type { TestDatabase } from "./database";

const run = promisify(execFile);

/** The directory of PostgreSQL's server binaries (initdb, pg_ctl), the newest Debian installs; undefined without them. */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter(
      (version) => fs.existsSync(path.join(root, version, "bin", "initdb")) && fs.existsSync(path.join(root, version, "bin", "pg_ctl")),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : undefined;
}

/** A PostgreSQL server of the test's own, which it may stop and restart without disturbing the shared one. */
export interface PostgresServer {
  /** Its `postgres` database, trust authentication. */
  url: string;
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
 * root: as root they run as the `postgres` user.
 */
export async function startPostgresServer(binaries: string): Promise<PostgresServer> {
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-drill-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  if (asRoot) await run("chown", ["postgres:postgres", dir]);
  const pg = async (tool: string, args: string[]) => {
    const command = path.join(binaries, tool);
    try {
      await (asRoot ? run("runuser", ["-u", "postgres", "--", command, ...args]) : run(command, args));
    } catch (error) {
      const tail = fs.existsSync(log) ? fs.readFileSync(log, "utf8").slice(-2_000) : "";
      throw new Error(`${tool} ${args.join(" ")} failed: ${(error as Error).message}\n${tail}`);
    }
  };
  const port = await freePort();
  await pg("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  // fsync off: a stopped or killed server keeps what it wrote in the operating system's cache; only a machine crash
  // would need it, and the drills do not crash the machine.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off -c max_connections=50`;
  const start = () => pg("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"]);
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const config = { kind: "postgres" as const, url };
  const opened: Database[] = [];
  const remove = async () => {
    await Promise.all(opened.splice(0).map((db) => db.close().catch(() => {})));
    await pg("pg_ctl", ["-D", data, "-w", "-m", "immediate", "stop"]).catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return {
    url,
    database: {
      kind: "postgres",
      config,
      appOptions: async () => ({ database: config }),
      async open() {
        const db = await openDatabase(config);
        opened.push(db);
        return db;
      },
      drop: remove,
    },
    restart: (mode) => pg("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-m", mode, "-o", options, "restart"]),
    stop: (mode) => pg("pg_ctl", ["-D", data, "-w", "-m", mode, "stop"]),
    start,
    remove,
  };
}
