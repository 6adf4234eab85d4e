import type { Queryable } from "../../db/database";
import type { MetadataMark } from "../transfers";

/**
 * Metadata-change marks (nft_metadata_updates): one row per ERC-4906 or ERC-1155 URI log, naming a range of ids of a
 * contract whose cached metadata documents fetched before the mark are stale. A row per log, never per id, so a
 * whole-collection update costs one row. Written in the indexer's range transaction; a reorg removes the marks of
 * the blocks it undoes (rollBack) and a reset all of a network's.
 */
export async function recordMarks(tx: Queryable, network: string, marks: MetadataMark[]): Promise<void> {
  if (marks.length === 0) return;
  // $1 network, then a column each: $2 block, $3 log index, $4 transaction hash, $5 contract, $6 first id, $7 last id
  await tx.query(
    `INSERT INTO nft_metadata_updates (network, block_number, log_index, tx_hash, contract, from_token_id, to_token_id)
     SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::numeric[], $7::numeric[])`,
    [
      network,
      marks.map((m) => m.blockNumber),
      marks.map((m) => m.logIndex),
      marks.map((m) => m.txHash),
      marks.map((m) => m.contract),
      marks.map((m) => m.fromTokenId.toString()),
      marks.map((m) => m.toTokenId.toString()),
    ],
  );
}

/** Forgets the marks above block `ancestor` (a reorg undid them). */
export async function rollBackMarks(tx: Queryable, network: string, ancestor: number): Promise<void> {
  // $1 network, $2 the ancestor's block
  await tx.query("DELETE FROM nft_metadata_updates WHERE network = $1 AND block_number > $2", [network, ancestor]);
}

/**
 * Forgets marks older than `retentionMs`: every cached document fetched before such a mark has expired by then
 * (retention at least the cache's TTL), so the mark changes no answer. Keeps the table as small as the recent updates.
 */
export async function pruneMarks(db: Queryable, retentionMs: number): Promise<void> {
  // $1 retention (ms)
  await db.query("DELETE FROM nft_metadata_updates WHERE marked_at < now() - make_interval(secs => $1::double precision / 1000)", [
    retentionMs,
  ]);
}

/**
 * Up to `limit` cached entries (token_metadata rows) that a mark made stale, driven from the marks (few) rather than
 * the cache (many): each mark's range is an index range of the cache's key. `skip`: "network:contract:id" keys left out.
 * The cache is read in a subquery per mark (LATERAL, with its own limit, which keeps the planner from making it a
 * join): as a join, the plan depended on the marks' statistics, and a marks' table never analyzed (a new index's, until
 * autovacuum has seen enough writes to it) is assumed to hold a few hundred rows, for which reading the whole cache
 * looked cheaper: a scan of every cached document at every sweep, for as long as a mark is kept. A mark gives at most
 * `limit` entries, and the marks together at least `limit` distinct ones when there are that many.
 */
export async function staleCachedTokens(
  db: Queryable,
  limit: number,
  skip: readonly string[],
): Promise<Array<{ network: string; contract: string; token_id: string }>> {
  // $1 limit, $2 "network:contract:id" keys left out
  const { rows } = await db.query<{ network: string; contract: string; token_id: string }>(
    `SELECT DISTINCT t.network, t.contract, t.token_id::text AS token_id
     FROM nft_metadata_updates u CROSS JOIN LATERAL (
       SELECT c.network, c.contract, c.token_id FROM token_metadata c
       WHERE c.network = u.network AND c.contract = u.contract AND c.token_id BETWEEN u.from_token_id AND u.to_token_id
         AND c.fetched_at < u.marked_at AND NOT (c.network || ':' || c.contract || ':' || c.token_id::text = ANY($2::text[]))
       LIMIT $1
     ) t
     LIMIT $1`,
    [limit, skip],
  );
  return rows;
}
