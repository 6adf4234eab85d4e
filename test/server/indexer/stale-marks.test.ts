import { expect } from "chai";
import type { Database } from "../../../server/db/database";
import { recordMarks, staleCachedTokens } from "../../../server/indexer/store/marks";
import { usingPostgres } from "../../helpers/database";
import { explainedPlan, planNodes, statementsOf } from "../../helpers/prepared-reads";
import { databaseForSuite } from "../../helpers/suite-database";

const network = "mainnet";
const CONTRACT = `0x1${"0".repeat(38)}1`;
const OTHER = `0x1${"0".repeat(38)}2`;
/** Cached documents of each contract: a cache large enough that reading it whole costs what its key saves. */
const CACHED = 100_000;
const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * The background sweep asks every second for the cached documents a metadata mark made stale. Marks are few and the
 * cache is large, so the statement must read the cache by its key from each mark: a plan that reads the cache whole
 * costs a scan of every cached document each second (about half a second of PostgreSQL's CPU over a million), for as
 * long as a mark is kept. The marks' table of a new index has no statistics until it has taken enough writes for
 * autovacuum to analyze it, and PostgreSQL then assumes a few hundred marks.
 */
describe("the sweep's read of stale cached documents (PostgreSQL)", function () {
  before(function () {
    if (!usingPostgres()) this.skip();
  });

  const suite = databaseForSuite(async (db) => {
    for (const contract of [CONTRACT, OTHER]) {
      await db.query(
        `INSERT INTO token_metadata (network, contract, token_id, token_uri, metadata, fetched_at, expires_at)
         SELECT $1, $2, g, 'ipfs://token/' || g, '{}', now() - interval '1 hour', now() + interval '1 hour' FROM generate_series(0, $3::int - 1) g`,
        [network, contract, CACHED],
      );
    }
    // The cache is analyzed (autovacuum does as it fills), the marks' table never was.
    await db.query("ANALYZE token_metadata");
    return {};
  });

  /** The node types of the scans of the cache in the plan of the statement `read` sends. */
  async function scansOfCache(db: Database, read: (db: Database) => Promise<unknown>): Promise<string[]> {
    const [sent] = await statementsOf(db, read);
    return planNodes(await explainedPlan(db, sent))
      .filter((node) => node["Relation Name"] === "token_metadata")
      .map((node) => node["Node Type"]);
  }

  it("reads the cache by its key from each mark, whatever the marks' statistics, and finds what they made stale", async function () {
    const { db } = suite();
    const mark = { blockNumber: 5, txHash: `0x${"ab".repeat(32)}`, contract: CONTRACT };
    await db.transaction((tx) =>
      recordMarks(tx, network, [
        { ...mark, logIndex: 0, fromTokenId: 7n, toTokenId: 9n },
        // A whole-collection update of the other contract.
        { ...mark, logIndex: 1, contract: OTHER, fromTokenId: 0n, toTokenId: MAX_UINT256 },
      ]),
    );
    const read = (db: Database) => staleCachedTokens(db, 4, [`${network}:${CONTRACT}:8`]);

    const scans = await scansOfCache(db, read);
    expect(scans).to.not.have.length(0);
    expect(scans).to.not.include("Seq Scan");

    const stale = await read(db);
    expect(stale).to.have.length(4);
    const ofContract = stale.filter((t) => t.contract === CONTRACT).map((t) => t.token_id);
    expect(ofContract).to.not.include("8");
    for (const id of ofContract) expect(["7", "9"]).to.include(id);
    expect(stale.every((t) => t.network === network && [CONTRACT, OTHER].includes(t.contract))).to.equal(true);
    expect(await staleCachedTokens(db, 100, [])).to.have.length(100);
  });
});
