import type { Queryable } from "../db/database";
import { idSpan } from "../lib/id-span";
import { COLLECTION_TOKEN_ID } from "../indexer";

/** A token's metadata as cached: what the tokenURI gave, or why it gave nothing. */
export interface CachedMetadata {
  tokenUri: string | null;
  /** The JSON object's text as served. */
  metadata: string | null;
  image: string | null;
  error: string | null;
  /** When the document (or error) it holds was read; a failed read that kept the document before does not move it. */
  updatedAt: Date | null;
  expiresAt: Date;
}

export interface TokenKey {
  network: string;
  /** Lower case. */
  contract: string;
  tokenId: bigint;
}

interface Row {
  token_id: string;
  token_uri: string | null;
  metadata: string | null;
  image: string | null;
  error: string | null;
  updated_at: Date | null;
  expires_at: Date;
}

const fromRow = (row: Row): CachedMetadata => ({
  tokenUri: row.token_uri,
  metadata: row.metadata,
  image: row.image,
  error: row.error,
  updatedAt: row.updated_at,
  expiresAt: row.expires_at,
});

/** A cache entry as a budgeted read gives it: its content only when it fitted in the budget. */
export interface CachedEntry {
  expiresAt: Date;
  /** Undefined when the entries before it (in id order) and it were larger than the budget: its content was not read. */
  entry?: Omit<CachedMetadata, "expiresAt">;
}

/** A budgeted read's row as a cache entry: its expiry, and its content when it fitted in the budget. */
function cachedEntryOf(row: Row & { loaded: boolean }): CachedEntry {
  const { expiresAt, ...entry } = fromRow(row);
  return row.loaded ? { expiresAt, entry } : { expiresAt };
}

/**
 * $1 network, $2 contract, $3 decimal ids, $4 budget in bytes, $5 the least id, $6 the greatest. In id order (the
 * pages' order), the content of each entry is read only while the running total of the entries' sizes stays within the
 * budget: what the service holds of one answer's cache entries has that bound. Each entry's expiry comes with it, the
 * Unix epoch when a mark covering its id (nft_metadata_updates, as cachedCollections reads them) came after its fetch:
 * an answer whose entries are all fresh reads nothing else.
 * Prepared, its values each in a subquery of its own so that the plan made with them costs what the generic plan does
 * (else PostgreSQL plans it at every execution). The ids' span bounds the scan: a connection keeps the generic plan it
 * made while the cache was small (a new service's first answers), which tests each cached id of the contract against
 * the list rather than seeking them; bounded, it reads from the first id asked to the last.
 */
const CACHED_METADATA_SQL = `SELECT token_id, running <= $4 AS loaded,
    CASE WHEN EXISTS (SELECT 1 FROM nft_metadata_updates u
        WHERE u.network = t.network AND u.contract = t.contract AND u.from_token_id <= t.token_id AND u.to_token_id >= t.token_id
          AND u.marked_at > t.fetched_at)
      THEN 'epoch'::timestamptz ELSE expires_at END AS expires_at,
    CASE WHEN running <= $4 THEN token_uri END AS token_uri, CASE WHEN running <= $4 THEN metadata END AS metadata,
    CASE WHEN running <= $4 THEN image END AS image, CASE WHEN running <= $4 THEN error END AS error,
    CASE WHEN running <= $4 THEN coalesce(metadata_updated_at, fetched_at) END AS updated_at
  FROM (SELECT network, contract, token_id, token_uri, metadata, image, error, expires_at, metadata_updated_at, fetched_at,
      sum(coalesce(octet_length(token_uri), 0) + coalesce(octet_length(metadata), 0) + coalesce(octet_length(image), 0)
        + coalesce(octet_length(error), 0)) OVER (ORDER BY token_id) AS running
    FROM token_metadata WHERE network = $1 AND contract = $2 AND token_id = ANY((SELECT $3::numeric[])::numeric[])
      AND token_id BETWEEN (SELECT $5::numeric) AND (SELECT $6::numeric)) t`;

/**
 * The cached metadata of some ids of one contract, by decimal id (expired and stale entries included, with their
 * expiry), within `budget` bytes.
 */
