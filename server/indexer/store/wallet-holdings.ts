import type { Queryable } from "../../db/database";

/** A collection asked about: a contract on a network, optionally only some of its token ids (decimal strings). */
export interface CollectionQuery {
  network: string;
  /** Lower-case hex. */
  contract: string;
  tokenIds?: string[];
}

/** What one owner holds of one collection, as the index says at `indexed`. */
export interface CollectionHolding {
  /** The block the network's index is complete to, read in the same statement; null before its index started. */
  indexed: number | null;
  /** ERC-721 tokens plus ERC-1155 units held (of the ids asked, when ids were asked), canonical decimals. */
  count: string;
  /** The ids held (of those asked), in id order, at most `maxIds`. */
  ids: string[];
  /** Whether more ids are held than `ids` lists. */
  more: boolean;
  /** Whether the index of the contract misses ConsecutiveTransfer ranges it did not expand (skipped.ts). */
  incomplete: boolean;
}

/**
 * What `owner` holds of each collection, in one statement whatever their number, so that a login reads it in one round
 * trip. Each collection's count comes from nft_holdings (one row), or with ids from nft_owners and nft_balances by
 * their keys; its ids from the owner's inventory indexes; its cursor from indexer_cursors in the same snapshot.
 * $1 owner, $2 the collections as a JSON array of {i, network, contract, ids} (ids: comma-separated decimals, or null
 * for all), $3 the most ids listed per collection plus one. The collections go in as JSON rather than as arrays: the
 * planner estimates jsonb_to_recordset's rows alike with and without their values, so that the prepared statement
 * settles on its generic plan instead of being planned again at each login (planning cost more than running it).
 */
const HOLDINGS_SQL = `SELECT q.i, c.block_number AS indexed,
    CASE WHEN q.ids IS NULL THEN
      COALESCE((SELECT h.count FROM nft_holdings h
        WHERE h.network_id = n.id AND h.contract = decode(substr(q.contract, 3), 'hex') AND h.owner = decode(substr($1, 3), 'hex')), 0)
    ELSE
      (SELECT count(*) FROM nft_owners o
        WHERE o.network_id = n.id AND o.contract_id = ca.id AND o.owner_id = oa.id AND o.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
      + COALESCE((SELECT sum(b.balance) FROM nft_balances b
        WHERE b.network_id = n.id AND b.contract = decode(substr(q.contract, 3), 'hex') AND b.owner = decode(substr($1, 3), 'hex')
          AND b.token_id = ANY (string_to_array(q.ids, ',')::numeric[]) AND b.balance > 0), 0)
    END::text AS count,
    ARRAY(
      (SELECT o.token_id FROM nft_owners o
        WHERE o.network_id = n.id AND o.owner_id = oa.id AND o.contract_id = ca.id
          AND (q.ids IS NULL OR o.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
        ORDER BY o.token_id LIMIT $3)
      UNION ALL
      (SELECT b.token_id FROM nft_balances b
        WHERE b.network_id = n.id AND b.owner = decode(substr($1, 3), 'hex') AND b.contract = decode(substr(q.contract, 3), 'hex')
          AND b.balance > 0 AND (q.ids IS NULL OR b.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
        ORDER BY b.token_id LIMIT $3)
      ORDER BY 1 LIMIT $3
    )::text[] AS ids,
    EXISTS (SELECT 1 FROM nft_skipped_ranges s WHERE s.network = q.network AND s.contract = q.contract) AS incomplete
  FROM jsonb_to_recordset($2::jsonb) AS q(i integer, network text, contract text, ids text)
    LEFT JOIN indexer_cursors c ON c.network = q.network
    LEFT JOIN indexer_networks n ON n.name = q.network
    LEFT JOIN nft_addresses ca ON ca.address = decode(substr(q.contract, 3), 'hex')
    LEFT JOIN nft_addresses oa ON oa.address = decode(substr($1, 3), 'hex')
  ORDER BY q.i`;

/** What `owner` (lower case) holds of each of `collections`, in their order, read in one statement. */
export async function walletHoldings(
  db: Queryable,
  owner: string,
  collections: CollectionQuery[],
  maxIds: number,
): Promise<CollectionHolding[]> {
  if (collections.length === 0) return [];
  const { rows } = await db.query<{ indexed: string | null; count: string; ids: string[]; incomplete: boolean }>(
    HOLDINGS_SQL,
    [
      owner,
      JSON.stringify(
        collections.map((c, i) => ({ i, network: c.network, contract: c.contract, ids: c.tokenIds ? c.tokenIds.join(",") : null })),
      ),
      maxIds + 1,
    ],
    { prepare: true },
  );
  return rows.map((row) => ({
    indexed: row.indexed === null ? null : Number(row.indexed),
    count: row.count,
    ids: row.ids.slice(0, maxIds),
    more: row.ids.length > maxIds,
    incomplete: row.incomplete,
  }));
}
