import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { atLocalPort, freePort } from "../../support/net";

/** The pgbouncer binary: on PATH, or where Debian's package puts it; undefined where it is not installed. */
export function pgbouncerBinary(): string | undefined {
  for (const candidate of ["/usr/sbin/pgbouncer", "/usr/local/sbin/pgbouncer", "/usr/local/bin/pgbouncer"]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync("sh", ["-c", "command -v pgbouncer"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface PgBouncer {
  /** The same database as `databaseUrl`, through the pooler. */
  url: string;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode in front of the PostgreSQL database of `databaseUrl` (trust authentication, as the
 * test server has), on a free port, with at most `serverConnections` server connections. PgBouncer refuses to run as
 * root: as root it is started as the `postgres` user.
 */
export async function startPgBouncer(binary: string, databaseUrl: string, serverConnections = 2): Promise<PgBouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username || "postgres");
  const database = target.pathname.slice(1);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgbouncer-"));
  fs.chmodSync(dir, 0o777);
  const ini = path.join(dir, "pgbouncer.ini");
  fs.writeFileSync(path.join(dir, "userlist.txt"), `"${user}" ""\n`);
  fs.writeFileSync(
    ini,
    [
      "[databases]",
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database} user=${user}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${serverConnections}`,
      "max_client_conn = 200",
      "server_round_robin = 0",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      "",
    ].join("\n"),
  );
  for (const file of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, file), 0o666);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ["-u", "postgres"] : []), ini], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      const log = fs.existsSync(path.join(dir, "pgbouncer.log")) ? fs.readFileSync(path.join(dir, "pgbouncer.log"), "utf8") : "";
      throw new Error(`pgbouncer did not start: ${stderr}${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: atLocalPort(databaseUrl, port),
    async stop() {
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
