import { expect } from "chai";
import { NODE_ERRORS, type FaultPlan, type FaultProxy } from "../../helpers/fault-proxy";
import { indexedTo } from "../../helpers/index-check";
import { OneByOneMints } from "../../helpers/one-by-one-mints";
import { startProxiedApp } from "../../helpers/proxied-app";
import { SuiteChain } from "../../helpers/suite-chain";

/**
 * The indexer behind a misbehaving provider (a seeded fault-injecting proxy between it and a real node): whatever the
 * provider answers, the index ends equal to the chain.
 */
describe("indexer behind a faulty provider", function () {
  this.timeout(120_000);
  const suite = SuiteChain.forSuite("own", async (chain) => ({ mints: await OneByOneMints.deploy(chain.provider, 3) }));

  /** An app indexing through a fault proxy with `plan`, with its proxy. */
  const faultyApp = (plan: FaultPlan, env: Record<string, string> = {}, seed = 7) =>
    startProxiedApp(suite().chain.url, { proxy: { seed, plan }, env: { INDEXER_POLL_MS: "50", RPC_TIMEOUT_MS: "3000", ...env } });

  /** RPC calls per block indexed through `proxy`, printed for the record (a bench reports it; no test asserts on it). */
  async function reportCalls(name: string, proxy: FaultProxy, blocks: number): Promise<void> {
    const perBlock = (proxy.calls.length / Math.max(1, blocks)).toFixed(1);
    console.log(
      `      rpc calls (${name}): ${proxy.calls.length} for ${blocks} blocks, ${perBlock}/block, ${proxy.injected} faults injected`,
    );
  }

  it("loses no transfer when eth_getLogs answers from a backend whose log index trails its head", async function () {
    const { chain, mints } = suite();
    const { t, proxy, close } = await faultyApp({ logsLag: 3 });
    try {
      await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
      const start = await chain.provider.getBlockNumber();
      await mints.mint(12);
      await mints.expectIndexEqualsChain(t.app.db);
      expect(proxy.injected).to.be.greaterThan(0);
      await reportCalls("lagging logs", proxy, (await chain.provider.getBlockNumber()) - start);
    } finally {
      await close();
    }
  });

  it("takes a null header for a block not served yet: no rollback, no removed event, and it waits with a pause", async function () {
    const { chain, mints } = suite();
    const { t, proxy, close } = await faultyApp({});
    try {
      await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
      // The blocks the head announces are not served yet: the cursor's block among them.
      proxy.plan = { nullHeaders: 3 };
      await mints.mint(4);
      const before = proxy.countByMethod().eth_getBlockByNumber ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // A pause between tries, not a busy loop (hundreds of calls a second).
      expect((proxy.countByMethod().eth_getBlockByNumber ?? 0) - before).to.be.below(150);
      proxy.plan = {};
      await mints.expectIndexEqualsChain(t.app.db);
      const { rows } = await t.app.db.query<{ kind: string; n: number }>(
        "SELECT kind, count(*)::int AS n FROM nft_changes WHERE network_id = (SELECT id FROM indexer_networks WHERE name = 'localhost') AND kind <> 'transfer' GROUP BY kind",
      );
      expect(rows).to.deep.equal([]);
    } finally {
      await close();
    }
  });

  it("keeps indexing while a quarter of the calls fail: a failed call is tried again, not the whole step", async function () {
    const { chain, mints } = suite();
    // A cold sync of many blocks with transfers: one step reads a header per block (Hardhat's logs carry no time).
    await mints.mint(30);
    const { t, proxy, close } = await faultyApp({
      failRate: 0.25,
      failWith: [NODE_ERRORS.headerNotFound, NODE_ERRORS.internal, NODE_ERRORS.badGateway, NODE_ERRORS.tooManyRequests],
    });
    try {
      await mints.expectIndexEqualsChain(t.app.db);
      expect(proxy.injected).to.be.greaterThan(0);
      await reportCalls("25 % failed calls", proxy, await chain.provider.getBlockNumber());
    } finally {
      await close();
    }
  });
});
