import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../support/net";
import { runServerTool } from "./postgres-server";

export { postgresServerBinariesOrSkip } from "./postgres-server";

/** A PostgreSQL server this test started, on 127.0.0.1 and a free port, with trust authentication for `postgres`. */
export interface PostgresServer {
  url: string;
  port: number;
  /** Stops it (fast: open sessions are ended), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/**
 * A primary and streaming replicas of it, each its own data folder under one temporary folder. initdb and the server
 * refuse to run as root: as root every program runs as the `postgres` user, which owns the folder.
 */
export class PostgresServers {
  private readonly servers: Array<{ dir: string; server: PostgresServer; running: boolean }> = [];

  private constructor(
    private readonly bin: string,
    private readonly root: string,
  ) {}

  static create(bin: string): PostgresServers {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "pg-servers-"));
    // As root the programs run as `postgres` (runServerTool), which must own the folder.
    if (process.getuid?.() === 0) {
      const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
      fs.chownSync(root, id("-u"), id("-g"));
    }
    return new PostgresServers(bin, root);
  }

  /** Runs one of the server programs, as `postgres` when this process is root. */
  private tool(name: string, args: string[]): Promise<void> {
    return runServerTool(this.bin, name, args, { cwd: this.root });
  }

  private async serve(dir: string, port: number): Promise<PostgresServer> {
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='${this.root}' -c fsync=off -c max_connections=50`;
    const entry = { dir, running: false, server: undefined as unknown as PostgresServer };
    const start = async () => {
      await this.tool("pg_ctl", [
        "-D",
        dir,
        "-l",
        path.join(this.root, `${path.basename(dir)}.log`),
        "-o",
        options,
        "-w",
        "-t",
        "60",
        "start",
      ]);
      entry.running = true;
    };
    entry.server = {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      start,
      stop: async () => {
        await this.tool("pg_ctl", ["-D", dir, "-m", "fast", "-w", "stop"]);
        entry.running = false;
      },
    };
    await start();
    this.servers.push(entry);
    return entry.server;
  }

  /** A new cluster (initdb, trust authentication, replication allowed from 127.0.0.1 as initdb allows it). */
  async primary(): Promise<PostgresServer> {
    const dir = path.join(this.root, "primary");
    await this.tool("initdb", ["-D", dir, "-U", "postgres", "-A", "trust", "--no-sync"]);
    return this.serve(dir, await freePort());
  }

  /** A hot standby streaming from `primary`: a base backup with `-R` (its standby.signal and primary_conninfo). */
  async replica(primary: PostgresServer, name = "replica"): Promise<PostgresServer> {
    const dir = path.join(this.root, name);
    await this.tool("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primary.port),
      "-U",
      "postgres",
      "-D",
      dir,
      "-R",
      "-X",
      "stream",
      "--no-sync",
    ]);
    return this.serve(dir, await freePort());
  }

  /** A new cluster and one hot standby streaming from it: the pair every replication drill starts from. */
  async primaryAndReplica(): Promise<{ primary: PostgresServer; replica: PostgresServer }> {
    const primary = await this.primary();
    return { primary, replica: await this.replica(primary) };
  }

  /** Promotes `replica` to a primary (`pg_ctl promote`): it stops replaying and takes writes. */
  async promote(replica: PostgresServer): Promise<void> {
    const entry = this.servers.find((each) => each.server === replica);
    if (!entry) throw new Error("not a server of these");
    await this.tool("pg_ctl", ["-D", entry.dir, "-w", "promote"]);
  }

  /** Stops every server still running (replicas first) and removes the folder. */
  async close(): Promise<void> {
    for (const entry of [...this.servers].reverse()) {
      if (entry.running) await entry.server.stop().catch(() => {});
    }
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
