import type { Queryable } from "../../server/db/database";
import { addressIds, networkId } from "../../server/indexer/store/ids";

/**
 * Appends `count` ERC-721 transfers to the change log of `network` as the indexer lays them out (ids of the address
 * dictionary, hashes as bytes), without a chain: transfer g (1 to count) is of block g, token g and transaction hash g,
 * from `from` to `to`, except the last, which goes to `lastTo` when given. Addresses are lower-case hex.
 */
export async function appendSyntheticChanges(
  db: Queryable,
  count: number,
  addresses: { contract: string; from: string; to: string; lastTo?: string },
  network = "localhost",
): Promise<void> {
  const { contract, from, to, lastTo = to } = addresses;
  const net = await networkId(db, network);
  const ids = await addressIds(db, [contract, from, to, lastTo]);
  await db.query(
    `INSERT INTO nft_changes (network_id, kind, block_number, block_time, tx_hash, log_index, contract_id, token_id, from_id, to_id)
     SELECT $2::smallint, 'transfer', g, 1700000000 + g, decode(lpad(to_hex(g), 64, '0'), 'hex'), 0, $3::int, g, $4::int,
       CASE WHEN g = $1 THEN $6::int ELSE $5::int END
     FROM generate_series(1, $1) g`,
    [count, net, ids.get(contract), ids.get(from), ids.get(to), ids.get(lastTo)],
  );
}
