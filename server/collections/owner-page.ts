import type { Queryable } from "../db/database";
import { COLLECTION_TOKEN_ID, pageOf, summaryOfRow, type ContractSummary, type IndexPage, type SummaryRow } from "../indexer";
import type { CachedEntry } from "../token-metadata";
import { deploymentOfRow, type DeploymentRow, type StoredDeployment } from "./store";

/** A contract of an owner's page with details: its summary, its stored deployment and its cached contract-level document. */
export interface OwnerCollection {
  summary: ContractSummary;
  /** Undefined when no search for it was stored yet. */
  deployment?: StoredDeployment;
  /** Undefined when the metadata cache holds nothing of it yet. */
  document?: CachedEntry;
}

/** Times come as milliseconds since the epoch: a number is parsed far faster than a timestamp's text, on every row. */
type Row = SummaryRow & { fingerprint: string; unchanged: boolean } & Omit<DeploymentRow, "contract" | "retry_at"> & {
    retry_ms: number | null;
    deployment_stored: boolean;
    document_cached: boolean;
    loaded: boolean;
    expires_ms: number | null;
    token_uri: string | null;
    metadata: string | null;
    image: string | null;
    error: string | null;
    updated_ms: number | null;
  };

/**
 * The one statement of a page of the contracts of an owner with details (the route's hot path: one round trip per
 * page, however many contracts). It reads tables other modules own, as the login's statement does
 * (docs/guides/architecture.md#tables-and-their-owners): the index's holdings, summaries, holder counts, spam flags and
 * skipped ranges as `indexer/store/summaries.ts` reads them for one contract, the deployments of `store.ts`, and the
 * contract-level documents cached under COLLECTION_TOKEN_ID as `token-metadata/store.ts` reads them for a list (in
 * contract order, the content of each only while the running total of their sizes stays within the budget; expired
 * at the epoch when a ContractURIUpdated mark is newer than the read). Each of those is a lookup by its key per
 * contract, whatever the planner guesses of the tables' sizes.
 * The page's fingerprint is a 64-bit hash of every value of every row (hash_record_extended, no text made of them):
 * when it is $7, the one the caller's described page was made from, one row says so and the page is not sent again.
 * $1 network, $2 owner, $3 after this contract, $4 limit, $5 budget in bytes, $6 COLLECTION_TOKEN_ID, $7 the known
 * fingerprint ('' for none).
 */
