import type { Queryable } from "../db/database";

/** A token's metadata as cached: what the tokenURI gave, or why it gave nothing. */
export interface CachedMetadata {
  tokenUri: string | null;
  /** The JSON object's text as served. */
  metadata: string | null;
  image: string | null;
  error: string | null;
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
  expires_at: Date;
}

const fromRow = (row: Row): CachedMetadata => ({
  tokenUri: row.token_uri,
  metadata: row.metadata,
  image: row.image,
  error: row.error,
  expiresAt: row.expires_at,
});

/** $1 network, $2 contract, $3 decimal ids. */
const CACHED_METADATA_SQL = `SELECT token_id, token_uri, metadata, image, error, expires_at FROM token_metadata
  WHERE network = $1 AND contract = $2 AND token_id = ANY($3::numeric[])`;

/** The cached metadata of some ids of one contract, by decimal id (expired entries included). */
export async function cachedMetadata(
  db: Queryable,
  network: string,
  contract: string,
  ids: readonly bigint[],
): Promise<Map<string, CachedMetadata>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<Row>(CACHED_METADATA_SQL, [network, contract, ids.map(String)]);
  return new Map(rows.map((row) => [row.token_id, fromRow(row)]));
}

/** The new read failed, the old one had metadata, and both are of the same tokenURI. */
const KEEP = "excluded.metadata IS NULL AND t.metadata IS NOT NULL AND excluded.token_uri IS NOT DISTINCT FROM t.token_uri";

/**
 * Stores what a read of the token's metadata gave, valid for `ttlS` seconds, and returns what the cache now holds:
 * a failed read of the same tokenURI keeps the metadata read before (the last good document beats an outage of its
 * host), a failed read of another tokenURI replaces it.
 */
export async function saveMetadata(
  db: Queryable,
  key: TokenKey,
  entry: Omit<CachedMetadata, "expiresAt">,
  ttlS: number,
): Promise<Omit<CachedMetadata, "expiresAt">> {
  const { rows } = await db.query<Row>(
    `INSERT INTO token_metadata AS t (network, contract, token_id, token_uri, metadata, image, error, fetched_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now() + make_interval(secs => $8))
     ON CONFLICT (network, contract, token_id) DO UPDATE SET
       metadata = CASE WHEN ${KEEP} THEN t.metadata ELSE excluded.metadata END,
       image = CASE WHEN ${KEEP} THEN t.image ELSE excluded.image END,
       error = CASE WHEN ${KEEP} THEN NULL ELSE excluded.error END,
       token_uri = excluded.token_uri, fetched_at = excluded.fetched_at, expires_at = excluded.expires_at
     RETURNING token_id, token_uri, metadata, image, error, expires_at`,
    [key.network, key.contract, key.tokenId.toString(), entry.tokenUri, entry.metadata, entry.image, entry.error, ttlS],
  );
  const { expiresAt: _, ...stored } = fromRow(rows[0]);
  return stored;
}
