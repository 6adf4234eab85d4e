import { expect } from "chai";
import { MIN_NEW_ROWS_COPIED } from "../../../server/indexer/store/holdings";
import { ZERO_ADDRESS, type Transfer } from "../../../server/indexer/transfers";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { bytes, hex, networkIdOf } from "../../helpers/index-sql";
import { hash } from "../../helpers/raw-logs";
import { writeRangeCounted } from "../../helpers/range-writes";
import { databaseForSuite } from "../../helpers/suite-database";

/**
 * Holdings and holder counts as a range's writer leaves them: the holdings of addresses the range added to the
 * dictionary (new wallets, a new collection) are new rows, loaded by COPY when there are many; the others, and a few,
 * are upserted; and should a holding of a new address be there after all, the COPY is undone and every one upserted.
 */
describe("Holdings written by a range", function () {
  const network = "localhost";
  const CONTRACT = `0x${"3".repeat(40)}`;
  const suite = databaseForSuite();
  /** The address of the i-th wallet of a test (`prefix`: a hex digit of its own per test, so each test's wallets are new). */
  const wallet = (prefix: string, i: number) => `0x${prefix}${i.toString(16).padStart(39, "0")}`;

  const mint = (block: number, logIndex: number, contract: string, to: string, tokenId: bigint): Transfer => ({
    blockNumber: block,
    blockHash: hash(block),
    logIndex,
    txHash: hash(2000 + block * 200 + logIndex),
    contract,
    tokenId,
    from: ZERO_ADDRESS,
    to,
    blockTime: 1_700_000_000 + block,
  });
  /** MIN_NEW_ROWS_COPIED mints at `block` of `contract`, ids from `firstId` on, the i-th to `owner(i)`. */
  const mints = (block: number, contract: string, firstId: bigint, owner: (i: number) => string) =>
    Array.from({ length: MIN_NEW_ROWS_COPIED }, (_, i) => mint(block, i, contract, owner(i), firstId + BigInt(i)));

  /** Writes a range of `network` ending at `block`; the statements it sent. */
  const write = (block: number, transfers: Transfer[], on = network) =>
    writeRangeCounted(suite().db, { network: on, transfers, last: { block, hash: hash(block) }, hashes: [{ block, hash: hash(block) }] });
  const upserts = (statements: string[]) => statements.filter((sql) => /INSERT INTO nft_holdings/.test(sql)).length;
  const holdingsOf = async (contract: string, on = network) =>
    (
      await suite().db.query<{ owner: string; count: string }>(
        `SELECT ${hex("owner")} AS owner, count::text FROM nft_holdings
         WHERE network_id = ${networkIdOf("$1")} AND contract = ${bytes("$2")} ORDER BY 1`,
        [on, contract],
      )
    ).rows;
  const holdersOf = async (contract: string, on = network) =>
    (
      await suite().db.query<{ holders: string }>(
        `SELECT holders::text FROM nft_holder_counts WHERE network_id = ${networkIdOf("$1")} AND contract = ${bytes("$2")}`,
        [on, contract],
      )
    ).rows[0]?.holders;

  it("loads the holdings of many new wallets by COPY, with no upsert, each a new holder", async function () {
    const statements = await write(
      10,
      mints(10, CONTRACT, 0n, (i) => wallet("a", i)),
    );
    expect(upserts(statements)).to.equal(0);
    const holdings = await holdingsOf(CONTRACT);
    expect(holdings).to.have.length(MIN_NEW_ROWS_COPIED);
    expect(holdings.every((h) => h.count === "1")).to.equal(true);
    expect(await holdersOf(CONTRACT)).to.equal(String(MIN_NEW_ROWS_COPIED));
    await expectHoldingsMatchRecount(suite().db, network);
  });

  it("upserts the holdings of wallets the index already knew", async function () {
    const statements = await write(
      11,
      mints(11, CONTRACT, 1_000n, (i) => wallet("a", i)),
    );
    expect(upserts(statements)).to.equal(1);
    expect((await holdingsOf(CONTRACT)).every((h) => h.count === "2")).to.equal(true);
    expect(await holdersOf(CONTRACT)).to.equal(String(MIN_NEW_ROWS_COPIED));
    await expectHoldingsMatchRecount(suite().db, network);
  });

  it("loads the holdings of a new collection by COPY, of wallets old and new", async function () {
    const COLLECTION = `0x${"4".repeat(40)}`;
    const statements = await write(
      12,
      mints(12, COLLECTION, 0n, (i) => (i % 2 === 0 ? wallet("a", i) : wallet("b", i))),
    );
    expect(upserts(statements)).to.equal(0);
    expect(await holdersOf(COLLECTION)).to.equal(String(MIN_NEW_ROWS_COPIED));
    await expectHoldingsMatchRecount(suite().db, network);
  });

  it("upserts a few holdings of new wallets at once", async function () {
    const statements = await write(13, [mint(13, 0, CONTRACT, wallet("c", 0), 5_000n)]);
    expect(upserts(statements)).to.equal(1);
    expect(await holdersOf(CONTRACT)).to.equal(String(MIN_NEW_ROWS_COPIED + 1));
    await expectHoldingsMatchRecount(suite().db, network);
  });

  it("upserts every holding when one of a new wallet is there after all, none of the COPY kept", async function () {
    // On a network of its own: the holding planted here has no owner row, which a recount would not find.
    const other = "planted";
    await write(1, [mint(1, 0, CONTRACT, wallet("d", 999), 0n)], other);
    const planted = wallet("d", MIN_NEW_ROWS_COPIED - 1);
    await suite().db.query(
      `INSERT INTO nft_holdings (network_id, contract, owner, count) VALUES (${networkIdOf("$1")}, ${bytes("$2")}, ${bytes("$3")}, 5)`,
      [other, CONTRACT, planted],
    );
    const statements = await write(
      2,
      mints(2, CONTRACT, 1n, (i) => wallet("d", i)),
      other,
    );
    expect(upserts(statements)).to.equal(1);
    const holdings = await holdingsOf(CONTRACT, other);
    expect(holdings).to.have.length(MIN_NEW_ROWS_COPIED + 1);
    expect(holdings.filter((h) => h.owner === planted)).to.deep.equal([{ owner: planted, count: "6" }]);
    expect(holdings.filter((h) => h.owner !== planted).every((h) => h.count === "1")).to.equal(true);
    // The planted holding was counted by no one: the upsert finds it there, so it adds no holder.
    expect(await holdersOf(CONTRACT, other)).to.equal(String(MIN_NEW_ROWS_COPIED));
  });
});
