import { expect } from "chai";
import type { Queryable } from "../../../server/db/database";
import { writeRange } from "../../../server/indexer/store/writes";
import { ZERO_ADDRESS, type Transfer1155 } from "../../../server/indexer/transfers";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { hex, networkIdOf } from "../../helpers/index-sql";
import { hash } from "../../helpers/raw-logs";
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
  const write = async (block: number, transfers1155: Transfer1155[]): Promise<string[]> => {
    const statements: string[] = [];
    await suite().db.transaction((tx) => {
      const counted: Queryable = {
        query: (sql, params, options) => {
          statements.push(sql);
          return tx.query(sql, params, options);
        },
        exec: (sql) => tx.exec(sql),
        copyBinary: (table, columns, rows) => tx.copyBinary(table, columns, rows),
      };
      return writeRange(counted, {
        network,
        transfers: [],
        transfers1155,
        last: { block, hash: hash(block) },
        hashes: [{ block, hash: hash(block) }],
      });
    });
    return statements;
  };
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
});
