import { expect } from "chai";
import { hex } from "../../helpers/index-sql";
import { TestERC1155__factory } from "../../../typechain-types";
import { fetchJson } from "../../helpers/app";
import { beforeMigration } from "../../helpers/before-migration";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { failingChecksum } from "../../helpers/checksums";

describe("holders routes", function () {
  const BIG_AMOUNT = 2n ** 70n;
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const [a, b, c] = await Promise.all([1, 2, 3].map((i) => chain.signer(i)));
    const alice = await chain.deployAlice();
    const multi = await new TestERC1155__factory(await chain.signer(0)).deploy();
    const [aliceAddress, multiAddress] = await Promise.all([alice.getAddress(), multi.getAddress()]);
    await (await alice.mintBatch(a.address, [1n, 2n, 3n])).wait();
    await (await alice.mintBatch(b.address, [4n])).wait();
    await (await multi.mintBatch(a.address, [1n], [10n])).wait();
    await (await multi.mintBatch(b.address, [1n, 2n], [5n, BIG_AMOUNT])).wait();
    return { a, b, c, alice, multi, aliceAddress, multiAddress, t: await chain.startIndexingApp() };
  });

  const get = (path: string) => fetchJson(suite().t, path);
  /** Owners in the route's order (lower-case address order). */
  const ordered = (...holders: Array<{ owner: string; count: number | bigint }>) =>
    holders.sort((x, y) => (x.owner.toLowerCase() < y.owner.toLowerCase() ? -1 : 1));
  const count = async (contract: string) => (await get(`/holders/localhost/${contract}/count`)).body.holders;

  describe("GET /holders/:network/:contract", function () {
    it("lists each ERC-721 owner once with the number of tokens it holds", async function () {
      const { a, b, aliceAddress } = suite();
      const { status, headers, body } = await get(`/holders/localhost/${aliceAddress}`);
      expect(status).to.equal(200);
      expect(Number(headers.get("x-indexed-block"))).to.be.at.least(1);
      expect(headers.get("link")).to.equal(null);
      expect(body).to.deep.equal(ordered({ owner: a.address, count: 3 }, { owner: b.address, count: 1 }));
    });

    it("gives ERC-1155 units held, all digits kept, and one id's holders with their balances", async function () {
      const { a, b, aliceAddress, multiAddress } = suite();
      const all = await get(`/holders/localhost/${multiAddress}`);
      const expected = ordered({ owner: a.address, count: 10n }, { owner: b.address, count: 5n + BIG_AMOUNT });
      expect(all.text).to.equal(
        JSON.stringify(expected.map((h) => ({ owner: h.owner, count: `${h.count}` }))).replace(/"count":"(\d+)"/g, '"count":$1'),
      );
      expect((await get(`/holders/localhost/${multiAddress}?id=1`)).body).to.deep.equal(
        ordered({ owner: a.address, count: 10 }, { owner: b.address, count: 5 }),
      );
      expect((await get(`/holders/localhost/${multiAddress}?id=2`)).text).to.equal(`[{"owner":"${b.address}","count":${BIG_AMOUNT}}]`);
      expect((await get(`/holders/localhost/${aliceAddress}?id=4`)).body).to.deep.equal([{ owner: b.address, count: 1 }]);
      expect((await get(`/holders/localhost/${aliceAddress}?id=99`)).body).to.deep.equal([]);
    });

    it("pages with limit and cursor through Link rel=next, every holder once", async function () {
      const { a, b, aliceAddress } = suite();
      const first = await get(`/holders/localhost/${aliceAddress}?limit=1`);
      const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get("link") ?? "")![1];
      const second = await get(next);
      expect(second.headers.get("link")).to.equal(null);
      expect([...first.body, ...second.body]).to.deep.equal(ordered({ owner: a.address, count: 3 }, { owner: b.address, count: 1 }));
    });
  });

  describe("GET /holders/:network/:contract/count", function () {
    it("counts owners; a contract nobody holds has none", async function () {
      const { c, aliceAddress, multiAddress } = suite();
      expect(await count(aliceAddress)).to.equal(2);
      expect(await count(multiAddress)).to.equal(2);
      const { status, headers, body } = await get(`/holders/localhost/${c.address}/count`);
      expect([status, body]).to.deep.equal([200, { holders: 0 }]);
      expect(headers.get("x-indexed-block")).to.match(/^\d+$/);
    });

    it("follows transfers, burns and balances reaching zero as the index writes", async function () {
      const { a, b, c, alice, multi, aliceAddress, multiAddress, t, chain } = suite();
      await (await alice.connect(b).transferFrom(b.address, c.address, 4n)).wait();
      await (await multi.connect(a).safeTransferFrom(a.address, c.address, 1n, 10n, "0x")).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      expect(await count(aliceAddress)).to.equal(2);
      expect((await get(`/holders/localhost/${multiAddress}`)).body.map((h: { owner: string }) => h.owner)).to.have.members([
        b.address,
        c.address,
      ]);
      await (await alice.connect(c).burn(4n)).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      expect(await count(aliceAddress)).to.equal(1);
      await expectHoldingsMatchRecount(t.app.db, "localhost");
    });

    it("gives back what a reorg undoes", async function () {
      const { a, b, c, alice, multi, aliceAddress, multiAddress, t, chain } = suite();
      const before = [await count(aliceAddress), await count(multiAddress)];
      const snapshot = await chain.provider.send("evm_snapshot", []);
      await (await alice.connect(a).transferFrom(a.address, c.address, 1n)).wait();
      await (await multi.mint(a.address, 3n, 1n)).wait();
      await (await alice.mint(b.address, 50n)).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      expect([await count(aliceAddress), await count(multiAddress)]).to.deep.equal([3, 3]);
      await chain.provider.send("evm_revert", [snapshot]);
      // The other branch, as long: the indexer must notice the replaced blocks.
      for (let i = 0; i < 3; i++) await (await alice.connect(a).transferFrom(a.address, a.address, 2n)).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      expect([await count(aliceAddress), await count(multiAddress)]).to.deep.equal(before);
      await expectHoldingsMatchRecount(t.app.db, "localhost");
    });
  });

  it("counts what was indexed before the counts existed (the migration fills them in)", async function () {
    await beforeMigration(210, async (db, migrateRest) => {
      // Addresses as the indexer writes them (lower-case hex of 20 bytes): a later migration stores them as bytes.
      const [c1, c2, c3, a, b] = ["c1", "c2", "c3", "0a", "0b"].map((x) => `0x${x.padStart(40, "0")}`);
      await db.query(
        `INSERT INTO nft_owners (network, contract, token_id, owner, block_number, log_index)
         VALUES ('n', $1, 1, $3, 1, 0), ('n', $1, 2, $3, 1, 1), ('n', $1, 3, $4, 1, 2), ('n', $2, 1, $3, 1, 3)`,
        [c1, c2, a, b],
      );
      await db.query(
        "INSERT INTO nft_balances (network, contract, token_id, owner, balance) VALUES ('n', $1, 1, $2, 4), ('n', $1, 2, $2, 5)",
        [c3, a],
      );
      await migrateRest();
      const { rows } = await db.query(
        `SELECT ${hex("contract")} AS contract, ${hex("owner")} AS owner, count::text FROM nft_holdings ORDER BY 1, 2`,
      );
      expect(rows).to.deep.equal([
        { contract: c1, owner: a, count: "2" },
        { contract: c1, owner: b, count: "1" },
        { contract: c2, owner: a, count: "1" },
        { contract: c3, owner: a, count: "9" },
      ]);
      await expectHoldingsMatchRecount(db, "n");
    });
  });

  describe("malformed input", function () {
    it("refuses bad networks, addresses, ids, limits and cursors with a 4xx {error, message}", async function () {
      const { aliceAddress } = suite();
      const cases: Array<[string, number, string]> = [
        [`/holders/nowhere/${aliceAddress}`, 400, "unknown_network"],
        [`/holders/nowhere/${aliceAddress}/count`, 400, "unknown_network"],
        [`/holders/mainnet/${aliceAddress}`, 503, "network_unavailable"],
        [`/holders/localhost/0x1234`, 400, "invalid_address"],
        [`/holders/localhost/0x1234/count`, 400, "invalid_address"],
        [`/holders/localhost/${aliceAddress.slice(0, -1)}%00`, 400, "invalid_request"],
        [`/holders/localhost%00/${aliceAddress}`, 400, "invalid_request"],
        [`/holders/localhost/${failingChecksum(aliceAddress)}`, 400, "invalid_address"],
        [`/holders/localhost/${aliceAddress}?limit=0`, 400, "invalid_request"],
        [`/holders/localhost/${aliceAddress}?limit=1001`, 400, "invalid_request"],
        [`/holders/localhost/${aliceAddress}?limit=${"9".repeat(400)}`, 400, "invalid_request"],
        [`/holders/localhost/${aliceAddress}?cursor=nonsense`, 400, "invalid_cursor"],
        [`/holders/localhost/${aliceAddress}?cursor=${Buffer.from('["0x\u0000"]').toString("base64url")}`, 400, "invalid_cursor"],
        // A token id's cursor (of an inventory page) where an address continues.
        [`/holders/localhost/${aliceAddress}?cursor=${Buffer.from('["12"]').toString("base64url")}`, 400, "invalid_cursor"],
        [`/holders/localhost/${aliceAddress}?cursor=${"A".repeat(600)}`, 400, "invalid_request"],
        [`/holders/localhost/${aliceAddress}?id=-1`, 400, "invalid_token_id"],
        [`/holders/localhost/${aliceAddress}?id=1%00`, 400, "invalid_request"],
        [`/holders/localhost/${aliceAddress}?id=${"9".repeat(78)}`, 400, "invalid_token_id"],
        [`/holders/localhost/${aliceAddress}?id=${"1".repeat(79)}`, 400, "invalid_request"],
        [`/holders/localhost/${aliceAddress}?id=\u202e1`, 400, "invalid_token_id"],
      ];
      for (const [path, status, error] of cases) {
        const response = await get(path);
        expect([path, response.status, response.body.error]).to.deep.equal([path, status, error]);
        expect(response.body.message).to.be.a("string").and.not.equal("");
      }
    });
  });
});
