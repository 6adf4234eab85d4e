import { expect } from "chai";
import { ZeroAddress } from "ethers";
import { EventEmitterNFT__factory, LegacyKitty__factory } from "../../../typechain-types";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";

describe("which events the indexer reads (docs/reference/indexer.md)", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const deployer = await chain.signer(0);
    // The shared node holds other tests' blocks: the index starts at this test's first.
    const start = (await chain.provider.getBlockNumber()) + 1;
    const [a, b] = await Promise.all([5, 6].map(async (i) => (await chain.signer(i)).getAddress()));
    const erc721First = await new EventEmitterNFT__factory(deployer).deploy();
    const erc1155First = await new EventEmitterNFT__factory(deployer).deploy();
    const legacy = await new LegacyKitty__factory(deployer).deploy();
    const kitty = await legacy.getAddress();
    const contracts = [await erc721First.getAddress(), await erc1155First.getAddress()];
    // Before the index starts: its first range holds all of these (the first event of a contract decides in a range too).
    await (await erc721First.transferBoth(ZeroAddress, a, 1n, false)).wait();
    await (await erc721First.transferBoth(ZeroAddress, a, 2n, false)).wait();
    await (await erc1155First.transferBoth(ZeroAddress, a, 5n, true)).wait();
    await (await legacy.transfer(a, 1n)).wait();
    const t = await chain.startIndexingApp({
      env: { INDEXER_START_BLOCK_LOCALHOST: String(start), INDEXER_CONTRACTS_LOCALHOST: [...contracts, kitty].join(",") },
    });
    // Live, one range per block.
    await (await erc721First.transferBoth(a, b, 2n, false)).wait();
    await (await erc721First.transfer1155(ZeroAddress, b, 7n, 2n)).wait();
    await (await erc1155First.transferBoth(a, b, 5n, false)).wait();
    await (await erc1155First.transfer721(ZeroAddress, b, 6n)).wait();
    await (await legacy.transfer(b, 1n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
    return { a, b, t, kitty, contracts };
  });

  const json = async (path: string) => {
    const response = await suite().t.fetch(path);
    expect(response.status, path).to.equal(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (await response.json()) as any;
  };

  it("reads a contract that moves a token with both standards' events as the standard of its first event: each token once", async function () {
    const { t, a, b, contracts } = suite();
    const [first721, first1155] = contracts;
    expect(await json(`/inventory/localhost/${a}/${first721}`)).to.deep.equal([{ contract: first721, id: 1, owner: a }]);
    expect(await json(`/inventory/localhost/${b}/${first721}`)).to.deep.equal([{ contract: first721, id: 2, owner: b }]);
    expect(await json(`/holders/localhost/${first721}/count`)).to.deep.equal({ holders: 2 });
    expect(await json(`/holders/localhost/${first721}`)).to.have.deep.members([
      { owner: a, count: 1 },
      { owner: b, count: 1 },
    ]);
    expect((await json(`/transfers/localhost/${first721}/2`)).map((i: { from: string }) => i.from)).to.deep.equal([a, ZeroAddress]);
    expect(await json(`/inventory/localhost/${a}/${first1155}`)).to.deep.equal([]);
    expect(await json(`/inventory/localhost/${b}/${first1155}`)).to.deep.equal([{ contract: first1155, id: 5, owner: b, balance: 1 }]);
    expect(await json(`/holders/localhost/${first1155}/count`)).to.deep.equal({ holders: 1 });
    expect(await json(`/transfers/localhost/${first1155}/5`)).to.have.length(2);
    await expectHoldingsMatchRecount(t.app.db, "localhost");
  });

  it("ignores Transfer events without indexed arguments (CryptoKitties), and goes on", async function () {
    const { b, kitty, contracts } = suite();
    expect(await json(`/holders/localhost/${kitty}/count`)).to.deep.equal({ holders: 0 });
    expect(await json(`/transfers/localhost/${kitty}/1`)).to.deep.equal([]);
    expect(await json(`/inventory/localhost/${b}`)).to.have.members([contracts[0], contracts[1]]);
  });
});
