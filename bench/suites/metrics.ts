import { startLocalNode } from "../../local/node";
import { freePort } from "../../support/net";
import { expectOk } from "../lib/answers";
import { CONNECTIONS, load, percentile, type LoadResult } from "../lib/load";
import { startService } from "../lib/service";
import type { Row, Suite } from "../lib/suite";

const FULL_SCRAPES = 50;
const SMOKE_SCRAPES = 5;

const metrics: Suite = {
  method: [
    "What collecting metrics costs: the latest-block route at 32 connections with `METRICS` on and off, and the median of 50 scrapes of `GET /metrics` once the service has answered some load.",
  ],
  async run({ seconds, log, smoke }) {
    const SCRAPES = smoke ? SMOKE_SCRAPES : FULL_SCRAPES;
    const node = await startLocalNode();
    try {
      const loadOf = async (enabled: boolean): Promise<{ route: LoadResult; scrape?: { ms: number; bytes: number } }> => {
        const port = await freePort();
        const app = await startService({ RPC_URL_LOCALHOST: node.url, METRICS: String(enabled), METRICS_PORT: String(port) });
        try {
          log(`GET /block/localhost/latest, METRICS=${enabled}, ${CONNECTIONS} connections, ${seconds} s`);
          const route = await load({
            what: `latest block, METRICS=${enabled}`,
            url: `${app.url}/block/localhost/latest`,
            connections: CONNECTIONS,
            seconds,
          });
          if (!enabled) return { route };
          const times: number[] = [];
          let bytes = 0;
          for (let i = 0; i < SCRAPES; i++) {
            const started = performance.now();
            const answer = await expectOk("GET /metrics", await fetch(`http://127.0.0.1:${port}/metrics`));
            bytes = (await answer.arrayBuffer()).byteLength;
            times.push(performance.now() - started);
          }
          return { route, scrape: { ms: percentile(times, 50), bytes } };
        } finally {
          await app.stop();
        }
      };
      const off = await loadOf(false);
      const on = await loadOf(true);
      const rows: Row[] = [
        {
          suite: "metrics",
          metric: `GET /block/:network/latest with METRICS=true, ${CONNECTIONS} conn`,
          value: on.route.requestsPerSecond,
          unit: "req/s",
          reference: { label: "METRICS=false", value: off.route.requestsPerSecond },
          ratio: on.route.requestsPerSecond / off.route.requestsPerSecond,
        },
        {
          suite: "metrics",
          metric: `p99 latency with METRICS=true, ${CONNECTIONS} conn`,
          value: on.route.p99Ms,
          unit: "ms",
          reference: { label: "METRICS=false", value: off.route.p99Ms },
        },
        { suite: "metrics", metric: `GET /metrics, median of ${SCRAPES}`, value: on.scrape!.ms, unit: "ms" },
        { suite: "metrics", metric: "GET /metrics answer size", value: on.scrape!.bytes / 1024, unit: "KiB" },
      ];
      return rows;
    } finally {
      await node.stop();
    }
  },
};

export default metrics;
