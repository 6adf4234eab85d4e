import { expect } from "chai";
import type { Database } from "../../server/db/database";
import { openPostgres } from "../../server/db/postgres";
import { holderCount, tokenHolding } from "../../server/indexer";
import { historyPage } from "../../server/indexer/store/history";
import { holdersPage, inventoryPage } from "../../server/indexer/store/reads";
import { chosenStatements, issuerStatement } from "../../server/signed-metadata/store";
import { usingPostgres } from "../helpers/database";
import { mintedInBlockOne, statementsOf } from "../helpers/prepared-reads";
import { databaseForSuite } from "../helpers/suite-database";

const network = "localhost";
const address = (kind: number, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;
const CONTRACT = address(1, 1);
const OWNER = address(2, 1);
const NFT = { kind: "nft" as const, network, contract: CONTRACT, tokenId: 1n };
/** Executions after which PostgreSQL's plan cache has weighed the generic plan (it does after the fifth). */
const EXECUTIONS = 10;

/**
 * Planning one of these statements costs PostgreSQL several times what running it does (a token's owner: about 0.4 ms
 * of backend CPU planned each time, under 0.1 ms prepared), so every read a data route sends for a request is sent
 * as a prepared statement: each connection plans it once and then runs its generic plan. A read whose generic plan
 * costs more than one made with its values (a limit, a list of ids whose length the generic plan does not know) is
 * planned again at every execution, which costs what preparing it saves. The metadata cache's reads of a list of ids
 * stay unprepared: a generic plan made while the cache was small seeks the contract and filters the ids, and kept
 * doing so once the cache had grown (server/indexer/store/marks.ts).
 */
describe("the reads a data route sends are prepared and keep their generic plan (PostgreSQL)", function () {
  before(function () {
    // PGlite runs in the process and prepares nothing: planning there is not a statement's cost on another machine.
    if (!usingPostgres()) this.skip();
  });

  const suite = databaseForSuite(async (db) => {
    await mintedInBlockOne(db, { network, contract: CONTRACT, owners: [OWNER, OWNER, address(2, 2)] });
    await db.query("ANALYZE");
    return {};
  });

  const reads: Array<[string, (db: Database) => Promise<unknown>]> = [
    ["a token's holding (the token route)", (db) => tokenHolding(db, network, CONTRACT, 1n)],
    ["a token's signed statements (the token route)", (db) => chosenStatements(db, { target: NFT, named: [], max: 10 })],
    ["one issuer's signed statement", (db) => issuerStatement(db, NFT, OWNER)],
    ["a contract's holder count", (db) => holderCount(db, network, CONTRACT)],
    ["an inventory page", (db) => inventoryPage(db, { network, owner: OWNER, contract: CONTRACT, limit: 100, spam: true })],
    ["a holders page", (db) => holdersPage(db, { network, contract: CONTRACT, limit: 100, spam: true })],
    ["a token's history", (db) => historyPage(db, { network, of: { contract: CONTRACT, tokenId: "1" }, limit: 100, spam: true })],
  ];

  for (const [what, read] of reads) {
    it(`${what}: prepared on the connection, planned once`, async function () {
      // One connection, so that the prepared statements read below are those the read's statements made.
      const db = await openPostgres((suite().database.config as { url: string }).url, { poolSize: 1 });
      try {
        const sent = await statementsOf(db, read);
        for (let i = 1; i < EXECUTIONS; i++) await read(db);
        const { rows } = await db.query<{ statement: string; generic_plans: string; custom_plans: string }>(
          "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements",
        );
        const plans = new Map(rows.map((r) => [r.statement, { generic: Number(r.generic_plans), custom: Number(r.custom_plans) }]));
        // The first five executions are planned with their values, whatever the statement.
        for (const { sql } of sent) expect(plans.get(sql), sql).to.deep.equal({ generic: EXECUTIONS - 5, custom: 5 });
      } finally {
        await db.close();
      }
    });
  }
});
