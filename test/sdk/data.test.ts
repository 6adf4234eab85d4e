import { expect } from "chai";
import { Wallet } from "ethers";
import { ApiError, createDataClient, type InventoryItem, type Page } from "../../sdk/src/index";
import { MetadataNFT__factory, TestERC1155__factory } from "../../typechain-types";
import { startOfMinute, startTestApp } from "../helpers/app";
import { expectRefusal } from "../helpers/refusal";
import { rejection, sdkRefusal } from "../helpers/sdk";
import { SuiteChain } from "../helpers/suite-chain";

/** A tokenURI whose document is `{name}`. */
const uri = (name: string) => `data:application/json,${encodeURIComponent(JSON.stringify({ name }))}`;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe("SDK data client against the service", function () {
  const BIG_ID = 2n ** 70n + 1n;
  const BIG_AMOUNT = 2n ** 64n + 7n;
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const [a, b] = await Promise.all([4, 5].map((i) => chain.signer(i)));
    const alice = await chain.deployAlice();
    const multi = await new TestERC1155__factory(await chain.signer(0)).deploy();
    const [aliceAddress, multiAddress] = await Promise.all([alice.getAddress(), multi.getAddress()]);
    await (await alice.mintBatch(a.address, [1n, 2n, 3n, 4n, 5n])).wait();
    // The block at whose end a held every Alice token minted so far, and b none.
    const onlyA = (await (await alice.mint(a.address, BIG_ID)).wait())!.blockNumber;
    await (await alice.mint(b.address, 7n)).wait();
    await (await multi.mint(a.address, 9n, BIG_AMOUNT)).wait();
    // A MetadataNFT whose token 1 has the metadata {name: "Before"}.
    const metadataNft = await new MetadataNFT__factory(await chain.signer(0)).deploy();
    const metadataAddress = await metadataNft.getAddress();
    await (await metadataNft.mint(Wallet.createRandom().address, 1n, uri("Before"))).wait();
    // The last block before token 5 went from a to b.
    const beforeMove = (await (await alice.connect(a).transferFrom(a.address, b.address, 5n)).wait())!.blockNumber - 1;
    const t = await chain.startIndexingApp({
      listen: true,
      env: {
        INDEXER_CONTRACTS_LOCALHOST: `${aliceAddress},${multiAddress},${metadataAddress}`,
        // The operator's word flags the ERC-1155 contract as spam at once, without waiting for the classifier.
        SPAM_CONTRACTS: `localhost:${multiAddress}`,
      },
    });
    const client = createDataClient({ baseUrl: t.url, network: "localhost" });
    return { a, b, alice, aliceAddress, multiAddress, metadataAddress, onlyA, beforeMove, t, client };
  });

  it("reads blocks and gas as decimal strings and times as numbers", async function () {
    const { client, chain } = suite();
    const latest = await client.latestBlock();
    expect(latest).to.match(/^\d+$/);
    expect(BigInt(latest)).to.be.at.least(BigInt(await chain.provider.getBlockNumber()) - 1n);
    const block = await chain.provider.getBlock(1);
    expect(await client.blockTime(1)).to.equal(block!.timestamp);
    expect(await client.blockTime(1n)).to.equal(block!.timestamp);
    expect(await client.gasPrice()).to.match(/^\d+$/);
  });

  it("reads owners and approvals on chain", async function () {
    const { a, b, aliceAddress, client } = suite();
    expect(await client.ownerOf(aliceAddress, BIG_ID)).to.equal(a.address);
    expect(await client.ownerOf(aliceAddress, "5")).to.equal(b.address);
    expect(await client.isApprovedForAll(aliceAddress, a.address, b.address)).to.equal(false);
  });

  it("iterates an inventory over several pages, following the Link cursors, every id with all its digits", async function () {
    const { a, aliceAddress, client } = suite();
    const tokens = client.inventory(a.address, aliceAddress, { limit: 2 });
    const items = await collect(tokens);
    expect(items).to.deep.equal(["1", "2", "3", "4", BIG_ID.toString()].map((id) => ({ contract: aliceAddress, id, owner: a.address })));

    const pages: Array<Page<InventoryItem>> = await collect(tokens.pages());
    expect(pages.map((page) => page.items.map((item) => item.id))).to.deep.equal([["1", "2"], ["3", "4"], [BIG_ID.toString()]]);
    expect(pages.map((page) => page.cursor === null)).to.deep.equal([false, false, true]);
    for (const page of pages) {
      expect(page.indexedBlock).to.match(/^\d+$/);
      expect(page.indexComplete).to.equal(true);
    }
    // A page at a time, resuming from a cursor kept as a string.
    const second = await tokens.page(pages[0].cursor);
    expect(second.items).to.deep.equal(pages[1].items);
    expect(await collect(tokens.pages({ cursor: pages[1].cursor }))).to.have.length(1);
  });

  it("lists contracts, holders, counts and histories, ERC-1155 amounts exact", async function () {
    const { a, b, aliceAddress, multiAddress, client } = suite();
    expect(await collect(client.inventoryContracts(a.address, { limit: 1 }))).to.have.members([aliceAddress, multiAddress]);
    const owners = [a.address, b.address].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1));
    expect(await collect(client.holders(aliceAddress, { limit: 1 }))).to.deep.equal(
      owners.map((owner) => ({ owner, count: owner === a.address ? "5" : "2" })),
    );
    expect(await collect(client.holders(multiAddress, { id: 9n }))).to.deep.equal([{ owner: a.address, count: BIG_AMOUNT.toString() }]);
    expect(await client.holderCount(aliceAddress)).to.deep.equal({ holders: "2" });

    const history = await collect(client.transfers(aliceAddress, 5, { limit: 1 }));
    expect(history.map((transfer) => [transfer.from, transfer.to, transfer.id])).to.deep.equal([
      [a.address, b.address, "5"],
      ["0x0000000000000000000000000000000000000000", a.address, "5"],
    ]);
    const [moved] = history;
    expect(moved.block).to.match(/^\d+$/);
    expect(moved.time).to.be.a("number");
    expect(moved.logIndex).to.be.a("number");

    const ofB = await collect(client.transfersOf(b.address, { limit: 1 }));
    expect(ofB.map((transfer) => transfer.id)).to.deep.equal(["5", "7"]);
    const [single] = await collect(client.transfersOf(a.address, { limit: 10 }));
    expect(single).to.include({ contract: aliceAddress, id: "5" });
    const erc1155 = (await collect(client.transfers(multiAddress, 9)))[0];
    expect([erc1155.value, erc1155.batchIndex]).to.deep.equal([BIG_AMOUNT.toString(), 0]);
  });

  it("reads a token with its holder, and an ERC-1155 token's balances exact", async function () {
    const { a, aliceAddress, multiAddress, client } = suite();
    const token = await client.token(aliceAddress, BIG_ID);
    expect(token).to.include({ contract: aliceAddress, id: BIG_ID.toString(), standard: "erc721", owner: a.address });
    const multi = await client.token(multiAddress, 9);
    expect(multi.balances).to.deep.equal([{ owner: a.address, balance: BIG_AMOUNT.toString() }]);
  });

  it("reads a collection, and the contracts of an owner as collections, figures as decimal strings", async function () {
    const { a, b, aliceAddress, multiAddress, client } = suite();
    const collection = await client.collection(aliceAddress);
    expect(collection).to.include({ contract: aliceAddress, standard: "erc721", indexedSupply: "7", holders: "2", transfers: "8" });
    expect(collection.spam.flag).to.equal(false);
    expect(collection.chainBlock).to.match(/^\d+$/);
    expect(collection.deployment.block).to.match(/^\d+$/);

    const owned = client.collectionsOf(a.address, { limit: 1 });
    const pages = await collect(owned.pages());
    expect(pages.map((page) => page.items.length)).to.deep.equal([1, 1]);
    const byContract = new Map(pages.flatMap((page) => page.items).map((item) => [item.contract, item]));
    expect([...byContract.keys()]).to.have.members([aliceAddress, multiAddress]);
    expect(byContract.get(aliceAddress)).to.include({ standard: "erc721", indexedSupply: "7", holders: "2" });
    expect(byContract.get(multiAddress)).to.include({ standard: "erc1155", indexedSupply: BIG_AMOUNT.toString(), holders: "1" });
    expect(byContract.get(multiAddress)!.spam).to.deep.include({ flag: true });
    expect(byContract.get(multiAddress)!.spam.reasons[0]).to.equal("OperatorMarkedSpam");

    await expectRefusal(sdkRefusal(await rejection(client.collection(b.address))), 404, "not_found");
  });

  it("refreshes a token's metadata: the cached document until asked, the new one at once when asked", async function () {
    const { metadataAddress, client, chain } = suite();
    const nft = MetadataNFT__factory.connect(metadataAddress, await chain.signer(0));
    const contract = metadataAddress;
    expect((await client.token(contract, 1)).metadata).to.deep.equal({ name: "Before" });
    await (await nft.setTokenURI(1n, uri("After"))).wait();
    // The contract emits no ERC-4906 event, so the cache holds the first document until a refresh reads again.
    expect((await client.token(contract, 1)).metadata).to.deep.equal({ name: "Before" });
    const refreshed = await client.refreshToken(contract, 1);
    expect(refreshed).to.include({ contract, id: "1", tokenURI: uri("After") });
    expect(refreshed.metadata).to.deep.equal({ name: "After" });
    expect((await client.token(contract, 1)).metadata).to.deep.equal({ name: "After" });
    await expectRefusal(sdkRefusal(await rejection(client.refreshToken(contract, 2))), 404, "not_found");
  });

  it("lists holders and counts them at a block, page after page", async function () {
    const { a, b, aliceAddress, onlyA, beforeMove, client } = suite();
    expect(await collect(client.holders(aliceAddress, { block: onlyA }))).to.deep.equal([{ owner: a.address, count: "6" }]);
    expect(await client.holderCount(aliceAddress, { block: BigInt(onlyA) })).to.deep.equal({ holders: "1" });
    const owners = [a.address, b.address].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1));
    const atBlock = client.holders(aliceAddress, { block: String(beforeMove), limit: 1 });
    const pages = await collect(atBlock.pages());
    expect(pages.map((page) => page.snapshotBlock)).to.deep.equal([String(beforeMove), String(beforeMove)]);
    expect((await client.holders(aliceAddress).page()).snapshotBlock).to.equal(null);
    expect(pages.map((page) => page.items)).to.deep.equal(owners.map((owner) => [{ owner, count: owner === a.address ? "6" : "1" }]));
    expect(await collect(client.holders(aliceAddress, { block: beforeMove, id: 5 }))).to.deep.equal([{ owner: a.address, count: "1" }]);
    expect(await collect(client.holders(aliceAddress, { block: beforeMove + 1, id: 5 }))).to.deep.equal([{ owner: b.address, count: "1" }]);

    await expectRefusal(sdkRefusal(await rejection(client.holderCount(aliceAddress, { block: 0 }))), 400, "block_out_of_range");
    await expectRefusal(sdkRefusal(await rejection(client.holders(aliceAddress, { block: 0 }).page())), 400, "block_out_of_range");
  });

  it("leaves out what belongs to collections flagged as spam when asked, on every list that takes it", async function () {
    const { a, aliceAddress, multiAddress, client } = suite();
    expect(await collect(client.inventoryContracts(a.address))).to.have.members([aliceAddress, multiAddress]);
    expect(await collect(client.inventoryContracts(a.address, { spam: "exclude" }))).to.deep.equal([aliceAddress]);
    expect((await collect(client.collectionsOf(a.address, { spam: "exclude" }))).map((c) => c.contract)).to.deep.equal([aliceAddress]);
    expect(await collect(client.inventory(a.address, multiAddress))).to.have.length(1);
    expect(await collect(client.inventory(a.address, multiAddress, { spam: "exclude" }))).to.deep.equal([]);
    expect(await collect(client.holders(multiAddress, { spam: "include" }))).to.have.length(1);
    expect(await collect(client.holders(multiAddress, { spam: "exclude" }))).to.deep.equal([]);
    expect(await collect(client.transfers(multiAddress, 9, { spam: "exclude" }))).to.deep.equal([]);
    const ofA = await collect(client.transfersOf(a.address, { spam: "exclude", limit: 2 }));
    expect(ofA.length).to.be.above(0);
    expect(ofA.every((transfer) => transfer.contract === aliceAddress)).to.equal(true);
    expect((await collect(client.transfersOf(a.address))).some((transfer) => transfer.contract === multiAddress)).to.equal(true);
  });

  it("throws the service's refusal as an ApiError with its status, code and message", async function () {
    const { aliceAddress, t, client } = suite();
    const missing = `/localhost/${aliceAddress}/999`;
    const { body } = await expectRefusal(await t.fetch(missing), 404, "not_found");
    const error = await rejection(client.ownerOf(aliceAddress, 999));
    await expectRefusal(sdkRefusal(error), 404, "not_found", { message: body.message });
    expect((error as ApiError).requestId).to.be.a("string");

    const invalid = await rejection(client.inventory("0x1234", aliceAddress).page());
    await expectRefusal(sdkRefusal(invalid), 400, "invalid_address");
    expect(() => client.ownerOf(aliceAddress, 2 ** 60)).to.throw(RangeError, /not a safe integer/);
  });

  it("stops at an aborted signal: before the request, and between the pages of a list", async function () {
    const { a, aliceAddress, client } = suite();
    const aborted = new AbortController();
    aborted.abort();
    expect(await rejection(client.latestBlock({ signal: aborted.signal }))).to.have.property("name", "AbortError");

    const stop = new AbortController();
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const item of client.inventory(a.address, aliceAddress, { limit: 2 }).items({ signal: stop.signal })) {
          seen.push(item.id);
          if (seen.length === 2) stop.abort();
        }
      })(),
    );
    expect(error).to.have.property("name", "AbortError");
    expect(seen).to.deep.equal(["1", "2"]);
  });
});

