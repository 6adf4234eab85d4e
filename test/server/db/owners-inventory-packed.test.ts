import { expect } from "chai";
import type { Database, Queryable } from "../../../server/db/database";
import { inventoryPage, tokenHolding } from "../../../server/indexer/store/reads";
import { walletHoldings } from "../../../server/indexer/store/wallet-holdings";
import { writeRange } from "../../../server/indexer/store/writes";
import { ZERO_ADDRESS, type Transfer } from "../../../server/indexer/transfers";
import { beforeMigration } from "../../helpers/before-migration";
import { backendName, usingPostgres } from "../../helpers/database";
import { blockRange, genericPlan, planNodes, statementsOf } from "../../helpers/prepared-reads";
import { hash } from "../../helpers/raw-logs";
import { databaseForSuite } from "../../helpers/suite-database";

const address = (kind: number, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;
const [FIRST, SECOND] = [address(1, 1), address(1, 2)];
const [ALICE, BOB] = [address(2, 1), address(2, 2)];
const NETWORKS = ["mainnet", "sepolia"];
/** Ids of every size of numeric the key holds: zero, below 10,000, one base-10,000 digit more, and past 2^64. */
const IDS = [0n, 1n, 9_999n, 10_000n, 123_456_789_012n, 2n ** 64n + 1n];

/** A transfer of block `block` at `logIndex`, in a transaction of its own. */
const transferOf = (block: number, logIndex: number, moves: Pick<Transfer, "contract" | "tokenId" | "from" | "to">): Transfer => ({
  blockNumber: block,
  blockHash: hash(block),
  txHash: hash(1000 * block + logIndex),
  blockTime: 1_700_000_000 + block,
  logIndex,
  ...moves,
});

/** Writes `transfers` of block `block` on `network` as the indexer writes a range. */
const written = (db: Database, { network, block, transfers }: { network: string; block: number; transfers: Transfer[] }) =>
  db.transaction((tx) => writeRange(tx, blockRange(network, block, transfers)));

/** Mints each of IDS of both contracts on each network (in blocks 1 and 2), to ALICE and BOB in turn. */
async function minted(db: Database) {
  for (const [n, network] of NETWORKS.entries()) {
    const block = n + 1;
    const tokens = [FIRST, SECOND].flatMap((contract) =>
      IDS.map((tokenId, i) => ({ contract, tokenId, from: ZERO_ADDRESS, to: i % 2 ? BOB : ALICE })),
    );
    await written(db, { network, block, transfers: tokens.map((moves, logIndex) => transferOf(block, logIndex, moves)) });
  }
}

/** Every read of nft_owners by owner: each owner's inventory of each contract on each network, and a wallet's holdings. */
async function ownerReads(db: Queryable) {
  const reads: unknown[] = [];
  for (const network of NETWORKS) {
    for (const owner of [ALICE, BOB]) {
      for (const contract of [FIRST, SECOND]) reads.push(await inventoryPage(db, { network, owner, contract, limit: 100 }));
      const collections = [
        { network, contract: FIRST },
        { network, contract: SECOND, tokenIds: IDS.map(String) },
      ];
      reads.push(await walletHoldings(db, { owner, collections, maxIds: 10, delegation: null, maxDelegations: 10 }));
    }
  }
  return reads;
}

/**
 * Migration 0273 builds the inventory index again with its key in the order that packs it (the owner's and the
 * contract's ids, the network's id, the token id): the index answers every read as before, on an index written before
 * it, and the indexer goes on writing it.
 */
describe(`the inventory index packed (${backendName})`, function () {
  const suite = databaseForSuite(async (db) => {
    await minted(db);
    await db.query("ANALYZE");
    return {};
  });

  it("answers every read of an owner's tokens as before, and takes the indexer's writes after", async function () {
    await beforeMigration(273, async (db, migrateRest) => {
      await minted(db);
      const before = await ownerReads(db);
      expect(JSON.stringify(before)).to.include('"tokenId":"18446744073709551617"');
      await migrateRest();

      const { rows } = await db.query<{ definition: string }>("SELECT pg_get_indexdef('nft_owners_inventory'::regclass) AS definition");
      expect(rows[0].definition).to.match(/\(owner_id, contract_id, network_id, token_id\)$/);
      expect(await ownerReads(db)).to.deep.equal(before);

      // The indexer moves ALICE's token 0 of FIRST to BOB on mainnet: both inventories follow, and the other network's
      // token of the same contract and id stays ALICE's.
      await written(db, {
        network: "mainnet",
        block: 3,
        transfers: [transferOf(3, 0, { contract: FIRST, tokenId: 0n, from: ALICE, to: BOB })],
      });
      const ids = async (network: string, owner: string) =>
        (await inventoryPage(db, { network, owner, contract: FIRST, limit: 100 }))?.items.map((item) => item.tokenId);
      expect(await ids("mainnet", ALICE)).to.deep.equal(["9999", "123456789012"]);
      expect(await ids("mainnet", BOB)).to.deep.equal(["0", "1", "10000", "18446744073709551617"]);
      expect(await ids("sepolia", ALICE)).to.deep.equal(["0", "9999", "123456789012"]);
      expect((await tokenHolding(db, "mainnet", FIRST, 0n)).holding).to.deep.include({ owner: BOB });
    });
  });

  it("is what the reads of an owner's tokens scan, in their generic plans (PostgreSQL)", async function () {
    if (!usingPostgres()) this.skip();
    const { db } = suite();
    const collections = [{ network: "mainnet", contract: FIRST, tokenIds: ["1"] }];
    const reads: Array<(db: Database) => Promise<unknown>> = [
      (db) => inventoryPage(db, { network: "mainnet", owner: ALICE, contract: FIRST, limit: 100 }),
      (db) => walletHoldings(db, { owner: ALICE, collections, maxIds: 10, delegation: null, maxDelegations: 10 }),
    ];
    for (const read of reads) {
      const [sent] = await statementsOf(db, read);
      // A small table is read whole unless that costs more: as over a large index, scans of it are not.
      const plan = await genericPlan(db, sent, ["SET LOCAL enable_seqscan = off"]);
      const scans = planNodes(plan).filter((node) => node["Relation Name"] === "nft_owners");
      expect(scans, sent.sql).to.not.have.length(0);
      for (const scan of scans) expect(scan["Index Name"], sent.sql).to.equal("nft_owners_inventory");
    }
  });
});
