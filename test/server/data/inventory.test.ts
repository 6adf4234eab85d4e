import { expect } from "chai";
import { BobNFT__factory } from "../../../typechain-types";
import { fetchJson, startTestApp } from "../../helpers/app";
import { SuiteChain } from "../../helpers/suite-chain";
import { indexedTo } from "../../helpers/index-check";
import { expectRefusal } from "../../helpers/refusal";
import { failingChecksum } from "../../helpers/checksums";

describe("inventory routes", function () {
  const BIG_ID = 2n ** 64n + 3n; // not representable as a double: must come out with all its digits
  const ALICE_IDS = [0n, 1n, 2n, 3n, 4n, BIG_ID];
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const [deployer, holderSigner, otherSigner] = await Promise.all([0, 5, 6].map((i) => chain.signer(i)));
    const [holder, other] = [holderSigner.address, otherSigner.address];
    const alice = await chain.deployAlice();
    const aliceAddress = await alice.getAddress();
    const bob = await new BobNFT__factory(deployer).deploy(deployer.address);
    const bobAddress = await bob.getAddress();
    await (await alice.mintBatch(holder, ALICE_IDS)).wait();
    await (await bob.mintBatch(holder, [7n, 8n])).wait();
    await (await alice.mintBatch(other, [100n])).wait();
    const t = await chain.startIndexingApp({ env: { INDEXER_CONTRACTS_LOCALHOST: `${aliceAddress},${bobAddress}` } });
    return { holder, other, alice, aliceAddress, bobAddress, t };
  });

  /** The address with the case of one letter flipped: mixed case that fails EIP-55. */

  const get = (path: string) => fetchJson(suite().t, path);

  /** Follows Link rel="next" to the end; returns the raw bodies and the pages' sizes. */
  async function allPages(path: string) {
    const texts: string[] = [];
    let next: string | undefined = path;
    while (next) {
      const page = await get(next);
      expect(page.status).to.equal(200);
      texts.push(page.text);
      const link = page.headers.get("link");
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    }
    return texts;
  }

  describe("GET /inventory/:network/:owner/:assetContract", function () {
    it("lists the owner's tokens of the contract, with the block the index is complete to", async function () {
      const { holder, aliceAddress, t } = suite();
      const { status, headers, text, body } = await get(`/inventory/localhost/${holder}/${aliceAddress}`);
      expect(status).to.equal(200);
      const { rows } = await t.app.db.query<{ block_number: string }>(
        "SELECT block_number FROM indexer_cursors WHERE network = 'localhost'",
      );
      expect(headers.get("x-indexed-block")).to.equal(rows[0].block_number);
      expect(headers.get("link")).to.equal(null);
      expect(body).to.have.length(ALICE_IDS.length);
      expect(body[0]).to.deep.equal({ contract: aliceAddress, id: 0, owner: holder });
      // Raw text: JSON.parse would round the big id.
      expect(text).to.contain(`{"contract":"${aliceAddress}","id":${BIG_ID},"owner":"${holder}"}`);
    });

    it("pages with limit and cursor through Link rel=next, every token exactly once", async function () {
      const { holder, aliceAddress } = suite();
      const texts = await allPages(`/inventory/localhost/${holder}/${aliceAddress}?limit=4`);
      expect(texts).to.have.length(2);
      const ids = texts.flatMap((text) => [...text.matchAll(/"id":(\d+)/g)].map((m) => BigInt(m[1])));
      expect(ids).to.deep.equal(ALICE_IDS);
    });

    it("accepts the addresses in lower case and answers them checksummed", async function () {
      const { holder, aliceAddress } = suite();
      const { status, body } = await get(`/inventory/localhost/${holder.toLowerCase()}/${aliceAddress.toLowerCase()}?limit=1`);
      expect(status).to.equal(200);
      expect(body).to.deep.equal([{ contract: aliceAddress, id: 0, owner: holder }]);
    });

    it("answers an empty array for an owner without tokens of the contract", async function () {
      const { other, bobAddress } = suite();
      const { status, body } = await get(`/inventory/localhost/${other}/${bobAddress}`);
      expect([status, body]).to.deep.equal([200, []]);
    });

    it("shows a transfer once its block is indexed", async function () {
      const { holder, other, alice, aliceAddress, t, chain } = suite();
      await (await alice.connect(await chain.signer(6)).transferFrom(other, holder, 100n)).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      const mine = await get(`/inventory/localhost/${holder}/${aliceAddress}?limit=1000`);
      expect(mine.body.map((item: { id: number }) => item.id)).to.include(100);
      const theirs = await get(`/inventory/localhost/${other}/${aliceAddress}`);
      expect(theirs.body).to.deep.equal([]);
      await (await alice.connect(await chain.signer(5)).transferFrom(holder, other, 100n)).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
    });

    it("refuses malformed addresses, limits and cursors with a 400", async function () {
      const { holder, aliceAddress } = suite();
      for (const [path, error] of [
        [`/inventory/localhost/0x1234/${aliceAddress}`, "invalid_address"],
        [`/inventory/localhost/${holder}/${aliceAddress.toLowerCase().replace("0x", "0X")}`, "invalid_address"],
        [`/inventory/localhost/${failingChecksum(holder)}/${aliceAddress}`, "invalid_address"],
        [`/inventory/localhost/${holder}/${aliceAddress}?limit=0`, "invalid_request"],
        [`/inventory/localhost/${holder}/${aliceAddress}?limit=1001`, "invalid_request"],
        [`/inventory/localhost/${holder}/${aliceAddress}?limit=ten`, "invalid_request"],
        [`/inventory/localhost/${holder}/${aliceAddress}?limit=Infinity`, "invalid_request"],
        [`/inventory/localhost/${holder}?limit=${"9".repeat(400)}`, "invalid_request"],
        [`/inventory/localhost/${holder}/${aliceAddress}?cursor=nonsense`, "invalid_cursor"],
        [
          `/inventory/localhost/${holder}/${aliceAddress}?cursor=${Buffer.from('["1; DROP TABLE nft_owners"]').toString("base64url")}`,
          "invalid_cursor",
        ],
        // A cursor of the other page: an address where a token id continues, an id where an address does.
        [
          `/inventory/localhost/${holder}/${aliceAddress}?cursor=${Buffer.from(JSON.stringify([holder.toLowerCase()])).toString("base64url")}`,
          "invalid_cursor",
        ],
        [`/inventory/localhost/${holder}?cursor=${Buffer.from('["12"]').toString("base64url")}`, "invalid_cursor"],
      ]) {
        await expectRefusal(await get(path), 400, error, { label: path });
      }
    });
  });

  describe("GET /inventory/:network/:owner", function () {
    it("lists each contract the owner holds tokens of once, checksummed", async function () {
      const { holder, aliceAddress, bobAddress } = suite();
      const { status, headers, body } = await get(`/inventory/localhost/${holder}`);
      expect(status).to.equal(200);
      expect(headers.get("x-indexed-block")).to.match(/^\d+$/);
      const expected = [aliceAddress, bobAddress].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
      expect(body).to.deep.equal(expected);
    });

    it("pages with limit and cursor", async function () {
      const { holder, aliceAddress, bobAddress } = suite();
      const texts = await allPages(`/inventory/localhost/${holder}?limit=1`);
      expect(texts.map((text) => JSON.parse(text)).flat()).to.have.members([aliceAddress, bobAddress]);
      expect(texts).to.have.length(2);
    });

    it("drops a contract once the owner has none of its tokens left", async function () {
      const { other, aliceAddress, chain } = suite();
      const { body } = await get(`/inventory/localhost/${other}`);
      expect(body).to.deep.equal([aliceAddress]);
      const { body: nobody } = await get(`/inventory/localhost/${(await chain.signer(9)).address}`);
      expect(nobody).to.deep.equal([]);
    });
  });

  describe("networks", function () {
    it("is a 400 for an unknown network and a 503 for a known one without a node", async function () {
      const { holder, aliceAddress } = suite();
      await expectRefusal(await get(`/inventory/nowhere/${holder}`), 400, "unknown_network");
      await expectRefusal(await get(`/inventory/mainnet/${holder}/${aliceAddress}`), 503, "network_unavailable");
    });

    it("is a 503 not_indexed with Retry-After while the network's index has not started", async function () {
      const { holder, chain } = suite();
      const idle = await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, INDEXER: "false" } });
      try {
        const response = await idle.fetch(`/inventory/localhost/${holder}`);
        await expectRefusal(response, 503, "not_indexed", { headers: { "retry-after": "5" } });
      } finally {
        await idle.close();
      }
    });
  });
});
