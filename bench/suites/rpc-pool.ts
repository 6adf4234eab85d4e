import { Networks } from "../../server/chain/networks";
import { startLocalNode } from "../../local/node";
import { freePort } from "../../support/net";
import type { Row, Suite } from "../lib/suite";

const WORKERS = 16;

/**
 * `eth_chainId` through a network's provider, `WORKERS` calls in flight, for `seconds`: calls per second and how many
 * failed. `send` is never cached by ethers, so each call reaches a URL.
 */
async function calls(networks: Networks, seconds: number): Promise<{ perSecond: number; failed: number }> {
  const provider = networks.provider("localhost");
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (performance.now() < until) {
        await provider.send("eth_chainId", []).then(
          () => done++,
          () => failed++,
        );
      }
    }),
  );
  return { perSecond: done / seconds, failed };
}

const rpcPool: Suite = {
  onlyWhenNamed: true,
  method: [
    `JSON-RPC calls (eth_chainId, ${WORKERS} in flight) through a network's provider with one URL, then with two URLs of the same node, then with a dead URL (connections refused) listed first beside the node's.`,
    "The one-URL figure, measured before and after the others (after a warm-up round) and averaged, is the baseline: the pool's choice costs per call, and a dead URL costs the first call of each cool-down (RPC_COOLDOWN_MS, 5 s here).",
  ],
  async run({ seconds, log }) {
    const node = await startLocalNode();
    // A port that refuses: nothing listens on it.
    const dead = `http://127.0.0.1:${await freePort()}`;
    const rows: Row[] = [];
    try {
      const measure = async (label: string, urls: string[]) => {
        log(`${label}, ${seconds} s`);
        const networks = new Networks({ localhost: urls }, 5_000, { cooldownMs: 5_000 });
        try {
          return await calls(networks, seconds);
        } finally {
          networks.close();
        }
      };
      // A first round warms the node and the JIT up; the baseline is measured before and after the others, averaged.
      await measure("warm-up, one URL", [node.url]);
      const before = await measure("one URL", [node.url]);
      const two = await measure("two URLs", [node.url, node.url]);
      const down = await measure("a dead URL first", [dead, node.url]);
      const after = await measure("one URL again", [node.url]);
      const one = { perSecond: (before.perSecond + after.perSecond) / 2, failed: before.failed + after.failed };
      for (const [metric, result] of [
        ["two URLs of one node", two],
        ["a dead URL listed first", down],
      ] as const) {
        rows.push({
          suite: "rpc-pool",
          metric: `${metric}, calls/s (${result.failed} failed)`,
          value: result.perSecond,
          unit: "calls/s",
          reference: { label: `one URL (${one.failed} failed)`, value: one.perSecond },
          ratio: result.perSecond / one.perSecond,
        });
      }
      return rows;
    } finally {
      await node.stop();
    }
  },
};

export default rpcPool;
