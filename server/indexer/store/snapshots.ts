import type { Queryable } from "../../db/database";
import { ZERO_ADDRESS } from "../transfers";
import type { HolderItem } from "./reads";

/**
 * Holders as they were at the end of a block, from the transfers the index holds (nothing is kept per block): an
 * ERC-721 token's owner is the receiver of its last transfer at or before the block, an ERC-1155 holding the sum of
 * what the owner received less what it sent. Each statement reads every transfer of the contract up to the block
 * (of the one token, with an id), through the token index of the transfer tables: its cost grows with the contract's
 * transfers, which is why the routes refuse a contract with more than HOLDERS_SNAPSHOT_MAX_TRANSFERS. A block's
 * snapshot does not change once indexed (a reorg below it aside), so its pages agree with each other.
 *
 * Both tables are read; a contract is in one (one standard per contract), so the other arm finds nothing. `k`: the
 * network's id, the contract's and the zero address's (NULL for one never seen, which matches no row).
 */

/** $1 network, $2 contract, $3 block, $4 after this owner, $5 limit, $6 the zero address. */
const HOLDERS_AT_SQL = `WITH k AS (
    SELECT (SELECT id FROM indexer_networks WHERE name = $1) AS net,
      (SELECT id FROM nft_addresses WHERE address = decode(substr($2, 3), 'hex')) AS contract_id,
      (SELECT id FROM nft_addresses WHERE address = decode(substr($6, 3), 'hex')) AS zero_id
  ), last AS (
    SELECT DISTINCT ON (t.token_id) t.to_id FROM nft_transfers t, k
    WHERE t.network_id = k.net AND t.contract_id = k.contract_id AND t.block_number <= $3
    ORDER BY t.token_id, t.block_number DESC, t.log_index DESC, t.batch_index DESC
  ), held AS (
    SELECT to_id AS owner_id, count(*)::numeric AS count FROM last, k WHERE to_id IS DISTINCT FROM k.zero_id GROUP BY to_id
    UNION ALL
    SELECT m.owner_id, sum(m.delta) FROM nft_1155_transfers t CROSS JOIN k
      CROSS JOIN LATERAL (VALUES (t.to_id, t.amount), (t.from_id, -t.amount)) AS m(owner_id, delta)
    WHERE t.network_id = k.net AND t.contract_id = k.contract_id AND t.block_number <= $3 AND m.owner_id IS DISTINCT FROM k.zero_id
    GROUP BY m.owner_id HAVING sum(m.delta) > 0
  )
  SELECT '0x' || encode(a.address, 'hex') AS owner, held.count::text AS count
  FROM held JOIN nft_addresses a ON a.id = held.owner_id
  WHERE a.address > decode(substr($4, 3), 'hex')
  ORDER BY a.address LIMIT $5`;

/** As HOLDERS_AT_SQL, of one token: $7 its id. */
const TOKEN_HOLDERS_AT_SQL = `WITH k AS (
    SELECT (SELECT id FROM indexer_networks WHERE name = $1) AS net,
      (SELECT id FROM nft_addresses WHERE address = decode(substr($2, 3), 'hex')) AS contract_id,
      (SELECT id FROM nft_addresses WHERE address = decode(substr($6, 3), 'hex')) AS zero_id
  ), last AS (
    SELECT t.to_id FROM nft_transfers t, k
    WHERE t.network_id = k.net AND t.contract_id = k.contract_id AND t.token_id = $7 AND t.block_number <= $3
    ORDER BY t.block_number DESC, t.log_index DESC, t.batch_index DESC LIMIT 1
  ), held AS (
    SELECT to_id AS owner_id, 1::numeric AS count FROM last, k WHERE to_id IS DISTINCT FROM k.zero_id
    UNION ALL
    SELECT m.owner_id, sum(m.delta) FROM nft_1155_transfers t CROSS JOIN k
      CROSS JOIN LATERAL (VALUES (t.to_id, t.amount), (t.from_id, -t.amount)) AS m(owner_id, delta)
    WHERE t.network_id = k.net AND t.contract_id = k.contract_id AND t.token_id = $7 AND t.block_number <= $3
      AND m.owner_id IS DISTINCT FROM k.zero_id
    GROUP BY m.owner_id HAVING sum(m.delta) > 0
  )
  SELECT '0x' || encode(a.address, 'hex') AS owner, held.count::text AS count
  FROM held JOIN nft_addresses a ON a.id = held.owner_id
  WHERE a.address > decode(substr($4, 3), 'hex')
  ORDER BY a.address LIMIT $5`;

/** How many owners HOLDERS_AT_SQL would list. $1 network, $2 contract, $3 block, $4 the zero address. */
const HOLDER_COUNT_AT_SQL = `WITH k AS (
    SELECT (SELECT id FROM indexer_networks WHERE name = $1) AS net,
      (SELECT id FROM nft_addresses WHERE address = decode(substr($2, 3), 'hex')) AS contract_id,
      (SELECT id FROM nft_addresses WHERE address = decode(substr($4, 3), 'hex')) AS zero_id
  ), last AS (
    SELECT DISTINCT ON (t.token_id) t.to_id FROM nft_transfers t, k
    WHERE t.network_id = k.net AND t.contract_id = k.contract_id AND t.block_number <= $3
    ORDER BY t.token_id, t.block_number DESC, t.log_index DESC, t.batch_index DESC
  ), held AS (
    SELECT DISTINCT to_id AS owner_id FROM last, k WHERE to_id IS DISTINCT FROM k.zero_id
    UNION ALL
    SELECT m.owner_id FROM nft_1155_transfers t CROSS JOIN k
      CROSS JOIN LATERAL (VALUES (t.to_id, t.amount), (t.from_id, -t.amount)) AS m(owner_id, delta)
    WHERE t.network_id = k.net AND t.contract_id = k.contract_id AND t.block_number <= $3 AND m.owner_id IS DISTINCT FROM k.zero_id
    GROUP BY m.owner_id HAVING sum(m.delta) > 0
  )
  SELECT count(*)::text AS holders FROM held`;

/**
 * The holders of `contract` (lower case) at the end of `block`, or with `tokenId` of one token, in address order after
 * `after`, at most `limit` (and whether more follow: `limit + 1` are asked for).
 */
export async function holdersAt(
  db: Queryable,
  query: { network: string; contract: string; block: number; tokenId?: string; after?: string; limit: number },
): Promise<{ items: HolderItem[]; more: boolean }> {
  const { network, contract, block, tokenId, after = "0x", limit } = query;
  const params = [network, contract, block, after, limit + 1, ZERO_ADDRESS];
  const { rows } =
    tokenId === undefined
      ? await db.query<HolderItem>(HOLDERS_AT_SQL, params)
      : await db.query<HolderItem>(TOKEN_HOLDERS_AT_SQL, [...params, tokenId]);
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

/** How many owners held tokens of `contract` (lower case) at the end of `block`. */
export async function holderCountAt(db: Queryable, query: { network: string; contract: string; block: number }): Promise<number> {
  const { rows } = await db.query<{ holders: string }>(HOLDER_COUNT_AT_SQL, [query.network, query.contract, query.block, ZERO_ADDRESS]);
  return Number(rows[0].holders);
}
