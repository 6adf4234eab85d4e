import fs from "node:fs";
import pg from "pg";
import type { Service } from "./service";

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** CPU time a process has used so far, all threads, in ms: in its own code (user) and in the kernel (system); undefined when it has exited. */
function processCpuTimes(pid: number): { user: number; system: number } | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces and parentheses): state is the 3rd field, utime the 14th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: (Number(fields[11]) * 1000) / TICKS_PER_SECOND, system: (Number(fields[12]) * 1000) / TICKS_PER_SECOND };
}

/** CPU time (user + system, all threads) a process has used so far, in ms; undefined when it has exited. */
export function processCpuMs(pid: number): number | undefined {
  const times = processCpuTimes(pid);
  return times && times.user + times.system;
}

/**
 * The CPU the service and its PostgreSQL backends use, measured from outside from their CPU times: the service
 * process from /proc/<pid>/stat, the backends found in pg_stat_activity (the connections to the service's database,
 * other than this one). Backends opened during a measure count from zero.
 */
export class ServerCpu {
  private constructor(
    private readonly pid: number,
    private readonly monitor: pg.Client | undefined,
  ) {}

  /** `databaseUrl` is the service's PostgreSQL database; without one (PGlite) only the service process is measured. */
  static async open(pid: number, databaseUrl?: string): Promise<ServerCpu> {
    if (!fs.existsSync(`/proc/${pid}/stat`)) throw new Error("CPU times are read from /proc: Linux only");
    let monitor: pg.Client | undefined;
    if (databaseUrl) {
      monitor = new pg.Client({ connectionString: databaseUrl });
      await monitor.connect();
    }
    return new ServerCpu(pid, monitor);
  }

  /** A bench service's CPU: on PGlite its database runs inside its process, on PostgreSQL in the backends of its database. */
  static forService(service: Pick<Service, "pid" | "database">): Promise<ServerCpu> {
    const { config } = service.database;
    return ServerCpu.open(service.pid, config.kind === "postgres" ? config.url : undefined);
  }

  /** CPU used so far: the service's (and of it, the part in the kernel) and its backends' (by pid). */
  async sample(): Promise<{ service: number; serviceKernel: number; backends: Map<number, number> }> {
    const backends = new Map<number, number>();
    if (this.monitor) {
      const { rows } = await this.monitor.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
      );
      for (const { pid } of rows) {
        const ms = processCpuMs(pid);
        if (ms !== undefined) backends.set(pid, ms);
      }
    }
    const service = processCpuTimes(this.pid);
    return { service: service ? service.user + service.system : NaN, serviceKernel: service?.system ?? NaN, backends };
  }

  /** CPU used between two samples, in ms: the service's (and of it, in the kernel) and the sum of the backends'. */
  static between(
    start: Awaited<ReturnType<ServerCpu["sample"]>>,
    end: Awaited<ReturnType<ServerCpu["sample"]>>,
  ): { service: number; serviceKernel: number; database: number } {
    let database = 0;
    for (const [pid, ms] of end.backends) database += ms - (start.backends.get(pid) ?? 0);
    return { service: end.service - start.service, serviceKernel: end.serviceKernel - start.serviceKernel, database };
  }

  async close(): Promise<void> {
    await this.monitor?.end();
  }
}
