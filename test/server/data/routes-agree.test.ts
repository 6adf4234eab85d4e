import { expect } from "chai";
import { SuiteChain } from "../../helpers/suite-chain";
import { indexedTo } from "../../helpers/index-check";

describe("data routes agree: a chain read is never older than what the index served", function () {
  this.timeout(60_000);
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const holder = await chain.signer(5);
    const buyer = (await chain.signer(6)).address;
    const start = await chain.provider.getBlockNumber();
    const alice = await chain.deployAlice();
    const aliceAddress = await alice.getAddress();
    await (await alice.mintBatch(holder.address, [1n])).wait();
    const t = await chain.startIndexingApp({
      env: {
        INDEXER_CONTRACTS_LOCALHOST: aliceAddress,
        // A head cached for long: the window in which the owner route's head is older than the index is the whole test.
        HEAD_CACHE_MS: "60000",
        INDEXER_START_BLOCK_LOCALHOST: String(start),
      },
    });
    return { holder, buyer, alice, aliceAddress, t };
  });

  it("the owner route names the owner the inventory shows right after a transfer", async function () {
    const { holder, buyer, alice, aliceAddress, t, chain } = suite();
    const owner = async () => {
      const response = await t.fetch(`/localhost/${aliceAddress}/1`);
      expect(response.status).to.equal(200);
      return response.json();
    };
    // Caches the head before the transfer.
    expect(await owner()).to.equal(holder.address);
    await (await alice.connect(holder).transferFrom(holder.address, buyer, 1n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const inventory = await t.fetch(`/inventory/localhost/${buyer}/${aliceAddress}`);
    const indexed = Number(inventory.headers.get("x-indexed-block"));
    expect(((await inventory.json()) as Array<{ id: number }>).map((item) => item.id)).to.deep.equal([1]);
    expect(indexed).to.equal(await chain.provider.getBlockNumber());
    expect(await owner()).to.equal(buyer);
  });
});