export async function cachedMetadata(
  db: Queryable,
  read: { network: string; contract: string; ids: readonly bigint[]; budget: number },
): Promise<Map<string, CachedEntry>> {
  const { network, contract, ids, budget } = read;
  if (ids.length === 0) return new Map();
  const { first, last } = idSpan(ids);
  const { rows } = await db.query<Row & { loaded: boolean }>(
    CACHED_METADATA_SQL,
    [network, contract, ids.map(String), budget, first.toString(), last.toString()],
    { prepare: true },
  );
  return new Map(rows.map((row) => [row.token_id, cachedEntryOf(row)]));
}

/** The new read failed, the old one had metadata, and both are of the same tokenURI. */
const KEEP = "excluded.metadata IS NULL AND t.metadata IS NOT NULL AND excluded.token_uri IS NOT DISTINCT FROM t.token_uri";

/**
 * Stores what a read of the token's metadata gave at `readAt`, valid until `expiresAt`: a failed read of the same
 * tokenURI keeps the metadata read before (the last good document beats an outage of its host) and the time it was
 * read, a failed read of another tokenURI replaces both.
 */
export async function saveMetadata(
  db: Queryable,
  save: { key: TokenKey; entry: Omit<CachedMetadata, "expiresAt" | "updatedAt">; readAt: Date; expiresAt: Date },
): Promise<void> {
  const { key, entry } = save;
  // $1 network, $2 contract, $3 token id, $4 tokenURI, $5 metadata, $6 image, $7 error, $8 expires at, $9 read at
  await db.query(
    `INSERT INTO token_metadata AS t (network, contract, token_id, token_uri, metadata, image, error, fetched_at, expires_at, metadata_updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), $8::timestamptz, $9::timestamptz)
     ON CONFLICT (network, contract, token_id) DO UPDATE SET
       metadata = CASE WHEN ${KEEP} THEN t.metadata ELSE excluded.metadata END,
       image = CASE WHEN ${KEEP} THEN t.image ELSE excluded.image END,
       error = CASE WHEN ${KEEP} THEN NULL ELSE excluded.error END,
       metadata_updated_at = CASE WHEN ${KEEP} THEN coalesce(t.metadata_updated_at, t.fetched_at) ELSE excluded.metadata_updated_at END,
       token_uri = excluded.token_uri, fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`,
    [
      key.network,
      key.contract,
      key.tokenId.toString(),
      entry.tokenUri,
      entry.metadata,
      entry.image,
      entry.error,
      save.expiresAt,
      save.readAt,
    ],
  );
}

/**
 * The collections' cached documents (contractURI, under COLLECTION_TOKEN_ID) of some contracts (lower case) of a
 * network, by contract, in one statement: in contract order, the content of each entry only while the running total of
 * the entries' sizes stays within `budget` bytes, and its expiry (the epoch when a ContractURIUpdated mark made it
 * stale; expired entries included).
 */
export async function cachedCollections(
  db: Queryable,
  network: string,
  contracts: readonly string[],
  budget: number,
): Promise<Map<string, CachedEntry>> {
  if (contracts.length === 0) return new Map();
  // $1 network, $2 contracts, $3 budget in bytes, $4 COLLECTION_TOKEN_ID
  const { rows } = await db.query<Row & { contract: string; loaded: boolean }>(
    `SELECT contract, running <= $3 AS loaded,
       CASE WHEN EXISTS (SELECT 1 FROM nft_metadata_updates u
           WHERE u.network = t.network AND u.contract = t.contract AND u.from_token_id <= t.token_id AND u.to_token_id >= t.token_id
             AND u.marked_at > t.fetched_at)
         THEN 'epoch'::timestamptz ELSE expires_at END AS expires_at,
       CASE WHEN running <= $3 THEN token_uri END AS token_uri, CASE WHEN running <= $3 THEN metadata END AS metadata,
       CASE WHEN running <= $3 THEN image END AS image, CASE WHEN running <= $3 THEN error END AS error,
       CASE WHEN running <= $3 THEN coalesce(metadata_updated_at, fetched_at) END AS updated_at
     FROM (SELECT network, contract, token_id, fetched_at, token_uri, metadata, image, error, expires_at, metadata_updated_at,
         sum(coalesce(octet_length(token_uri), 0) + coalesce(octet_length(metadata), 0) + coalesce(octet_length(image), 0)
           + coalesce(octet_length(error), 0)) OVER (ORDER BY contract) AS running
       FROM token_metadata WHERE network = $1 AND contract = ANY ($2::text[]) AND token_id = $4) t`,
    [network, contracts, budget, COLLECTION_TOKEN_ID.toString()],
  );
  return new Map(rows.map((row) => [row.contract, cachedEntryOf(row)]));
}
