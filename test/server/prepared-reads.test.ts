import { expect } from "chai";
import type { Database, Queryable } from "../../server/db/database";
import { openPostgres } from "../../server/db/postgres";
import { holderCount, tokenHolding } from "../../server/indexer";
import { readCursor } from "../../server/indexer/store/blocks";
import { historyPage } from "../../server/indexer/store/history";
import { holdersPage, inventoryPage } from "../../server/indexer/store/reads";
import { chosenStatements, issuerStatement } from "../../server/signed-metadata/store";
import { cachedMetadata } from "../../server/token-metadata/store";
import { usingPostgres } from "../helpers/database";
import { executeArguments, mintedInBlockOne, statementsOf } from "../helpers/prepared-reads";
import { databaseForSuite } from "../helpers/suite-database";

const network = "localhost";
const address = (kind: number, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;
const CONTRACT = address(1, 1);
const OWNER = address(2, 1);
/** The ids of an inventory page of 100 that skips every other id. */
const PAGE_IDS = Array.from({ length: 100 }, (_, i) => BigInt(1_000 + 2 * i));
const NFT = { kind: "nft" as const, network, contract: CONTRACT, tokenId: 1n };
/** Tokens of CONTRACT in the metadata cache. */
const CACHED_TOKENS = 20_000;
/** Executions after which PostgreSQL's plan cache has weighed the generic plan (it does after the fifth). */
const EXECUTIONS = 10;

/**
 * Planning one of these statements costs PostgreSQL several times what running it does (a token's owner: about 0.4 ms
 * of backend CPU planned each time, under 0.1 ms prepared), so the reads the data routes send for a request are sent
 * as prepared statements: each connection plans it once and then runs its generic plan. A read whose generic plan
 * costs more than one made with its values (a limit, a list of ids whose length the generic plan does not know) is
 * planned again at every execution, which costs what preparing it saves.
 */
describe("the reads of the data routes are prepared and keep their generic plan (PostgreSQL)", function () {
  before(function () {
    // PGlite runs in the process and prepares nothing: planning there is not a statement's cost on another machine.
    if (!usingPostgres()) this.skip();
  });

  const suite = databaseForSuite(async (db) => {
    await mintedInBlockOne(db, { network, contract: CONTRACT, owners: [OWNER, OWNER, address(2, 2)] });
    await fillCache(db);
    await db.query("ANALYZE");
    return {};
  });

  const reads: Array<[string, (db: Database) => Promise<unknown>]> = [
    ["a token's holding (the token route)", (db) => tokenHolding(db, network, CONTRACT, 1n)],
    [
      "a token's cached metadata and its expiry (the token route)",
      (db) => cachedMetadata(db, { network, contract: CONTRACT, ids: [1n], budget: 100_000 }),
    ],
    [
      "the cached metadata of an inventory page's ids and their expiry",
      (db) => cachedMetadata(db, { network, contract: CONTRACT, ids: PAGE_IDS, budget: 100_000 }),
    ],
    ["a token's signed statements (the token route)", (db) => chosenStatements(db, { target: NFT, named: [], max: 10 })],
    ["one issuer's signed statement", (db) => issuerStatement(db, NFT, OWNER)],
    ["a contract's holder count", (db) => holderCount(db, network, CONTRACT)],
    ["the index's cursor (the approval and owner routes, each step of the indexer)", (db) => readCursor(db, network)],
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

/** A cache of many tokens of CONTRACT, as a contract's metadata fills it. */
async function fillCache(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO token_metadata (network, contract, token_id, token_uri, metadata, fetched_at, expires_at)
     SELECT $1, $2, g, 'ipfs://token/' || g, '{}', now(), now() + interval '1 hour' FROM generate_series(0, $3::int - 1) g`,
    [network, CONTRACT, CACHED_TOKENS],
  );
}

/** A node of `EXPLAIN (ANALYZE, FORMAT JSON)`, with the fields read here. */
interface AnalyzedNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  Plans?: AnalyzedNode[];
}

/**
 * A connection keeps the generic plan it made of a prepared statement until the tables it reads are analyzed again.
 * The metadata cache starts empty (a new service's first answers), and a plan made then must still seek the ids asked
 * once the cache holds many entries of their contract: a plan that read the contract's entries and tested each against
 * the list, made over the empty cache, was kept for as long as the cache filled up.
 */
describe("the metadata cache's prepared reads seek their ids with a plan made over an empty cache (PostgreSQL)", function () {
  before(function () {
    if (!usingPostgres()) this.skip();
  });

  const suite = databaseForSuite();

  const reads: Array<[string, (db: Database) => Promise<unknown>, number]> = [
    ["a token's cached metadata", (db) => cachedMetadata(db, { network, contract: CONTRACT, ids: [7n], budget: 100_000 }), 1],
    [
      "the cached metadata of an inventory page's ids",
      (db) => cachedMetadata(db, { network, contract: CONTRACT, ids: PAGE_IDS, budget: 100_000 }),
      PAGE_IDS.length,
    ],
  ];

  for (const [what, read, found] of reads) {
    it(`${what}: reads no more of the cache than the span of its ids`, async function () {
      const { db } = suite();
      const [{ sql, params }] = await statementsOf(db, read);
      // Rolled back at the end: each test starts over an empty cache.
      const rollBack = new Error("roll back");
      const plan = await db
        .transaction(async (tx) => {
          await tx.query(`PREPARE probe AS ${sql}`);
          for (let i = 0; i < EXECUTIONS; i++) await tx.query(`EXECUTE probe${executeArguments(params)}`);
          await fillCache(tx);
          const { rows } = await tx.query<{ "QUERY PLAN": Array<{ Plan: AnalyzedNode }> }>(
            `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE probe${executeArguments(params)}`,
          );
          // A prepared statement outlives its transaction.
          await tx.query("DEALLOCATE probe");
          throw Object.assign(rollBack, { plan: rows[0]["QUERY PLAN"][0].Plan });
        })
        .catch((error: unknown) => {
          if (error !== rollBack) throw error;
          return (error as Error & { plan: AnalyzedNode }).plan;
        });
      let rowsRead = 0;
      const walk = (node: AnalyzedNode) => {
        if (node["Relation Name"] === "token_metadata") rowsRead += node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0);
        node.Plans?.forEach(walk);
      };
      walk(plan);
      // The ids asked are found; between the first and the last, at most as many again are read.
      expect(rowsRead, JSON.stringify(plan)).to.be.within(found, 2 * found);
    });
  }
});
