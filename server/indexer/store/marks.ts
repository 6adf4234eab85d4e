import type { Queryable } from "../../db/database";
import { idSpan } from "../../lib/id-span";
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
 * When the metadata cache's entries (token_metadata rows) of some ids of one contract expire, by decimal id (their
 * content is not read): an entry fetched before a mark covering its id is stale and has expired already, the Unix
 * epoch, so it is read again (lazily when asked, or by the background sweep).
 */
export async function cacheExpiry(db: Queryable, network: string, contract: string, ids: readonly bigint[]): Promise<Map<string, Date>> {
  if (ids.length === 0) return new Map();
  const { first, last } = idSpan(ids);
  // Prepared, its values each in a subquery of its own so that the plan made with them costs what the generic plan
  // does (else PostgreSQL plans it at every execution). The ids' span bounds the scan: a connection keeps the generic
  // plan it made while the cache was small (a new service's first answers), which tests each cached id of the contract
  // against the list rather than seeking them; bounded, it reads from the first id asked to the last.
  // $1 network, $2 contract, $3 decimal ids, $4 the least of them, $5 the greatest
  const { rows } = await db.query<{ token_id: string; expires_at: Date }>(
    `SELECT token_id,
       CASE WHEN EXISTS (SELECT 1 FROM nft_metadata_updates u
           WHERE u.network = t.network AND u.contract = t.contract AND u.from_token_id <= t.token_id AND u.to_token_id >= t.token_id
             AND u.marked_at > t.fetched_at)
         THEN 'epoch'::timestamptz ELSE expires_at END AS expires_at
     FROM token_metadata t WHERE network = $1 AND contract = $2 AND token_id = ANY((SELECT $3::numeric[])::numeric[])
       AND token_id BETWEEN (SELECT $4::numeric) AND (SELECT $5::numeric)`,
    [network, contract, ids.map(String), first.toString(), last.toString()],
    { prepare: true },
  );
  return new Map(rows.map((row) => [row.token_id, row.expires_at]));
}

/**
 * Up to `limit` cached entries (token_metadata rows) that a mark made stale, driven from the marks (few) rather than
 * the cache (many): each mark's range is an index range of the cache's key. `skip`: "contract:id" keys left out.
 */
export async function staleCachedTokens(
  db: Queryable,
  limit: number,
  skip: readonly string[],
): Promise<Array<{ network: string; contract: string; token_id: string }>> {
  // $1 limit, $2 "network:contract:id" keys left out
  const { rows } = await db.query<{ network: string; contract: string; token_id: string }>(
    `SELECT DISTINCT t.network, t.contract, t.token_id::text AS token_id
     FROM nft_metadata_updates u JOIN token_metadata t
       ON t.network = u.network AND t.contract = u.contract AND t.token_id BETWEEN u.from_token_id AND u.to_token_id
     WHERE t.fetched_at < u.marked_at AND NOT (t.network || ':' || t.contract || ':' || t.token_id::text = ANY($2::text[]))
     LIMIT $1`,
    [limit, skip],
  );
  return rows;
}
