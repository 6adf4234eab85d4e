import { expect } from "chai";
import type { Queryable } from "../../../server/db/database";
import { holdersPage } from "../../../server/indexer/store/reads";
import { backendName } from "../../helpers/database";
import { databaseForSuite } from "../../helpers/suite-database";
import { executeArguments, mintedInBlockOne, statementsOf } from "../../helpers/prepared-reads";

const network = "localhost";
const address = (kind: number, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;
const CONTRACT = address(1, 1);
/** Holders of CONTRACT: enough that a plan which sees the page's limit costs less than the generic one. */
const HOLDERS = 20_000;
/** Executions after which PostgreSQL's plan cache has weighed the generic plan (it does after the fifth). */
const EXECUTIONS = 10;

/**
 * A page read is sent as a prepared statement so that each connection plans it once: planning costs more than reading
 * a page. PostgreSQL keeps the generic plan only where it does not cost more than the plans made with each execution's
 * values; a statement whose plan improves with a value it can see (a LIMIT given as a parameter, over a contract of
 * thousands of holders) is planned again at every execution, at more than the page's own cost.
 */
describe(`the store's prepared page reads keep their generic plan over a large contract (${backendName})`, function () {
  const suite = databaseForSuite(async (db) => {
    await mintedInBlockOne(db, { network, contract: CONTRACT, owners: [address(2, 0), address(2, 1)] });
    // The holdings of many holders, as the indexer leaves them: one row per holder of the contract.
    await db.query(
      `INSERT INTO nft_holdings (network_id, contract, owner, count)
       SELECT n.id, decode(substr($1, 3), 'hex'), decode('3' || lpad(to_hex(g), 39, '0'), 'hex'), 1
       FROM indexer_networks n, generate_series(1, $2::int) g WHERE n.name = $3`,
      [CONTRACT, HOLDERS, network],
    );
    await db.query("ANALYZE");
    return {};
  });

  /** How often `sql`, prepared on one connection and run EXECUTIONS times with `params`, ran a generic and a custom plan. */
  async function plansRun(sql: string, params: readonly unknown[]): Promise<{ generic: number; custom: number }> {
    return suite().db.transaction(async (tx) => {
      await tx.query(`PREPARE probe AS ${sql}`);
      for (let i = 0; i < EXECUTIONS; i++) await tx.query(`EXECUTE probe${executeArguments(params)}`);
      const { rows } = await tx.query<{ generic_plans: string; custom_plans: string }>(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'probe'",
      );
      await tx.query("DEALLOCATE probe");
      return { generic: Number(rows[0].generic_plans), custom: Number(rows[0].custom_plans) };
    });
  }

  const reads: Array<[string, (db: Queryable) => Promise<unknown>]> = [
    ["the holders of a contract (first page of 100)", (db) => holdersPage(db, { network, contract: CONTRACT, limit: 100 })],
    ["the holders of a contract, with its spam flag", (db) => holdersPage(db, { network, contract: CONTRACT, limit: 100, spam: true })],
    ["the holders of a token", (db) => holdersPage(db, { network, contract: CONTRACT, tokenId: "1", limit: 100 })],
  ];

  for (const [what, read] of reads) {
    it(`${what}: planned once, not at every execution`, async function () {
      for (const { sql, params } of await statementsOf(suite().db, read)) {
        const plans = await plansRun(sql, params);
        // The first five executions are planned with their values, whatever the statement.
        expect(plans, sql).to.deep.equal({ generic: EXECUTIONS - 5, custom: 5 });
      }
    });
  }
});