const OWNER_COLLECTIONS_SQL = `WITH page AS (SELECT held, indexed, contract, standard, first_block, last_block, transfers, supply, moved, most_minted_to,
    holders, spam_flag, spam_reasons, incomplete, deployment_stored, block_number, deployer, tx_hash, reason, retry_ms,
    document_cached, running <= $5 AS loaded, expires_ms,
    CASE WHEN running <= $5 THEN token_uri END AS token_uri, CASE WHEN running <= $5 THEN metadata END AS metadata,
    CASE WHEN running <= $5 THEN image END AS image, CASE WHEN running <= $5 THEN error END AS error,
    CASE WHEN running <= $5 THEN updated_ms END AS updated_ms
  FROM (
    SELECT c.block_number AS indexed, o.contract AS held, '0x' || encode(o.contract, 'hex') AS contract, s.standard, s.first_block,
      s.last_block, s.transfers, s.supply::text AS supply, s.moved, s.most_minted_to, hc.holders, f.flag AS spam_flag,
      f.reasons AS spam_reasons,
      EXISTS (SELECT 1 FROM nft_skipped_ranges r WHERE r.network = $1 AND r.contract = '0x' || encode(o.contract, 'hex')) AS incomplete,
      d.stored IS NOT NULL AS deployment_stored, d.block_number, d.deployer, d.tx_hash, d.reason, d.retry_ms,
      m.size IS NOT NULL AS document_cached, m.expires_ms, m.token_uri, m.metadata, m.image, m.error, m.updated_ms,
      sum(m.size) OVER (ORDER BY o.contract) AS running
    FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
    LEFT JOIN LATERAL (
      SELECT contract FROM nft_holdings
      WHERE network_id = n.id AND owner = (SELECT decode(substr($2, 3), 'hex')) AND contract > (SELECT decode(substr($3, 3), 'hex'))
      ORDER BY contract LIMIT $4
    ) o ON true
    LEFT JOIN nft_contract_summaries s ON s.network_id = n.id AND s.contract = o.contract
    LEFT JOIN nft_holder_counts hc ON hc.network_id = n.id AND hc.contract = o.contract
    LEFT JOIN nft_spam_flags f ON f.network_id = n.id AND f.contract = o.contract
    -- LIMIT 1 keeps each a lookup by its key per contract: never a scan of the network's rows per contract.
    LEFT JOIN LATERAL (
      SELECT true AS stored, block_number, deployer, tx_hash, reason, (extract(epoch FROM retry_at) * 1000)::float8 AS retry_ms
      FROM collection_deployments
      WHERE network = $1 AND contract = '0x' || encode(o.contract, 'hex') LIMIT 1
    ) d ON true
    LEFT JOIN LATERAL (
      SELECT token_uri, metadata, image, error, (extract(epoch FROM coalesce(metadata_updated_at, fetched_at)) * 1000)::float8 AS updated_ms,
        CASE WHEN EXISTS (SELECT 1 FROM nft_metadata_updates u
            WHERE u.network = t.network AND u.contract = t.contract AND u.from_token_id <= t.token_id AND u.to_token_id >= t.token_id
              AND u.marked_at > t.fetched_at)
          THEN 0 ELSE (extract(epoch FROM expires_at) * 1000)::float8 END AS expires_ms,
        coalesce(octet_length(token_uri), 0) + coalesce(octet_length(metadata), 0) + coalesce(octet_length(image), 0)
          + coalesce(octet_length(error), 0) AS size
      FROM token_metadata t WHERE network = $1 AND contract = '0x' || encode(o.contract, 'hex') AND token_id = $6 LIMIT 1
    ) m ON true
    WHERE c.network = $1
  ) described),
  stamp AS (SELECT hash_array_extended(array_agg(hash_record_extended(page, 0) ORDER BY held), 0)::text AS fingerprint FROM page)
  SELECT s.fingerprint, s.fingerprint = $7 AS unchanged, p.indexed, p.contract, p.standard, p.first_block, p.last_block,
    p.transfers, p.supply, p.moved, p.most_minted_to, p.holders, p.spam_flag, p.spam_reasons, p.incomplete,
    p.deployment_stored, p.block_number, p.deployer, p.tx_hash, p.reason, p.retry_ms, p.document_cached, p.loaded,
    p.expires_ms, p.token_uri, p.metadata, p.image, p.error, p.updated_ms
  FROM stamp s LEFT JOIN page p ON s.fingerprint IS DISTINCT FROM $7
  -- No cursor of the network: no row, as without the stamp (the array of no rows is null, and so is its hash).
  WHERE s.fingerprint IS NOT NULL
  ORDER BY p.held`;

/**
 * What one statement read of a page: its fingerprint (a hash of every value the page's rows hold) and the page, or
 * no page when the fingerprint is the one the caller said it knows (`unchanged`: the caller's description of it still holds).
 */
export type OwnerCollectionsRead =
  { fingerprint: string; unchanged: false; page: IndexPage<OwnerCollection> } | { fingerprint: string; unchanged: true };

/**
 * The contracts `owner` (lower case) holds tokens of, in address order after `after`, each with its summary, its
 * stored deployment and its cached contract-level document (within `budget` bytes), in one statement; only the
 * fingerprint when it is `known`. Undefined before the network's index started.
 */
export async function ownerCollectionsPage(
  db: Queryable,
  query: { network: string; owner: string; after?: string; limit: number; budget: number; known?: string },
): Promise<OwnerCollectionsRead | undefined> {
  const { network, owner, after = "", limit, budget, known = "" } = query;
  // Prepared: its many joins take longer to plan than to run.
  const { rows } = await db.query<Row>(
    OWNER_COLLECTIONS_SQL,
    [network, owner, after, limit + 1, budget, COLLECTION_TOKEN_ID.toString(), known],
    { prepare: true },
  );
  if (rows.length === 0) return undefined;
  const { fingerprint } = rows[0];
  if (rows[0].unchanged) return { fingerprint, unchanged: true };
  const page = pageOf(
    rows,
    limit,
    (r) => (r.contract === null ? null : ownerCollection(r)),
    (c) => [c.summary.contract],
  )!;
  return { fingerprint, unchanged: false, page };
}

function ownerCollection(r: Row): OwnerCollection {
  const out: OwnerCollection = { summary: summaryOfRow(r) };
  const date = (ms: number | null) => (ms === null ? null : new Date(ms));
  if (r.deployment_stored) out.deployment = deploymentOfRow({ ...r, retry_at: date(r.retry_ms) });
  if (r.document_cached) {
    const expiresAt = date(r.expires_ms)!;
    const { token_uri: tokenUri, metadata, image, error } = r;
    out.document = r.loaded ? { expiresAt, entry: { tokenUri, metadata, image, error, updatedAt: date(r.updated_ms) } } : { expiresAt };
  }
  return out;
}
