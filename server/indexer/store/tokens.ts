import type { Queryable } from "../../db/database";

/**
 * The ids of a contract's tokens the index holds (ERC-721 owned, ERC-1155 with a balance), in id order after `after`,
 * at most `limit`: what a contract-wide metadata refresh walks. Key descents of nft_owners and nft_balances.
 * $1 network, $2 contract, $3 after this id, $4 limit.
 */
const TOKEN_IDS_SQL = `SELECT token_id::text AS token_id FROM (
    (SELECT token_id FROM nft_owners
     WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)
       AND contract_id = (SELECT id FROM nft_addresses WHERE address = decode(substr($2, 3), 'hex')) AND token_id > $3
     ORDER BY token_id LIMIT $4)
    UNION
    (SELECT DISTINCT token_id FROM nft_balances
     WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1) AND contract = decode(substr($2, 3), 'hex')
       AND token_id > $3 AND balance > 0
     ORDER BY token_id LIMIT $4)
  ) t ORDER BY token_id LIMIT $4`;

export async function tokenIdsAfter(
  db: Queryable,
  query: { network: string; contract: string; after: bigint; limit: number },
): Promise<bigint[]> {
  const { rows } = await db.query<{ token_id: string }>(TOKEN_IDS_SQL, [
    query.network,
    query.contract,
    query.after.toString(),
    query.limit,
  ]);
  return rows.map((r) => BigInt(r.token_id));
}
