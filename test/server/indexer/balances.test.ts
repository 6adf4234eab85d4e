import { expect } from "chai";
import { MIN_NEW_ROWS_COPIED } from "../../../server/indexer/store/holdings";
import { ZERO_ADDRESS, type Transfer1155 } from "../../../server/indexer/transfers";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { hex, networkIdOf } from "../../helpers/index-sql";
import { hash } from "../../helpers/raw-logs";
import { writeRangeCounted } from "../../helpers/range-writes";
import { databaseForSuite } from "../../helpers/suite-database";

/**
 * ERC-1155 balances as a range's writer leaves them: a balance that reaches zero is deleted, whichever way it got
 * there (an index started after a mint holds negative balances, which a later transfer in brings back to zero), and a
 * range that only adds (a cold sync's mints) sends no delete at all.
 */
describe("ERC-1155 balances written by a range", function () {
  const network = "localhost";
  const A = `0x${"a".repeat(40)}`;
  const B = `0x${"b".repeat(40)}`;
  const CONTRACT = `0x${"2".repeat(40)}`;
  const suite = databaseForSuite();

  const single = (block: number, logIndex: number, from: string, to: string, tokenId: bigint, amount: bigint): Transfer1155 => ({
    blockNumber: block,
    blockHash: hash(block),
    logIndex,
    txHash: hash(1000 + block * 10 + logIndex),
    contract: CONTRACT,
    tokenId,
    from,
    to,
    blockTime: 1_700_000_000 + block,
    batchIndex: 0,
    amount,
  });

  /** Writes a range ending at `block`; the statements it sent. */
  const write = (block: number, transfers1155: Transfer1155[]) =>
    writeRangeCounted(suite().db, {
      network,
      transfers: [],
      transfers1155,
      last: { block, hash: hash(block) },
      hashes: [{ block, hash: hash(block) }],
    });
  const balances = async () =>
    (
      await suite().db.query<{ owner: string; token_id: string; balance: string }>(
        `SELECT ${hex("owner")} AS owner, token_id::text, balance::text FROM nft_balances WHERE network_id = ${networkIdOf("$1")} ORDER BY 1, 2`,
        [network],
      )
    ).rows;
  const deletes = (statements: string[]) => statements.filter((sql) => /DELETE FROM nft_balances/.test(sql)).length;

  it("sends no delete of balances for a range of mints", async function () {
    const statements = await write(10, [single(10, 0, ZERO_ADDRESS, A, 1n, 5n), single(10, 1, ZERO_ADDRESS, B, 2n, 1n)]);
    expect(deletes(statements)).to.equal(0);
    expect(await balances()).to.deep.equal([
      { owner: A, token_id: "1", balance: "5" },
      { owner: B, token_id: "2", balance: "1" },
    ]);
  });

  it("deletes the balances a range brings to zero, from above and from below", async function () {
    // Id 3 was minted to A before the index started: A's balance goes below zero when A sends it.
    await write(11, [single(11, 0, A, B, 3n, 2n)]);
    expect(await balances()).to.deep.include({ owner: A, token_id: "3", balance: "-2" });
    // B sends it back (A's balance back to zero from below, B's from above), and A its id 1 whole to B.
    const statements = await write(12, [single(12, 0, B, A, 3n, 2n), single(12, 1, A, B, 1n, 5n)]);
    expect(deletes(statements)).to.equal(1);
    expect(await balances()).to.deep.equal([
      { owner: B, token_id: "1", balance: "5" },
      { owner: B, token_id: "2", balance: "1" },
    ]);
    await expectHoldingsMatchRecount(suite().db, network);
  });

  const upserts = (statements: string[]) => statements.filter((sql) => /INSERT INTO nft_balances/.test(sql)).length;
  const balancesOf = async (...tokenIds: bigint[]) => (await balances()).filter((b) => tokenIds.map(String).includes(b.token_id));
  /** A range of MIN_NEW_ROWS_COPIED mints at `block`, each of one new id from `firstId` on, to B. */
  const mints = (block: number, firstId: bigint) =>
    Array.from({ length: MIN_NEW_ROWS_COPIED }, (_, i) => single(block, i, ZERO_ADDRESS, B, firstId + BigInt(i), 1n));

  it("loads the new balances of a range of many mints by COPY, with no upsert", async function () {
    const statements = await write(20, mints(20, 100n));
    expect(upserts(statements)).to.equal(0);
    const written = await balancesOf(...mints(20, 100n).map((t) => t.tokenId));
    expect(written).to.have.length(MIN_NEW_ROWS_COPIED);
    expect(written.every((b) => b.owner === B && b.balance === "1")).to.equal(true);
    await expectHoldingsMatchRecount(suite().db, network);
  });

  it("upserts a range of a few mints at once", async function () {
    const statements = await write(21, [single(21, 0, ZERO_ADDRESS, A, 20n, 4n)]);
    expect(upserts(statements)).to.equal(1);
    expect(await balancesOf(20n)).to.deep.equal([{ owner: A, token_id: "20", balance: "4" }]);
  });

  it("adds a range of many mints to a balance already there, beside new ones (the COPY stops at it, none of it kept)", async function () {
    // The last mint gives B id 100 again: the COPY has written all the others when it meets B's balance.
    const range = [...mints(22, 1_000n).slice(1), single(22, MIN_NEW_ROWS_COPIED, ZERO_ADDRESS, B, 100n, 2n)];
    const statements = await write(22, range);
    expect(upserts(statements)).to.equal(1);
    expect(await balancesOf(100n, 1_001n, 1_099n)).to.deep.equal([
      { owner: B, token_id: "100", balance: "3" },
      { owner: B, token_id: "1001", balance: "1" },
      { owner: B, token_id: "1099", balance: "1" },
    ]);
    expect(await balancesOf(1_000n)).to.deep.equal([]);
    await expectHoldingsMatchRecount(suite().db, network);
  });

  it("deletes a balance below zero that a range of many mints brings back to zero", async function () {
    // Id 23 was minted to A before the index started; A sends it to B, then gets as much minted again.
    await write(23, [single(23, 0, A, B, 23n, 2n)]);
    expect(await balancesOf(23n)).to.deep.equal([
      { owner: A, token_id: "23", balance: "-2" },
      { owner: B, token_id: "23", balance: "2" },
    ]);
    const statements = await write(24, [single(24, 0, ZERO_ADDRESS, A, 23n, 2n), ...mints(24, 2_000n).slice(1)]);
    expect(deletes(statements)).to.equal(1);
    expect(await balancesOf(23n)).to.deep.equal([{ owner: B, token_id: "23", balance: "2" }]);
    await expectHoldingsMatchRecount(suite().db, network);
  });
});
