import { expect } from "chai";
import { TestERC1155__factory } from "../../../typechain-types";
import { indexedTo } from "../../helpers/index-check";
import { bytes, hex, networkIdOf } from "../../helpers/index-sql";
import { SuiteChain } from "../../helpers/suite-chain";

describe("ERC-1155 balances (TransferSingle, TransferBatch)", function () {
  const BIG_ID = 2n ** 64n + 5n;
  const BIG_AMOUNT = 2n ** 70n;
  const IDS = [1n, 2n, 3n, BIG_ID];
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const [a, b] = await Promise.all([1, 2].map((i) => chain.signer(i)));
    const token = await new TestERC1155__factory(await chain.signer(0)).deploy();
    const t = await chain.startIndexingApp();
    return { a, b, token, contract: await token.getAddress(), t };
  });

  /** Every (id, owner) balance in the index equals balanceOf on chain. */
  async function expectBalancesMatchChain() {
    const { chain, a, b, token, contract, t } = suite();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const owners = [a.address, b.address];
    const { rows } = await t.app.db.query<{ token_id: string; owner: string; balance: string }>(
      `SELECT token_id, ${hex("owner")} AS owner, balance FROM nft_balances WHERE network_id = ${networkIdOf("'localhost'")} AND contract = ${bytes("$1")}`,
      [contract.toLowerCase()],
    );
    const indexed = new Map(rows.map((r) => [`${r.token_id}:${r.owner}`, BigInt(r.balance)]));
    for (const id of IDS) {
      for (const owner of owners) {
        const onChain = await token.balanceOf(owner, id);
        expect(indexed.get(`${id}:${owner.toLowerCase()}`) ?? 0n, `id ${id} of ${owner}`).to.equal(onChain);
      }
    }
    // Nothing at zero is kept.
    expect(rows.every((r) => BigInt(r.balance) > 0n)).to.equal(true);
  }

  async function inventory(owner: string) {
    const { t, contract } = suite();
    const response = await t.fetch(`/inventory/localhost/${owner}/${contract}`);
    return { status: response.status, text: await response.text() };
  }

  it("follows single and batch mints and transfers into balances", async function () {
    const { token, a, b } = suite();
    await (await token.mint(a.address, 1n, 10n)).wait();
    await (await token.mintBatch(a.address, [2n, 3n, BIG_ID], [5n, 1n, BIG_AMOUNT])).wait();
    await (await token.connect(a).safeTransferFrom(a.address, b.address, 1n, 3n, "0x")).wait();
    await (await token.connect(a).safeBatchTransferFrom(a.address, b.address, [2n, 3n], [5n, 1n], "0x")).wait();
    await expectBalancesMatchChain();
  });

  it("lists an owner's ids with their balances, all digits kept; ids the owner no longer holds are gone", async function () {
    const { t, a, b, contract } = suite();
    const mine = await inventory(a.address);
    expect(mine.status).to.equal(200);
    expect(mine.text).to.equal(
      `[{"contract":"${contract}","id":1,"owner":"${a.address}","balance":7},{"contract":"${contract}","id":${BIG_ID},"owner":"${a.address}","balance":${BIG_AMOUNT}}]`,
    );
    const theirs = await inventory(b.address);
    expect(JSON.parse(theirs.text)).to.deep.equal([
      { contract, id: 1, owner: b.address, balance: 3 },
      { contract, id: 2, owner: b.address, balance: 5 },
      { contract, id: 3, owner: b.address, balance: 1 },
    ]);
    const contracts = await t.fetch(`/inventory/localhost/${b.address}`);
    expect(await contracts.json()).to.deep.equal([contract]);
  });

  it("pages through balances like tokens", async function () {
    const { t, b, contract } = suite();
    const first = await t.fetch(`/inventory/localhost/${b.address}/${contract}?limit=2`);
    expect(((await first.json()) as Array<{ id: number }>).map((item: { id: number }) => item.id)).to.deep.equal([1, 2]);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get("link") ?? "")![1];
    const second = await t.fetch(next);
    expect(((await second.json()) as Array<{ id: number }>).map((item: { id: number }) => item.id)).to.deep.equal([3]);
    expect(second.headers.get("link")).to.equal(null);
  });

  it("subtracts what a reorg undoes", async function () {
    const { chain, token, a, b, contract } = suite();
    const snapshot = await chain.provider.send("evm_snapshot", []);
    // Branch A, indexed then thrown away: b gives everything back and receives a fresh mint.
    await (await token.connect(b).safeBatchTransferFrom(b.address, a.address, [1n, 2n, 3n], [3n, 5n, 1n], "0x")).wait();
    await (await token.mint(b.address, BIG_ID, 9n)).wait();
    await expectBalancesMatchChain();
    expect(JSON.parse((await inventory(b.address)).text)).to.deep.equal([{ contract, id: Number(BIG_ID), owner: b.address, balance: 9 }]);
    // Branch B at the same heights.
    await chain.provider.send("evm_revert", [snapshot]);
    await (await token.connect(a).safeTransferFrom(a.address, b.address, 1n, 7n, "0x")).wait();
    await (await token.mint(a.address, 2n, 4n)).wait();
    await (await token.mint(a.address, 3n, 2n)).wait();
    await expectBalancesMatchChain();
    expect((await inventory(a.address)).text).to.equal(
      `[{"contract":"${contract}","id":2,"owner":"${a.address}","balance":4},{"contract":"${contract}","id":3,"owner":"${a.address}","balance":2},{"contract":"${contract}","id":${BIG_ID},"owner":"${a.address}","balance":${BIG_AMOUNT}}]`,
    );
  });
});
