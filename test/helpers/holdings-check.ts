import { expect } from "chai";
import type { Queryable } from "../../server/db/database";
import { hex, networkIdOf } from "./index-sql";
import { INDEXED_OWNERS } from "./index-check";

/** The holdings and holder counts the indexer keeps equal a recount of nft_owners and nft_balances. */
export async function expectHoldingsMatchRecount(db: Queryable, network: string): Promise<void> {
  const { rows: holdings } = await db.query<{ contract: string; owner: string; count: string }>(
    `SELECT ${hex("contract")} AS contract, ${hex("owner")} AS owner, count::text
     FROM nft_holdings WHERE network_id = ${networkIdOf("$1")} ORDER BY 1, 2`,
    [network],
  );
  const { rows: recount } = await db.query<{ contract: string; owner: string; count: string }>(
    `SELECT contract, owner, sum(n)::text AS count FROM (
       SELECT contract, owner, 1::numeric AS n FROM ${INDEXED_OWNERS} WHERE network = $1
       UNION ALL SELECT ${hex("contract")}, ${hex("owner")}, balance FROM nft_balances WHERE network_id = ${networkIdOf("$1")}
     ) held GROUP BY contract, owner HAVING sum(n) > 0 ORDER BY contract, owner`,
    [network],
  );
  expect(holdings).to.deep.equal(recount);
  const { rows: counts } = await db.query<{ contract: string; holders: string }>(
    `SELECT ${hex("contract")} AS contract, holders::text
     FROM nft_holder_counts WHERE network_id = ${networkIdOf("$1")} AND holders > 0 ORDER BY 1`,
    [network],
  );
  const byContract = new Map<string, number>();
  for (const h of recount) byContract.set(h.contract, (byContract.get(h.contract) ?? 0) + 1);
  expect(counts).to.deep.equal(
    [...byContract].sort(([a], [b]) => (a < b ? -1 : 1)).map(([contract, n]) => ({ contract, holders: String(n) })),
  );
}
