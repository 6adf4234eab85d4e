import { expect } from "chai";
import { toJson } from "../../../server/http/wire";
import { ZERO_ADDRESS } from "../../../server/indexer/transfers";
import { TestERC1155__factory } from "../../../typechain-types";
import { fetchJson } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";

interface Item {
  block: number;
  time: number | null;
  tx: string;
  logIndex: number;
  batchIndex?: number;
  from: string;
  to: string;
  contract: string;
  id: number;
  value?: number;
}

describe("transfer history routes", function () {
  const BIG_ID = 2n ** 64n + 7n;
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const [a, b, c] = await Promise.all([1, 2, 3].map((i) => chain.signer(i)));
    const alice = await chain.deployAlice();
    const multi = await new TestERC1155__factory(await chain.signer(0)).deploy();
    const [aliceAddress, multiAddress] = await Promise.all([alice.getAddress(), multi.getAddress()]);
    return { a, b, c, alice, multi, aliceAddress, multiAddress, t: await chain.startIndexingApp() };
  });

  const get = (path: string) => fetchJson(suite().t, path);
  /** Every page through Link rel=next. */
  async function all(path: string): Promise<Item[]> {
    const items: Item[] = [];
    for (let next: string | undefined = path; next;) {
      const page = await get(next);
      expect(page.status).to.equal(200);
      items.push(...page.body);
      const link = page.headers.get("link");
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    }
    return items;
  }
  /** What the chain says happened in a mined transaction: its block, time and the transfer log's index. */
  async function mined(sent: Promise<{ wait(): Promise<unknown> }>) {
    const receipt = (await (await sent).wait()) as { blockNumber: number; hash: string; logs: Array<{ index: number }> };
    const block = await suite().chain.provider.getBlock(receipt.blockNumber);
    return { block: receipt.blockNumber, time: block!.timestamp, tx: receipt.hash, logIndex: receipt.logs[0].index };
  }

  let history: Item[];
  it("lists one token's ERC-721 transfers newest first, with block time, tx and log index", async function () {
    const { a, b, alice, aliceAddress, t, chain } = suite();
    const mint = await mined(alice.mint(a.address, BIG_ID));
    const send = await mined(alice.connect(a).transferFrom(a.address, b.address, BIG_ID));
    const back = await mined(alice.connect(b).transferFrom(b.address, a.address, BIG_ID));
    await indexedTo(t.app.db, "localhost", chain.provider);
    const { status, headers, text, body } = await get(`/transfers/localhost/${aliceAddress}/${BIG_ID}`);
    expect(status).to.equal(200);
    expect(Number(headers.get("x-indexed-block"))).to.be.at.least(back.block);
    history = body;
    expect(body).to.deep.equal([
      { ...back, from: b.address, to: a.address, contract: aliceAddress, id: Number(BIG_ID) },
      { ...send, from: a.address, to: b.address, contract: aliceAddress, id: Number(BIG_ID) },
      { ...mint, from: ZERO_ADDRESS, to: a.address, contract: aliceAddress, id: Number(BIG_ID) },
    ]);
    // Raw text, byte for byte as the wire form's JSON writer gives it: the id keeps all its digits.
    expect(text).to.equal(toJson(body.map((item: Item) => ({ ...item, id: BIG_ID }))));
  });

  it("gives the same EIP-55 addresses for those indexed before the index kept their checksummed form", async function () {
    const { aliceAddress, t } = suite();
    // An index upgraded to 0266_address_checksums keeps NULL for the addresses it held: the service hashes those.
    const { rows: kept } = await t.app.db.query<{ id: number; eip55: string }>(
      "SELECT id, eip55 FROM nft_addresses WHERE eip55 IS NOT NULL",
    );
    expect(kept.length).to.be.above(0);
    await t.app.db.query("UPDATE nft_addresses SET eip55 = NULL");
    try {
      const { status, body } = await get(`/transfers/localhost/${aliceAddress}/${BIG_ID}`);
      expect(status).to.equal(200);
      expect(body).to.deep.equal(history);
    } finally {
      await t.app.db.query(
        "UPDATE nft_addresses n SET eip55 = k.eip55 FROM unnest($1::int[], $2::text[]) AS k(id, eip55) WHERE n.id = k.id",
        [kept.map((r) => r.id), kept.map((r) => r.eip55)],
      );
    }
  });

  it("gives ERC-1155 transfers with value and batch index", async function () {
    const { a, c, multi, multiAddress, t, chain } = suite();
    const single = await mined(multi.mint(a.address, 1n, 5n));
    const batch = await mined(multi.connect(a).safeBatchTransferFrom(a.address, c.address, [1n], [2n], "0x"));
    await indexedTo(t.app.db, "localhost", chain.provider);
    const expected = [
      { ...batch, batchIndex: 0, from: a.address, to: c.address, contract: multiAddress, id: 1, value: 2 },
      { ...single, batchIndex: 0, from: ZERO_ADDRESS, to: a.address, contract: multiAddress, id: 1, value: 5 },
    ];
    const { text, body } = await get(`/transfers/localhost/${multiAddress}/1`);
    expect(body).to.deep.equal(expected);
    expect(text).to.equal(toJson(expected));
  });

  it("lists an address's transfers in and out, both standards, newest first, paged without gaps or repeats", async function () {
    const { a, c, alice, t, chain } = suite();
    const mine = await all(`/transfers/localhost/owner/${a.address}?limit=2`);
    const keys = mine.map((i) => [i.block, i.logIndex, i.batchIndex ?? 0]);
    expect(keys).to.deep.equal([...keys].sort((x, y) => y[0] - x[0] || y[1] - x[1] || y[2] - x[2]));
    expect(mine).to.have.length(5);
    expect(mine.every((i) => i.from === a.address || i.to === a.address)).to.equal(true);
    // A transfer to oneself is listed once.
    await (await alice.connect(a).transferFrom(a.address, a.address, BIG_ID)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect(await all(`/transfers/localhost/owner/${a.address}`)).to.have.length(6);
    expect(await all(`/transfers/localhost/owner/${c.address.toLowerCase()}`)).to.have.length(1);
    expect((await get(`/transfers/localhost/owner/${(await chain.signer(9)).address}`)).body).to.deep.equal([]);
  });

  it("forgets transfers a reorg undid", async function () {
    const { a, b, c, alice, multi, aliceAddress, t, chain } = suite();
    const snapshot = await chain.provider.send("evm_snapshot", []);
    await (await alice.connect(a).transferFrom(a.address, c.address, BIG_ID)).wait();
    await (await multi.connect(c).safeTransferFrom(c.address, b.address, 1n, 1n, "0x")).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect((await get(`/transfers/localhost/${aliceAddress}/${BIG_ID}`)).body[0].to).to.equal(c.address);
    expect(await all(`/transfers/localhost/owner/${c.address}`)).to.have.length(3);
    await chain.provider.send("evm_revert", [snapshot]);
    for (let i = 0; i < 3; i++) await (await alice.mint(b.address, 100n + BigInt(i))).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const token = (await get(`/transfers/localhost/${aliceAddress}/${BIG_ID}`)).body as Item[];
    expect(token.slice(-3)).to.deep.equal(history);
    expect(token[0].to).to.equal(a.address);
    expect(await all(`/transfers/localhost/owner/${c.address}`)).to.have.length(1);
  });

  it("refuses bad networks, addresses, ids, limits and cursors with a 4xx {error, message}", async function () {
    const { a, aliceAddress } = suite();
    const cursor = (key: unknown) => Buffer.from(JSON.stringify(key)).toString("base64url");
    const cases: Array<[string, number, string]> = [
      [`/transfers/nowhere/${aliceAddress}/1`, 400, "unknown_network"],
      [`/transfers/nowhere/owner/${a.address}`, 400, "unknown_network"],
      [`/transfers/mainnet/owner/${a.address}`, 503, "network_unavailable"],
      [`/transfers/localhost/0x12/1`, 400, "invalid_address"],
      [`/transfers/localhost/owner/0x12`, 400, "invalid_address"],
      [`/transfers/localhost/owner/${a.address}%00`, 400, "invalid_request"],
      [`/transfers/localhost/owner/%E2%80%AE${a.address.slice(2)}`, 400, "invalid_address"],
      [`/transfers/localhost/${aliceAddress}/1%00`, 400, "invalid_request"],
      [`/transfers/localhost/${aliceAddress}/-1`, 400, "invalid_token_id"],
      [`/transfers/localhost/${aliceAddress}/0x10`, 400, "invalid_token_id"],
      [`/transfers/localhost/${aliceAddress}/${"9".repeat(79)}`, 400, "invalid_token_id"],
      [`/transfers/localhost/${aliceAddress}/1?limit=0`, 400, "invalid_request"],
      [`/transfers/localhost/${aliceAddress}/1?limit=Infinity`, 400, "invalid_request"],
      [`/transfers/localhost/owner/${a.address}?limit=1001`, 400, "invalid_request"],
      [`/transfers/localhost/owner/${a.address}?cursor=nonsense`, 400, "invalid_cursor"],
      [`/transfers/localhost/owner/${a.address}?cursor=${cursor(["1", "2"])}`, 400, "invalid_cursor"],
      [`/transfers/localhost/owner/${a.address}?cursor=${cursor([`${2n ** 63n}`, "0", "0"])}`, 400, "invalid_cursor"],
      [`/transfers/localhost/owner/${a.address}?cursor=${cursor(["1", `${2n ** 31n}`, "0"])}`, 400, "invalid_cursor"],
      [`/transfers/localhost/owner/${a.address}?cursor=${cursor(["1", "0", "0\u0000"])}`, 400, "invalid_cursor"],
    ];
    for (const [path, status, error] of cases) {
      const response = await get(path);
      expect([path, response.status, response.body.error]).to.deep.equal([path, status, error]);
      expect(response.body.message).to.be.a("string").and.not.equal("");
    }
  });
});