describe("SDK retries against the service's rate limit", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const env = { RPC_URL_LOCALHOST: chain.url, INDEXER: "false", DATA_RATE_LIMIT: "2", RATE_LIMIT_STORE: "memory" };
    return { t: chain.closesWith(await startTestApp({ listen: true, env })) };
  });

  /** Spends this minute's budget of the data routes. */
  async function spendBudget() {
    const { t } = suite();
    startOfMinute(t.clock);
    for (let i = 0; i < 2; i++) expect((await t.fetch("/block/localhost/latest")).status).to.equal(200);
    await expectRefusal(await t.fetch("/block/localhost/latest"), 429, "too_many_requests", { headers: { "retry-after": true } });
  }

  it("waits what Retry-After says, then answers", async function () {
    const { t } = suite();
    await spendBudget();
    const waits: number[] = [];
    // The wait moves the app's clock past the minute instead of sleeping through it.
    const wait = async (ms: number) => {
      waits.push(ms);
      t.clock.advance(ms);
    };
    const client = createDataClient({ baseUrl: t.url, network: "localhost", retry: { wait, maxDelayMs: 60_000 } });
    expect(await client.latestBlock()).to.match(/^\d+$/);
    expect(waits).to.have.length(1);
    expect(waits[0]).to.be.within(1_000, 60_000);
  });

  it("throws the 429 when retries are off, or when Retry-After is beyond the longest wait", async function () {
    const { t } = suite();
    await spendBudget();
    for (const retry of [false as const, { maxDelayMs: 500, wait: () => expect.fail("no wait") }]) {
      const client = createDataClient({ baseUrl: t.url, network: "localhost", retry });
      const error = await rejection(client.latestBlock());
      await expectRefusal(sdkRefusal(error), 429, "too_many_requests", { message: /^Rate limit exceeded/ });
      expect((error as ApiError).retryAfterMs).to.be.within(1_000, 60_000);
    }
  });

  it("gives up after its retries, and stops waiting when the signal aborts", async function () {
    const { t } = suite();
    await spendBudget();
    let waits = 0;
    const counting = createDataClient({
      baseUrl: t.url,
      network: "localhost",
      retry: { retries: 2, maxDelayMs: 60_000, wait: async () => void waits++ },
    });
    await expectRefusal(sdkRefusal(await rejection(counting.latestBlock())), 429, "too_many_requests");
    expect(waits).to.equal(2);

    const stop = new AbortController();
    const client = createDataClient({ baseUrl: t.url, network: "localhost", retry: { maxDelayMs: 60_000 } });
    const pending = client.latestBlock({ signal: stop.signal });
    setImmediate(() => stop.abort());
    expect(await rejection(pending)).to.have.property("name", "AbortError");
  });
});
