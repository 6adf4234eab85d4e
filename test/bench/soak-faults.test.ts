import { expect } from "chai";
import { FAULT_KINDS } from "../../support/soak-faults";
import { startFaultProxy } from "../helpers/fault-proxy";
import { SuiteChain } from "../helpers/suite-chain";

/**
 * The soak's fault proxy draws each turn of a fault kind from the same seed (cycleFaults reseeds it), so every window
 * meets the same faults: which calls fail, how slow the node is. Without it, one window could draw a run of 429s that
 * doubles the instance's pause and another none, and their p99s would differ by what they drew.
 */
describe("the soak's faults", function () {
  this.timeout(60_000);
  const suite = SuiteChain.forSuite("own", async (chain) => ({ proxy: chain.closesWith(await startFaultProxy(chain.url)) }));

  /** The HTTP status of each of `n` calls sent one after another. */
  async function statuses(n: number): Promise<number[]> {
    const seen: number[] = [];
    for (let id = 0; id < n; id++) {
      const response = await fetch(suite().proxy.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "eth_chainId", params: [] }),
      });
      await response.arrayBuffer();
      seen.push(response.status);
    }
    return seen;
  }

  it("draws the same failures after each reseed, whatever was drawn before", async function () {
    const { proxy } = suite();
    proxy.plan = FAULT_KINDS.find((kind) => kind.name === "HTTP 429 and 502")!.plan;
    proxy.reseed(2);
    const first = await statuses(40);
    await statuses(7);
    proxy.reseed(2);
    const again = await statuses(40);
    expect(again).to.deep.equal(first);
    expect(first.filter((status) => status === 429 || status === 502).length).to.be.within(4, 24);
    proxy.reseed(3);
    expect(await statuses(40)).to.not.deep.equal(first);
  });

  it("holds each call of the slow kind back for a time within its bounds", async function () {
    const { proxy } = suite();
    proxy.plan = { delayMs: [150, 200] };
    proxy.reseed(6);
    const started = performance.now();
    expect(await statuses(3)).to.deep.equal([200, 200, 200]);
    expect(performance.now() - started).to.be.at.least(450);
    proxy.plan = {};
  });
});
