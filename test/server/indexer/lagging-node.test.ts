import { expect } from "chai";
import { keccak256, toUtf8Bytes, type JsonRpcProvider } from "ethers";
import { DEEP_REORG_CHECKS } from "../../../server/indexer/network-indexer";
import { REORG_WINDOW } from "../../../server/indexer/store/blocks";
import { AliceNFT__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { startFaultProxy, type FaultPlan } from "../../helpers/fault-proxy";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { expectIndexMatchesChain, INDEXED_OWNERS, indexedTo } from "../../helpers/index-check";
import { OneByOneMints } from "../../helpers/one-by-one-mints";
import { startProxiedApp } from "../../helpers/proxied-app";
import { SuiteChain } from "../../helpers/suite-chain";
import { pollUntil } from "../../helpers/waiters";

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * A node left on a branch that left the chain `provider` serves after `forkPoint`, with `head` as its head: its own
 * headers above the fork point (hashes chained from it, numbers past the chain's head where the branch is longer), and
 * none of the chain's logs there.
 */
async function onBranch(provider: JsonRpcProvider, { forkPoint, head }: { forkPoint: number; head: number }): Promise<FaultPlan> {
  const forkHash = (n: number) => keccak256(toUtf8Bytes(`abandoned ${n}`));
  const chainHead = await provider.getBlockNumber();
  const branch = new Map<number, Record<string, unknown>>();
  for (let n = forkPoint + 1; n <= head; n++) {
    const header = (await provider.send("eth_getBlockByNumber", [hex(Math.min(n, chainHead)), false])) as Record<string, unknown>;
    branch.set(n, {
      ...header,
      number: hex(n),
      hash: forkHash(n),
      parentHash: n === forkPoint + 1 ? header.parentHash : forkHash(n - 1),
      transactions: [],
    });
  }
  const branchHashes = new Set([...branch.values()].map((header) => header.hash));
  return {
    refuse: async (call) => {
      if (call.method === "eth_blockNumber") return { result: hex(head) };
      if (call.method === "eth_getBlockByNumber" && typeof call.params[0] === "string" && call.params[0].startsWith("0x")) {
        const n = Number(call.params[0]);
        return n > head ? { result: null } : branch.has(n) ? { result: branch.get(n) } : undefined;
      }
      if (call.method === "eth_getLogs") {
        const filter = call.params[0] as { fromBlock?: string; toBlock?: string; blockHash?: string };
        if (filter.blockHash) return branchHashes.has(filter.blockHash) ? { result: [] } : undefined;
        if (Number(filter.fromBlock) > forkPoint) return { result: [] };
        if (Number(filter.toBlock) > forkPoint)
          return { result: await provider.send("eth_getLogs", [{ ...filter, toBlock: hex(forkPoint) }]) };
      }
      return undefined;
    },
  };
}

/**
 * A node whose head goes backwards (a load-balanced provider whose backends differ, a node restarted from an older
 * state) answers an older head and no header above it. That is no reorg: the index keeps what it has, waits, and
 * goes on once the node serves the blocks again, even when the node is further behind than the reorg window, where
 * taking it as a reorg would reindex the network from scratch.
 */
describe("indexer behind a node whose head goes backwards", function () {
  this.timeout(180_000);
  const lines: Array<Record<string, unknown>> = [];
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const mints = await OneByOneMints.deploy(chain.provider, 2);
    const { t, proxy } = chain.closesWith(
      await startProxiedApp(chain.url, {
        env: { INDEXER_POLL_MS: "50", RPC_TIMEOUT_MS: "3000", LOG_LEVEL: "info" },
        logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
      }),
    );
    return { mints, t, proxy };
  });

  const cursor = async () => {
    const { t } = suite();
    return Number(
      (await t.app.db.query<{ b: string }>("SELECT block_number AS b FROM indexer_cursors WHERE network = 'localhost'")).rows[0]?.b ?? -1,
    );
  };
  const rollbacks = () => lines.filter((line) => /indexer: reorg|indexed chain is gone/.test(String(line.msg)));

  /** The node answers as if its head were `lagHead`: that head, and no header above it. */
  function behindAt(lagHead: number): FaultPlan {
    return {
      refuse: (call) => {
        if (call.method === "eth_blockNumber") return { result: `0x${lagHead.toString(16)}` };
        if (call.method === "eth_getBlockByNumber" && typeof call.params[0] === "string" && call.params[0].startsWith("0x"))
          return Number(call.params[0]) > lagHead ? { result: null } : undefined;
        return undefined;
      },
    };
  }

  /** Waits while the indexer asks the lagging node `steps` more heads: it had every chance to act on what it saw. */
  async function whileItAsks(steps: number) {
    const { proxy } = suite();
    const asked = () => proxy.calls.filter((call) => call.method === "eth_blockNumber").length;
    const target = asked() + steps;
    const deadline = Date.now() + 60_000;
    while (asked() < target) {
      if (Date.now() > deadline) throw new Error("the indexer stopped asking for the head");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function expectNoRollback() {
    const { rows } = await suite().t.app.db.query<{ kind: string; n: number }>(
      "SELECT kind, count(*)::int AS n FROM nft_changes WHERE network_id = (SELECT id FROM indexer_networks WHERE name = 'localhost') AND kind <> 'transfer' GROUP BY kind",
    );
    expect(rollbacks(), "reorg log lines").to.deep.equal([]);
    expect(rows, "removed changes").to.deep.equal([]);
  }

  /**
   * The node answers as `lagging` plans from the indexed block (behind it, or on a branch) while a token is minted: the
   * cursor stays while it does, then the index catches up once the node is back, equal to the chain, with nothing
   * rolled back.
   */
  async function whileLagging(lagging: (indexed: number) => FaultPlan | Promise<FaultPlan>) {
    const { t, chain, mints, proxy } = suite();
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 120_000);
    const indexed = await cursor();
    proxy.plan = await lagging(indexed);
    await mints.mint(1);
    await whileItAsks(6);
    expect(await cursor()).to.equal(indexed);
    proxy.plan = {};
    await mints.expectIndexEqualsChain(t.app.db);
    await expectNoRollback();
  }

  it("a head a few blocks back: no rollback, the cursor stays, and the index goes on once the node is back", async function () {
    const { mints } = suite();
    await mints.mint(4);
    await whileLagging((indexed) => behindAt(indexed - 3));
  });

  it(`a node behind by more than the reorg window (${REORG_WINDOW} blocks): no reindex from scratch`, async function () {
    const { chain, mints } = suite();
    // Block by block: hardhat_mine's many blocks at once do not chain their hashes as mined blocks do.
    for (let i = 0; i < REORG_WINDOW + 50; i++) await chain.provider.send("evm_mine", []);
    await mints.mint(1);
    await whileLagging((indexed) => behindAt(indexed - REORG_WINDOW - 20));
  });

  // Every block of the window at or below the node's head has another hash there, as on a new chain shorter than the
  // index (the next test): the blocks the index keeps below the window, which the branch still has, tell the two apart.
  it(`a node behind on an abandoned branch deeper than the reorg window: no reindex from scratch, and the index equals the chain`, async function () {
    const { chain, mints } = suite();
    // The previous test mined past the window; a token is minted here so that the index has one to lose.
    await mints.mint(1);
    await whileLagging(async (indexed) => {
      const lagHead = indexed - 5;
      const forkPoint = lagHead - REORG_WINDOW - 20;
      expect(forkPoint).to.be.greaterThan(0);
      return onBranch(chain.provider, { forkPoint, head: lagHead });
    });
    expect(lines.filter((line) => /below the reorg window; waiting/.test(String(line.msg))).length, "waiting log lines").to.equal(1);
    expect(lines.filter((line) => line.msg === "indexer: the node serves the indexed chain again").length).to.equal(1);
  });

  // A load balancer may answer one call of a check from a backend on the branch and the next from one on the chain: the
  // head and the first header from the branch, every answer after them from the chain.
  it(`answers from a lagging branch and from the chain within one check: nothing rolled back`, async function () {
    const { chain, mints, t, proxy } = suite();
    await mints.mint(1);
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 120_000);
    const indexed = await cursor();
    const lagHead = indexed - 5;
    const branch = await onBranch(chain.provider, { forkPoint: lagHead - REORG_WINDOW - 20, head: lagHead });
    let served = false;
    proxy.plan = {
      refuse: async (call) => {
        if (served) return undefined;
        const answer = await branch.refuse!(call);
        // The first header the branch serves (at or below its head) is its last answer: the chain answers from then on.
        if (call.method === "eth_getBlockByNumber" && answer && "result" in answer && answer.result) served = true;
        return answer;
      },
    };
    await pollUntil("the branch's first header served", async () => served, 60_000);
    await mints.mint(1);
    await whileItAsks(3);
    proxy.plan = {};
    await mints.expectIndexEqualsChain(t.app.db);
    await expectNoRollback();
  });

  it(`a node whose own left the index below the reorg window and is as long: rolled back that deep after ${DEEP_REORG_CHECKS} polls in a row`, async function () {
    const { chain, mints, t, proxy } = suite();
    await mints.mint(1);
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 120_000);
    const indexed = await cursor();
    const forkPoint = indexed - REORG_WINDOW - 20;
    const branchHead = indexed + 3;
    const deep = () => lines.filter((line) => /^indexer: reorg deeper than the window/.test(String(line.msg)));
    proxy.plan = await onBranch(chain.provider, { forkPoint, head: branchHead });
    // The chain the branch left: what it has after the fork point is not on the branch.
    await mints.mint(1);
    await pollUntil("the cursor at the branch's head", async () => (await cursor()) === branchHead, 60_000);
    expect(deep().length, "deep rollbacks").to.equal(1);
    expect(deep()[0]).to.include({ checks: DEEP_REORG_CHECKS });
    expect(deep()[0].ancestor).to.be.at.most(forkPoint);
    const { rows } = await t.app.db.query<{ newest: number | null }>(
      "SELECT max(block_number)::int AS newest FROM nft_transfers WHERE network_id = (SELECT id FROM indexer_networks WHERE name = 'localhost')",
    );
    expect(rows[0].newest, "the newest transfer indexed on the branch").to.be.at.most(forkPoint);
    // Back on the chain, longer than the branch by then: rolled back that deep again, and equal to it.
    for (let i = 0; i < 5; i++) await chain.provider.send("evm_mine", []);
    proxy.plan = {};
    await mints.expectIndexEqualsChain(t.app.db);
    expect(deep().length, "deep rollbacks").to.equal(2);
    expect(lines.filter((line) => /indexed chain is gone/.test(String(line.msg)))).to.deep.equal([]);
  });

  it(`a new chain shorter than the index by more than the reorg window (a devnet started again): indexed again from the start`, async function () {
    const { chain, mints, t, proxy } = suite();
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 120_000);
    expect(await cursor()).to.be.greaterThan(REORG_WINDOW + 10);
    const fresh = await SuiteChain.ownNode();
    try {
      const token = await new AliceNFT__factory(await fresh.provider.getSigner(0)).deploy(mints.users[0]);
      await (await token.connect(await fresh.provider.getSigner(1)).mint(mints.users[1], 5n)).wait();
      // The same URL now answers as the new node does: every call forwarded to it.
      proxy.plan = {
        refuse: async (call) => {
          const answer = (await (
            await fetch(fresh.url, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: call.method, params: call.params }),
            })
          ).json()) as { result?: unknown; error?: { code: number; message: string } };
          return answer.error ? { rpcError: answer.error } : { result: answer.result };
        },
      };
      await indexedTo(t.app.db, "localhost", fresh.provider, await fresh.provider.getBlockNumber(), 60_000);
      const { rows } = await t.app.db.query<{ contract: string; owner: string }>(
        `SELECT contract, owner FROM ${INDEXED_OWNERS} WHERE network = 'localhost'`,
      );
      expect(rows).to.deep.equal([{ contract: (await token.getAddress()).toLowerCase(), owner: mints.users[1].toLowerCase() }]);
      expect(lines.filter((line) => /indexed chain is gone/.test(String(line.msg))).length, "start-over log lines").to.equal(1);
    } finally {
      proxy.plan = {};
      await fresh.close();
    }
    // Back on the first chain, the index of the new one is gone in turn.
    await mints.expectIndexEqualsChain(t.app.db);
  });
});

