import { startLocalNode } from "../../local/node";
import { CONNECTIONS, load, type LoadResult } from "../lib/load";
import { startService, startTogether, type Service } from "../lib/service";
import type { Row, Suite } from "../lib/suite";

/** Requests counted, of warm-up, and rounds: the full run's, then the smoke's. */
const FULL = { counted: 2_000, warmUp: 5_000, rounds: 3 };
const SMOKE = { counted: 100, warmUp: 100, rounds: 1 };
const PATH = "/block/localhost/latest";

/** Requests from many clients: each request names another address (TRUST_PROXY is on in this suite). */
function manyClients(): () => { path: string; headers: Record<string, string> } {
  let n = 0;
  return () => {
    n++;
    return { path: PATH, headers: { "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } };
  };
}

const sharedLimits: Suite = {
  method: [
    "A rate-limited data route (GET /block/:network/latest, the data routes' budget) at 32 connections, on two services of the same run on PostgreSQL: the counts shared in the database (RATE_LIMIT_STORE=database: one UPSERT at a time per instance, carrying the counts that arrived meanwhile) and in memory (RATE_LIMIT_STORE=memory).",
    "Once from one client (every count on one row, the worst case for the database), once from a new client address per request; the limit is set out of reach, so every request is answered.",
    "Three rounds, the order of the stores swapped each round: requests per second are the median round's, the p99 the worst round's.",
    "Each service first answers 5,000 requests of warm-up; statements per request are counted on the wire over 2,000 requests from one client at 4 connections.",
    "On PGlite there is nothing to compare (its counts are always in memory): the suite says so and measures nothing.",
  ],
  async run({ seconds, log, database, smoke }) {
    const { counted: COUNTED, warmUp: WARM_UP, rounds: ROUNDS } = smoke ? SMOKE : FULL;
    if (database !== "PostgreSQL") {
      log("skipped: the shared store needs PostgreSQL (set DATABASE_URL)");
      return [];
    }
    const node = await startLocalNode();
    const env = { RPC_URL_LOCALHOST: node.url, TRUST_PROXY: "true" };
    const services: Record<"database" | "memory", Service | undefined> = { database: undefined, memory: undefined };
    try {
      const stores = ["database", "memory"] as const;
      await startTogether(
        stores.map((store) => () => startService({ ...env, RATE_LIMIT_STORE: store }, undefined, { countQueries: true })),
        (service, i) => (services[stores[i]] = service),
      );
      // Warmed up alike, so that neither is measured while its code is still compiled.
      for (const service of [services.memory!, services.database!])
        await load({ what: "warm-up", url: `${service.url}${PATH}`, connections: CONNECTIONS, amount: WARM_UP });
      // Interleaved in rounds, so that a change of the machine's load during the run falls on both stores alike.
      const slices: Record<string, LoadResult[]> = {};
      for (let round = 1; round <= ROUNDS; round++) {
        for (const clients of ["one client", "many clients"] as const) {
          for (const store of round % 2 ? (["memory", "database"] as const) : (["database", "memory"] as const)) {
            log(`round ${round}: ${store} store, ${clients}, ${CONNECTIONS} connections, ${seconds} s`);
            const url = `${services[store]!.url}${PATH}`;
            const result = await load({
              what: `${store} store, ${clients}`,
              url,
              connections: CONNECTIONS,
              seconds,
              ...(clients === "many clients" ? { next: manyClients() } : {}),
            });
            (slices[`${store} ${clients}`] ??= []).push(result);
          }
        }
      }
      // Requests per second: the median round's; p99: the worst round's.
      const results: Record<string, LoadResult> = {};
      for (const [key, runs] of Object.entries(slices)) {
        const rates = runs.map((run) => run.requestsPerSecond).sort((x, y) => x - y);
        results[key] = {
          ...runs[0],
          requestsPerSecond: rates[Math.floor(rates.length / 2)],
          p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
        };
      }
      const perRequest: Record<string, number> = {};
      for (const store of ["memory", "database"] as const) {
        const service = services[store]!;
        const before = service.queryCounts()!.statements;
        await load({ what: `${store} store, counted`, url: `${service.url}${PATH}`, connections: 4, amount: COUNTED });
        perRequest[store] = (service.queryCounts()!.statements - before) / COUNTED;
      }
      const rows: Row[] = [];
      for (const clients of ["one client", "many clients"] as const) {
        const shared = results[`database ${clients}`];
        const memory = results[`memory ${clients}`];
        rows.push(
          {
            suite: "shared-limits",
            metric: `limited data route, shared counts, ${clients}, ${CONNECTIONS} conn`,
            value: shared.requestsPerSecond,
            unit: "req/s",
            reference: { label: "counts in memory", value: memory.requestsPerSecond },
            ratio: shared.requestsPerSecond / memory.requestsPerSecond,
          },
          {
            suite: "shared-limits",
            metric: `p99 latency, shared counts, ${clients}, ${CONNECTIONS} conn`,
            value: shared.p99Ms,
            unit: "ms",
            reference: { label: "counts in memory", value: memory.p99Ms },
          },
        );
      }
      rows.push({
        suite: "shared-limits",
        metric: "statements per limited request, shared counts",
        value: perRequest.database,
        unit: "statements",
        reference: { label: "counts in memory", value: perRequest.memory },
      });
      return rows;
    } finally {
      for (const service of Object.values(services)) await service?.stop();
      await node.stop();
    }
  },
};

export default sharedLimits;
