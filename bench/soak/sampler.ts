import fs from "node:fs";
import os from "node:os";
import type { Queryable } from "../../server/db/database";
import type { Sample } from "../../support/soak-verdict";
import type { Answers } from "./answers";
import type { Inspector } from "./inspector";

export type { Sample } from "../../support/soak-verdict";

/** A value of the Prometheus text exposition, the first series of `name` whose labels include `labels`. */
function metric(text: string, name: string, labels = ""): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name) || (line[name.length] !== " " && line[name.length] !== "{")) continue;
    if (labels && !line.includes(labels)) continue;
    return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return NaN;
}

function socketsOf(pid: number): number {
  const dir = `/proc/${pid}/fd`;
  let sockets = 0;
  for (const fd of fs.readdirSync(dir)) {
    try {
      if (fs.readlinkSync(`${dir}/${fd}`).startsWith("socket:")) sockets++;
    } catch {
      // closed while read
    }
  }
  return sockets;
}

/** Takes a sample of the service (`pid`, its metrics listener at `metricsUrl`) and hands the window's answers over. */
export async function takeSample(options: {
  pid: number;
  metricsUrl: string;
  inspector: Inspector;
  database: { db: Queryable; name: string };
  answers: Answers;
  t: number;
  restart: boolean;
}): Promise<Sample> {
  const text = await (await fetch(options.metricsUrl)).text();
  const { rows } = await options.database.db
    .query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [
      options.database.name,
    ])
    .catch(() => ({ rows: [{ n: NaN }] }));
  const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  // After the scrape, so that the metrics show the heap as it was; the collection is the service's own, a full one.
  const live = await options.inspector.liveMemory();
  return {
    t: Math.round(options.t),
    at: new Date().toISOString(),
    rssMiB: mib(metric(text, "process_resident_memory_bytes")),
    heapUsedMiB: mib(metric(text, "nodejs_heap_size_used_bytes")),
    liveRssMiB: live.rssMiB,
    liveHeapMiB: live.heapUsedMiB,
    heapSpacesMiB: live.spacesMiB,
    eventLoopP99Ms: Math.round(metric(text, "nodejs_eventloop_lag_p99_seconds") * 10_000) / 10,
    handles: metric(text, "nodejs_active_handles_total"),
    sockets: socketsOf(options.pid),
    databaseConnections: rows[0].n,
    load1: Math.round(os.loadavg()[0] * 100) / 100,
    restart: options.restart,
    ...options.answers.take(),
  };
}
