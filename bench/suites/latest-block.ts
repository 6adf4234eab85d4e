import { startLocalNode } from "../../local/node";
import { CONNECTIONS, load } from "../lib/load";
import { startService } from "../lib/service";
import type { Row, Suite } from "../lib/suite";

const latestBlock: Suite = {
  method: ["The latest-block route at 32 connections, beside bare `eth_blockNumber` calls to the same node: the node is the limit."],
  async run({ seconds, log }) {
    const node = await startLocalNode();
    const app = await startService({ RPC_URL_LOCALHOST: node.url });
    try {
      log(`bare eth_blockNumber, ${CONNECTIONS} connections, ${seconds} s`);
      const bare = await load({
        what: "bare eth_blockNumber",
        url: node.url,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
        connections: CONNECTIONS,
        seconds,
      });
      log(`GET /block/localhost/latest, ${CONNECTIONS} connections, ${seconds} s`);
      const route = await load({ what: "latest block", url: `${app.url}/block/localhost/latest`, connections: CONNECTIONS, seconds });
      const rows: Row[] = [
        {
          suite: "latest-block",
          metric: `GET /block/:network/latest, ${CONNECTIONS} conn`,
          value: route.requestsPerSecond,
          unit: "req/s",
          reference: { label: "bare eth_blockNumber", value: bare.requestsPerSecond },
          ratio: route.requestsPerSecond / bare.requestsPerSecond,
        },
        {
          suite: "latest-block",
          metric: `p99 latency, ${CONNECTIONS} conn`,
          value: route.p99Ms,
          unit: "ms",
          reference: { label: "bare eth_blockNumber", value: bare.p99Ms },
        },
      ];
      return rows;
    } finally {
      await app.stop();
      await node.stop();
    }
  },
};

export default latestBlock;
