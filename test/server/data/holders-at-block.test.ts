import { expect } from "chai";
import { CollectionNFT__factory, TestERC1155__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { expectRefusal } from "../../helpers/refusal";

describe("holders at a block", function () {
  /** The block each step was mined in. */
  const at: Record<string, number> = {};

  const mined = async (name: string, sent: Promise<{ wait(): Promise<{ blockNumber: number } | null> }>) => {
    at[name] = (await (await sent).wait())!.blockNumber;
  };

  const suite = SuiteChain.forSuite("own", async (chain) => {
    const deployer = await chain.signer(0);
    const [a, b, c] = await Promise.all([1, 2, 3].map((i) => chain.signer(i)));
    const cats = await new CollectionNFT__factory(deployer).deploy("Cats", "CAT", "");
    const multi = await new TestERC1155__factory(deployer).deploy();
    const [catsAddress, multiAddress] = await Promise.all([cats.getAddress(), multi.getAddress()]);
    await mined("mintA", cats.mint(a.address, 3n));
    await mined("mintB", cats.mint(b.address, 1n));
    await mined("send", cats.connect(a).transferFrom(a.address, c.address, 1n));
    await mined("burn", cats.connect(b).burn(4n));
    await mined("multiMint", multi.mintBatch(a.address, [1n, 2n], [10n, 5n]));
    await mined("multiSend", multi.connect(a).safeTransferFrom(a.address, b.address, 1n, 4n, "0x"));
    await mined("multiOn", multi.connect(b).safeTransferFrom(b.address, c.address, 1n, 4n, "0x"));
    return { a, b, c, cats, multi, catsAddress, multiAddress, t: await chain.startIndexingApp() };
  });

  async function get(path: string, headers: Record<string, string> = {}) {
    const response = await suite().t.fetch(path, { headers });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  }
  const holders = async (contract: string, query: string) => {
    const answer = await get(`/holders/localhost/${contract}?${query}`);
    expect(answer.status, answer.text).to.equal(200);
    return JSON.parse(answer.text) as Array<{ owner: string; count: number }>;
  };
  const ordered = (...list: Array<{ owner: string; count: number }>) =>
    list.sort((x, y) => (x.owner.toLowerCase() < y.owner.toLowerCase() ? -1 : 1));
  /** That the route gives the `[account, count]`s as the holders of `contract` for `query`, in its order (lower-case address order). */
  const expectHolders = async (contract: string, query: string, ...expected: Array<[{ address: string }, number]>) =>
    expect(await holders(contract, query), query).to.deep.equal(
      ordered(...expected.map(([account, count]) => ({ owner: account.address, count }))),
    );
  const count = async (contract: string, block: number) =>
    JSON.parse((await get(`/holders/localhost/${contract}/count?block=${block}`)).text).holders as number;

  it("lists ERC-721 holders as at the end of each block, and counts them", async function () {
    const { a, b, c, catsAddress } = suite();
    await expectHolders(catsAddress, `block=${at.mintA}`, [a, 3]);
    await expectHolders(catsAddress, `block=${at.mintB}`, [a, 3], [b, 1]);
    await expectHolders(catsAddress, `block=${at.send}`, [a, 2], [b, 1], [c, 1]);
    await expectHolders(catsAddress, `block=${at.burn}`, [a, 2], [c, 1]);
    expect(await Promise.all([at.mintA, at.mintB, at.send, at.burn].map((block) => count(catsAddress, block)))).to.deep.equal([1, 2, 3, 2]);
    const { headers } = await get(`/holders/localhost/${catsAddress}?block=${at.send}`);
    expect(headers.get("x-snapshot-block")).to.equal(String(at.send));
    expect(Number(headers.get("x-indexed-block"))).to.be.at.least(at.multiOn);
  });

  it("sums ERC-1155 balances as at a block, a holding that reached zero left out, and gives one id's holders", async function () {
    const { a, b, c, multiAddress } = suite();
    await expectHolders(multiAddress, `block=${at.multiMint}`, [a, 15]);
    await expectHolders(multiAddress, `block=${at.multiSend}`, [a, 11], [b, 4]);
    await expectHolders(multiAddress, `block=${at.multiOn}`, [a, 11], [c, 4]);
    await expectHolders(multiAddress, `block=${at.multiSend}&id=1`, [a, 6], [b, 4]);
    expect(await count(multiAddress, at.multiOn)).to.equal(2);
  });

  it("names a token's owner at a block, and none before its mint or after its burn", async function () {
    const { a, c, catsAddress } = suite();
    await expectHolders(catsAddress, `block=${at.mintA}&id=1`, [a, 1]);
    await expectHolders(catsAddress, `block=${at.send}&id=1`, [c, 1]);
    await expectHolders(catsAddress, `block=${at.mintA}&id=4`);
    await expectHolders(catsAddress, `block=${at.burn}&id=4`);
  });

  it("agrees with today's holders at the block the index is complete to", async function () {
    const { catsAddress, multiAddress, chain } = suite();
    const head = await chain.provider.getBlockNumber();
    for (const contract of [catsAddress, multiAddress])
      expect(await holders(contract, `block=${head}`)).to.deep.equal(await holders(contract, ""));
  });

  it("pages with limit and Link rel=next, every holder once", async function () {
    const { catsAddress } = suite();
    const first = await get(`/holders/localhost/${catsAddress}?block=${at.send}&limit=2`);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get("link") ?? "")![1];
    expect(next).to.include(`block=${at.send}`);
    const second = await get(next);
    expect(second.headers.get("link")).to.equal(null);
    expect([...JSON.parse(first.text), ...JSON.parse(second.text)]).to.deep.equal(await holders(catsAddress, `block=${at.send}`));
  });

  it("streams every holder as NDJSON or CSV, by format or Accept", async function () {
    const { catsAddress } = suite();
    const expected = await holders(catsAddress, `block=${at.send}`);
    const ndjson = await get(`/holders/localhost/${catsAddress}?block=${at.send}&limit=1&format=ndjson`);
    expect(ndjson.headers.get("content-type")).to.equal("application/x-ndjson; charset=utf-8");
    expect(ndjson.headers.get("link")).to.equal(null);
    expect(ndjson.text).to.equal(expected.map((h) => `${JSON.stringify(h)}\n`).join(""));
    const csv = await get(`/holders/localhost/${catsAddress}?block=${at.send}`, { accept: "text/csv" });
    expect(csv.headers.get("content-type")).to.equal("text/csv; charset=utf-8");
    expect(csv.text).to.equal(`owner,count\n${expected.map((h) => `${h.owner},${h.count}\n`).join("")}`);
    const byAccept = await get(`/holders/localhost/${catsAddress}?block=${at.send}`, { accept: "application/x-ndjson" });
    expect(byAccept.text).to.equal(ndjson.text);
  });

  it("refuses a block outside what the index holds, a malformed one, a contract it does not hold, and a bad format", async function () {
    const { a, catsAddress, chain } = suite();
    const head = await chain.provider.getBlockNumber();
    const indexed = Number((await get(`/holders/localhost/${catsAddress}`)).headers.get("x-indexed-block"));
    const first = at.mintA;
    const lower = catsAddress.toLowerCase();
    await expectRefusal(await get(`/holders/localhost/${catsAddress}?block=${first - 1}`), 400, "block_out_of_range", {
      message: `block ${first - 1} is outside what the index holds of ${lower}: from its first indexed block ${first} to ${indexed}, the block the index is complete to`,
    });
    await expectRefusal(await get(`/holders/localhost/${catsAddress}/count?block=${head + 5}`), 400, "block_out_of_range", {
      message: `block ${head + 5} is outside what the index holds of ${lower}: from its first indexed block ${first} to ${indexed}, the block the index is complete to`,
    });
    for (const block of ["abc", "-1", "1.5", "1e3"])
      await expectRefusal(await get(`/holders/localhost/${catsAddress}?block=${block}`), 400, "invalid_block_number", {
        message: "block must be a decimal block number",
        label: block,
      });
    await expectRefusal(await get(`/holders/localhost/${a.address}?block=${first}`), 404, "not_found", {
      message: `The index of localhost holds no transfer of ${a.address.toLowerCase()}`,
    });
    await expectRefusal(await get(`/holders/localhost/${catsAddress}?block=${first}&format=xml`), 400, "invalid_request");
  });

  it("refuses, with the bound named, a contract with more transfers than HOLDERS_SNAPSHOT_MAX_TRANSFERS", async function () {
    const { catsAddress, multiAddress, chain } = suite();
    const small = await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50", HOLDERS_SNAPSHOT_MAX_TRANSFERS: "4" } });
    try {
      await indexedTo(small.app.db, "localhost", chain.provider);
      const refused = await small.fetch(`/holders/localhost/${catsAddress}?block=${at.burn}`);
      await expectRefusal(refused, 400, "snapshot_too_large", {
        message: `${catsAddress.toLowerCase()} has 6 indexed transfers, more than HOLDERS_SNAPSHOT_MAX_TRANSFERS (4): its holders at a block are not computed`,
      });
      expect((await small.fetch(`/holders/localhost/${multiAddress}?block=${at.multiOn}`)).status).to.equal(200);
    } finally {
      await small.close();
    }
  });

  it("gives a block's holders as the chain that won a reorg has them, and earlier blocks as before", async function () {
    const { a, b, c, cats, catsAddress, t, chain } = suite();
    const before = await holders(catsAddress, `block=${at.send}`);
    const snapshot = await chain.provider.send("evm_snapshot", []);
    const { blockNumber: lost } = (await (await cats.connect(a).transferFrom(a.address, b.address, 2n)).wait())!;
    await indexedTo(t.app.db, "localhost", chain.provider);
    await expectHolders(catsAddress, `block=${lost}`, [a, 1], [b, 1], [c, 1]);
    await chain.provider.send("evm_revert", [snapshot]);
    await (await cats.mint(b.address, 1n)).wait();
    await chain.provider.send("hardhat_mine", ["0x2"]);
    await indexedTo(t.app.db, "localhost", chain.provider);
    await expectHolders(catsAddress, `block=${lost}`, [a, 2], [b, 1], [c, 1]);
    expect(await holders(catsAddress, `block=${at.send}`)).to.deep.equal(before);
  });
});
