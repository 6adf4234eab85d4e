import { expect } from "chai";
import type { Database } from "../../../server/db/database";
import { migrate, readMigrations } from "../../../server/db/migrate";
import { changesAfter, networkChangesAfter } from "../../../server/indexer/store/reads";
import { appendReset } from "../../../server/indexer/store/changes";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";

const address = (byte: string) => `0x${byte.repeat(20)}`;
const hash = (byte: string) => `0x${byte.repeat(32)}`;
const [CONTRACT, SENDER, RECEIVER, ERC1155, HOLDER] = ["c1", "a1", "b1", "e1", "f1"].map(address);

/** The change log's columns as the text layout held them, in the order its reads answered them. */
const TEXT_COLUMNS =
  "id, network, kind, block_number, log_index, batch_index, block_time, tx_hash, contract, token_id, to_token_id, from_address, to_address, amount";

/**
 * Migration 0303 moves the change log to the compact layout: every row it held reads as before (in id order, by
 * resuming subscribers too), whatever its kind, including addresses the ERC-721 index never saw and a network it has
 * no id for; and ids go on after the last one, so a subscriber's Last-Event-ID still resumes where it stopped.
 */
describe(`the change log's migration to the compact layout (${backendName})`, function () {
  let testDb: TestDatabase;
  let db: Database;

  before(async function () {
    testDb = await createTestDatabase({ unmigrated: true });
    db = await testDb.open();
    await migrate(
      db,
      readMigrations().filter((m) => m.version < 303),
    );
    // The ERC-721 index knows the contract and its sender, not the receiver, the ERC-1155 contract or its holder.
    await db.query("INSERT INTO indexer_networks (name) VALUES ('mainnet')");
    await db.query("INSERT INTO nft_addresses (address) VALUES (decode($1, 'hex')), (decode($2, 'hex'))", [
      CONTRACT.slice(2),
      SENDER.slice(2),
    ]);
    await db.query(
      `INSERT INTO nft_changes (network, kind, block_number, block_time, tx_hash, log_index, batch_index, contract, token_id, to_token_id, from_address, to_address, amount)
       VALUES
         ('mainnet', 'transfer', 100, 1700000000, $1, 3, NULL, $3, 7, NULL, $4, $5, NULL),
         ('mainnet', 'transfer', 101, NULL, $2, 0, 2, $6, 123456789012345678901234567890123456789012345678901234567890, NULL, $4, $7, 5),
         ('mainnet', 'metadata', 101, 1700000012, $2, 1, NULL, $3, 1, 99, NULL, NULL, NULL),
         ('mainnet', 'removed', 101, NULL, $2, 0, 2, $6, 123456789012345678901234567890123456789012345678901234567890, NULL, $4, $7, 5),
         ('sepolia', 'reset', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
      [hash("aa"), hash("bb"), CONTRACT, SENDER, RECEIVER, ERC1155, HOLDER],
    );
  });
  after(async function () {
    await db?.close();
    await testDb?.drop();
  });

  it("reads every row as before, filters them as before, and gives the next change the next id", async function () {
    const { rows: before } = await db.query<{ id: string }>(`SELECT ${TEXT_COLUMNS} FROM nft_changes ORDER BY id`);
    expect(before).to.have.length(5);
    expect((await migrate(db)).map((m) => m.version)).to.include(303);

    expect(await changesAfter(db, 0n)).to.deep.equal(before);
    expect(await changesAfter(db, BigInt(before[1].id))).to.deep.equal(before.slice(2));
    const upTo = BigInt(before[4].id);
    expect(await networkChangesAfter(db, 0n, upTo, { network: "mainnet", owner: HOLDER })).to.deep.equal([before[1], before[3]]);
    expect(await networkChangesAfter(db, 0n, upTo, { network: "mainnet", contract: CONTRACT })).to.deep.equal([before[0], before[2]]);
    expect(await networkChangesAfter(db, 0n, upTo, { network: "mainnet", owner: address("99") })).to.deep.equal([]);
    expect(await networkChangesAfter(db, 0n, upTo, { network: "sepolia" })).to.deep.equal([before[4]]);

    await db.transaction((tx) => appendReset(tx, "mainnet"));
    const [next] = await changesAfter(db, upTo);
    expect(next).to.deep.include({ id: String(upTo + 1n), network: "mainnet", kind: "reset", contract: null, from_address: null });
  });
});
