import { expect } from "chai";
import type { Database, Queryable } from "../../../server/db/database";
import { historyPage } from "../../../server/indexer/store/history";
import { holderCount, holdersPage, inventoryPage, tokenHolding } from "../../../server/indexer/store/reads";
import { walletHoldings } from "../../../server/indexer/store/wallet-holdings";
import { ownerCollectionsPage } from "../../../server/collections/owner-page";
import { writeRange } from "../../../server/indexer/store/writes";
import { ZERO_ADDRESS, type Transfer, type Transfer1155 } from "../../../server/indexer/transfers";
import { backendName } from "../../helpers/database";
import { hash } from "../../helpers/raw-logs";
import { databaseForSuite } from "../../helpers/suite-database";
import { genericPlan, planNodes, statementsOf } from "../../helpers/prepared-reads";

const network = "localhost";
const address = (kind: number, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;
const ERC721 = address(1, 1);
const ERC1155 = address(1, 2);
const OWNER = address(2, 1);
const OTHER = address(2, 2);

/**
 * A read's addresses come as hex text (its parameters, the collections a holdings read is asked about) that its
 * statement turns into bytes. Where a table is small (the dictionary of a new index), the planner reads it whole rather
 * than by its key, and a condition in a scan's filter is evaluated on every row it reads: the conversion must be made
 * once, not once per row read (a few hundred hex decodings per lookup, about two fifths of an inventory page's time
 * in the database). Each read sent as a prepared statement is explained in the generic plan it runs with after its
 * first executions; a statement sent unprepared is planned with its values, where the conversion is folded into a
 * constant.
 */
describe(`the store's prepared reads convert each address once (${backendName})`, function () {
  const suite = databaseForSuite(async (db) => {
    // A small index: 200 holders, and a dictionary small enough to be read whole.
    const transfers: Transfer[] = [];
    const transfers1155: Transfer1155[] = [];
    for (let i = 0; i < 200; i++) {
      const base = { blockNumber: 1, blockHash: hash(1), txHash: hash(1000 + i), blockTime: 1_700_000_000 };
      transfers.push({ ...base, logIndex: i, contract: ERC721, tokenId: BigInt(i), from: ZERO_ADDRESS, to: i % 2 ? OWNER : address(3, i) });
      transfers1155.push({
        ...base,
        logIndex: 1000 + i,
        batchIndex: 0,
        contract: ERC1155,
        tokenId: BigInt(i % 3),
        amount: 2n,
        from: ZERO_ADDRESS,
        to: i % 2 ? OWNER : address(4, i),
      });
    }
    transfers.push({
      blockNumber: 2,
      blockHash: hash(2),
      txHash: hash(2),
      blockTime: 1_700_000_012,
      logIndex: 0,
      contract: ERC721,
      tokenId: 1n,
      from: OWNER,
      to: OTHER,
    });
    await db.transaction((tx) =>
      writeRange(tx, { network, transfers, transfers1155, last: { block: 2, hash: hash(2) }, hashes: [{ block: 2, hash: hash(2) }] }),
    );
    await db.query("ANALYZE");
    return {};
  });

  /** The filters of `sql`'s generic plan that convert an address (a parameter, a collection asked) on every row they test. */
  async function conversionsPerRow(db: Database, sql: string, params: readonly unknown[]): Promise<string[]> {
    const found: string[] = [];
    for (const node of planNodes(await genericPlan(db, { sql, params }))) {
      for (const filter of [node.Filter, node["Join Filter"]]) {
        if (filter && /decode\(substr\(/.test(filter)) found.push(`${node["Node Type"]} on ${node["Relation Name"] ?? "?"}: ${filter}`);
      }
    }
    return found;
  }

  const collections = [
    { network, contract: ERC721 },
    { network, contract: ERC1155, tokenIds: ["1", "2"] },
  ];
  /** The reads sent as prepared statements: each connection plans them once, and then runs their generic plan. */
  const reads: Array<[string, (db: Queryable) => Promise<unknown>]> = [
    ["an ERC-721 inventory page", (db) => inventoryPage(db, { network, owner: OWNER, contract: ERC721, limit: 100, spam: true })],
    ["an ERC-1155 inventory page", (db) => inventoryPage(db, { network, owner: OWNER, contract: ERC1155, limit: 100 })],
    ["the holders of a contract", (db) => holdersPage(db, { network, contract: ERC721, limit: 100, spam: true })],
    ["the holders of a token", (db) => holdersPage(db, { network, contract: ERC721, tokenId: "1", limit: 100, spam: true })],
    ["the holders of an ERC-1155 id", (db) => holdersPage(db, { network, contract: ERC1155, tokenId: "1", limit: 100 })],
    ["an owner's history", (db) => historyPage(db, { network, of: { owner: OWNER }, limit: 100, spam: true })],
    ["a token's history", (db) => historyPage(db, { network, of: { contract: ERC721, tokenId: "1" }, limit: 100, spam: true })],
    ["a contract's holder count", (db) => holderCount(db, network, ERC721)],
    ["an ERC-721 token's owner", (db) => tokenHolding(db, network, ERC721, 1n)],
    ["an ERC-1155 id's holders", (db) => tokenHolding(db, network, ERC1155, 1n)],
    ["an owner's collections", (db) => ownerCollectionsPage(db, { network, owner: OWNER, limit: 100, budget: 100 })],
    ["a wallet's holdings", (db) => walletHoldings(db, { owner: OWNER, collections, maxIds: 10, delegation: null, maxDelegations: 10 })],
    [
      "a wallet's holdings with delegations",
      (db) => walletHoldings(db, { owner: OWNER, collections, maxIds: 10, delegation: { rights: null }, maxDelegations: 10 }),
    ],
  ];

  for (const [what, read] of reads) {
    it(`${what}: no filter converts an address row by row`, async function () {
      const { db } = suite();
      for (const { sql, params } of await statementsOf(db, read)) expect(await conversionsPerRow(db, sql, params), sql).to.deep.equal([]);
    });
  }
});