/**
 * With several URLs, one on a branch that left the chain below the reorg window is alone on it: it is passed over,
 * and the index goes on through the others, with nothing rolled back, even where its branch is longer than the index.
 */
describe("indexer with several URLs, one on a branch that left the chain below the reorg window", function () {
  this.timeout(180_000);
  const lines: Array<Record<string, unknown>> = [];
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const users = await Promise.all([1, 2].map(async (i) => (await chain.signer(i)).address));
    const alice = await chain.deployAlice();
    const a = chain.closesWith(await startFaultProxy(chain.url));
    // `b` answers later than `a`: the pool sends each call to `a` while it is up.
    const b = chain.closesWith(
      await startFaultProxy(chain.url, { plan: { refuse: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 100)) } }),
    );
    const t = chain.closesWith(
      await startTestApp({
        env: {
          RPC_URL_LOCALHOST: `${a.url},${b.url}`,
          INDEXER_POLL_MS: "50",
          RPC_TIMEOUT_MS: "3000",
          // Short: a call of `a` that failed while the node mined (it is passed over for this long) leaves it the faster URL soon.
          RPC_COOLDOWN_MS: "2000",
          LOG_LEVEL: "info",
        },
        logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
      }),
    );
    return { users, alice, a, b, t };
  });

  it("a longer branch on the URL fastest again after a slow spell: that URL is passed over, the index goes on through the other, nothing rolled back", async function () {
    const { chain, users, alice, a, b, t } = suite();
    await (await alice.mint(users[0], 1n)).wait();
    for (let i = 0; i < REORG_WINDOW + 30; i++) await chain.provider.send("evm_mine", []);
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 120_000);
    const { rows } = await t.app.db.query<{ b: string }>("SELECT block_number AS b FROM indexer_cursors WHERE network = 'localhost'");
    const indexed = Number(rows[0].b);
    // A slow spell of `a` (a loaded machine, a node busy mining) first: its average passes `b`'s and the calls go to `b`,
    // so `a` is asked again only once its average has aged below `b`'s (docs/operations/running.md).
    const toB = b.calls.length;
    a.plan = { refuse: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 600)) };
    await pollUntil("the calls going to b while a is slow", async () => b.calls.length > toB + 3, 60_000);
    const branch = await onBranch(chain.provider, { forkPoint: indexed - REORG_WINDOW - 10, head: indexed + 5 });
    a.plan = branch;
    const passedOver = () => lines.find((line) => String(line.msg).startsWith("indexer: a URL serves a branch"));
    await pollUntil("a's branch found and a passed over", async () => passedOver() !== undefined);
    await (await alice.mint(users[1], 2n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", await alice.getAddress(), [1n, 2n, 3n]);
    await expectHoldingsMatchRecount(t.app.db, "localhost");
    expect(
      lines.filter((line) => /indexer: reorg|indexed chain is gone|below the reorg window; waiting/.test(String(line.msg))),
    ).to.deep.equal([]);
    const { rows: changes } = await t.app.db.query<{ kind: string }>("SELECT DISTINCT kind FROM nft_changes WHERE kind <> 'transfer'");
    expect(changes, "removed changes").to.deep.equal([]);
    const host = new URL(a.url).host;
    expect(passedOver()).to.deep.include({
      network: "localhost",
      diverging: [host],
      serving: [new URL(b.url).host],
    });
    expect(lines.find((line) => line.msg === "rpc provider down")).to.deep.include({
      network: "localhost",
      provider: host,
      fault: "diverged",
    });
  });
});
