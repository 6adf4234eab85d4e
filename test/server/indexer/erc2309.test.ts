import { expect } from "chai";
import { getCreateAddress, ZeroAddress } from "ethers";
import { ConsecutiveNFT__factory, EventEmitterNFT__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { expectIndexMatchesChain, indexedTo } from "../../helpers/index-check";
import { recordRequestStatements } from "../../helpers/request-statements";
import { openSse, type SseEvent } from "../../helpers/sse";
import { SuiteChain } from "../../helpers/suite-chain";

describe("ERC-2309 ConsecutiveTransfer", function () {
  const MINTED = 5_000;
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const [deployer, a, b] = await Promise.all([0, 1, 2].map((i) => chain.signer(i)));
    // The classifier runs every 50 ms, so its statements run beside the requests whose statements a test counts.
    const t = chain.closesWith(
      await startTestApp({ listen: true, env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50", SPAM_CLASSIFY_INTERVAL_MS: "50" } }),
    );
    // The stream of the collection's changes, opened before it exists (its address is known in advance).
    const contract = getCreateAddress({ from: deployer.address, nonce: await chain.provider.getTransactionCount(deployer.address) });
    const stream = await openSse(`${t.url}/events/localhost?contract=${contract}`);
    chain.closesWith({ close: async () => stream.close() });
    const collection = await new ConsecutiveNFT__factory(deployer).deploy(a.address, MINTED);
    expect(await collection.getAddress()).to.equal(contract);
    for (const id of [1n, 2n, 3n]) await (await collection.connect(a).transferFrom(a.address, b.address, id)).wait();
    await (await collection.connect(a).burn(4n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 120_000);
    return { deployer, a, b, t, contract, stream, collection };
  });

  const head = () => suite().chain.provider.getBlockNumber();
  const get = async (path: string) => {
    const response = await suite().t.fetch(path);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  /** Every id of an owner's inventory of `contract`, following the pages. */
  async function inventoryIds(owner: string, of = suite().contract): Promise<number[]> {
    const { t } = suite();
    const ids: number[] = [];
    let path: string | undefined = `/inventory/localhost/${owner}/${of}?limit=1000`;
    while (path) {
      const response = await t.fetch(path);
      expect(response.status).to.equal(200);
      ids.push(...((await response.json()) as Array<{ id: number }>).map((i) => i.id));
      path = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
    }
    return ids;
  }

  it("indexes each id of a constructor's 5,000-id mint as a transfer: owners, inventory, holders", async function () {
    const { chain, t, a, b, contract } = suite();
    const mine = await inventoryIds(a.address);
    expect(mine).to.have.length(MINTED - 4);
    expect(mine.slice(0, 3)).to.deep.equal([0, 5, 6]);
    expect(mine[mine.length - 1]).to.equal(MINTED - 1);
    expect(await inventoryIds(b.address)).to.deep.equal([1, 2, 3]);
    expect((await get(`/holders/localhost/${contract}/count`)).body).to.deep.equal({ holders: 2 });
    expect((await get(`/holders/localhost/${contract}`)).body).to.deep.equal(
      [
        { owner: a.address, count: MINTED - 4 },
        { owner: b.address, count: 3 },
      ].sort((x, y) => (x.owner.toLowerCase() < y.owner.toLowerCase() ? -1 : 1)),
    );
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", contract, [0n, 1n, 2n, 3n, 4n, 5n, 7n, 4_999n, 5_000n]);
    await expectHoldingsMatchRecount(t.app.db, "localhost");
  });

  it("answers a minted id from the index (GET /token) and lists its mint in the histories", async function () {
    const { t, a, b, contract } = suite();
    const token = await get(`/token/localhost/${contract}/7`);
    expect(token.status).to.equal(200);
    expect(token.body.owner).to.equal(a.address);
    const mint = { from: ZeroAddress, to: a.address, contract, id: 7 };
    const seven = await get(`/transfers/localhost/${contract}/7`);
    expect(seven.body).to.have.length(1);
    expect(seven.body[0]).to.include(mint);
    const one = await get(`/transfers/localhost/${contract}/1`);
    expect(one.body.map((i: { from: string; to: string }) => [i.from, i.to])).to.deep.equal([
      [a.address, b.address],
      [ZeroAddress, a.address],
    ]);
    // The ids of one log page apart: newest first, each once.
    const first = await t.fetch(`/transfers/localhost/owner/${a.address}?limit=5`);
    const firstIds = ((await first.json()) as Array<{ id: number }>).map((i) => i.id);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")![1];
    const second = ((await (await t.fetch(next)).json()) as Array<{ id: number }>).map((i) => i.id);
    expect(firstIds).to.deep.equal([4, 3, 2, 1, 4_999]);
    expect(second).to.deep.equal([4_998, 4_997, 4_996, 4_995, 4_994]);
  });

  it("announces each minted id on the event stream", async function () {
    const { t, a, contract } = suite();
    // Reopened below when the server ends it.
    let { stream } = suite();
    // A burst of 5,000 events can outrun the stream's buffer: the server closes it, and the client resumes after the
    // last id it got (Last-Event-ID), as EventSource does.
    const events: SseEvent[] = [];
    const isBurn = (e: SseEvent) => e.event === "transfer" && JSON.parse(e.data).id === 4 && JSON.parse(e.data).to === ZeroAddress;
    for (let attempt = 0; attempt < 50 && !events.some(isBurn); attempt++) {
      if (attempt > 0) stream = await openSse(`${t.url}/events/localhost?contract=${contract}`, { "last-event-id": events.at(-1)!.id! });
      await stream.next(isBurn, 10_000).catch(() => undefined);
      events.push(...stream.events);
      stream.close();
    }
    const transfers = events.filter((e) => e.event === "transfer").map((e) => JSON.parse(e.data));
    expect(transfers).to.have.length(MINTED + 4);
    expect(transfers[7]).to.include({ from: ZeroAddress, to: a.address, id: 7 });
    expect(new Set(transfers.map((e) => e.id)).size).to.equal(MINTED);
  });

  it("rolls a range back with a reorg", async function () {
    const { chain, t, deployer, a, b, collection, contract } = suite();
    const snapshot = await chain.provider.send("evm_snapshot", []);
    const forkPoint = await head();
    const gone = await new ConsecutiveNFT__factory(deployer).deploy(b.address, 100);
    await (await collection.connect(a).transferFrom(a.address, b.address, 9n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider, forkPoint + 2, 120_000);
    expect(await inventoryIds(b.address, await gone.getAddress())).to.have.length(100);
    await chain.provider.send("evm_revert", [snapshot]);
    const kept = await new ConsecutiveNFT__factory(deployer).deploy(a.address, 50);
    await (await collection.connect(a).transferFrom(a.address, b.address, 10n)).wait();
    await (await collection.connect(a).transferFrom(a.address, b.address, 11n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider, forkPoint + 3, 120_000);
    expect(await inventoryIds(b.address, await gone.getAddress())).to.deep.equal([]);
    expect(await inventoryIds(a.address, await kept.getAddress())).to.have.length(50);
    expect(await inventoryIds(b.address)).to.deep.equal([1, 2, 3, 10, 11]);
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", contract, [9n, 10n, 11n, 12n]);
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", await kept.getAddress(), [0n, 49n, 50n]);
    await expectHoldingsMatchRecount(t.app.db, "localhost");
  });

  it("does not expand a range past the bound: the contract is marked as not fully indexed, and indexing goes on", async function () {
    const { chain, t, deployer, a, b, contract } = suite();
    const emitter = await new EventEmitterNFT__factory(deployer).deploy();
    const address = await emitter.getAddress();
    await (await emitter.consecutive(0n, 2n ** 256n - 1n, ZeroAddress, a.address)).wait();
    // A reversed range is not a range: nothing to expand either.
    await (await emitter.consecutive(10n, 9n, ZeroAddress, a.address)).wait();
    await (await emitter.consecutive(100n, 101n, ZeroAddress, b.address)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 120_000);
    expect(await inventoryIds(a.address, address)).to.deep.equal([]);
    expect(await inventoryIds(b.address, address)).to.deep.equal([100, 101]);
    // The statements each request sends, told from the indexer's and the classifier's, which run meanwhile.
    const recorder = recordRequestStatements(t);
    try {
      for (const path of [
        `/inventory/localhost/${b.address}/${address}`,
        `/holders/localhost/${address}`,
        `/holders/localhost/${address}?id=100`,
        `/holders/localhost/${address}/count`,
        `/transfers/localhost/${address}/100`,
        `/token/localhost/${address}/100`,
      ]) {
        const { answer, sent } = await recorder.during(() => t.inject(path));
        expect(answer.status, path).to.equal(200);
        expect(answer.headers.get("x-index-complete"), path).to.equal("false");
        // Completeness costs no statement of its own: the page's statement, which reads the cursor, tells it.
        const reads = sent.filter((sql) => sql.includes("nft_skipped_ranges"));
        expect(reads, path).to.have.length(1);
        expect(reads[0], path).to.include("indexer_cursors");
      }
    } finally {
      recorder.stop();
    }
    // A collection whose every range was expanded is complete: the header is left out.
    expect((await t.fetch(`/holders/localhost/${contract}`)).headers.get("x-index-complete")).to.equal(null);
    const metrics = await t.app.metrics!.registry.metrics();
    expect(metrics).to.match(/^indexer_ranges_skipped_total\{network="localhost"\} 2$/m);
  });
});
