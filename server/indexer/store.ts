import type { Queryable } from "../db/database";
import { ZERO_ADDRESS, type Transfer } from "./transfers";

/** How many recent block hashes are kept per network to find a common ancestor after a reorg. */
export const REORG_WINDOW = 512;

export interface Cursor {
  block: number;
  hash: string;
}

export async function readCursor(db: Queryable, network: string): Promise<Cursor | undefined> {
  const { rows } = await db.query<{ block_number: string; block_hash: string }>(
    "SELECT block_number, block_hash FROM indexer_cursors WHERE network = $1",
    [network],
  );
  return rows[0] ? { block: Number(rows[0].block_number), hash: rows[0].block_hash } : undefined;
}

/**
 * Writes the transfers of one range and moves the cursor to the range's last block; the caller runs it in one
 * transaction, so a crash leaves either the whole range or none of it.
 */
export async function writeRange(tx: Queryable, network: string, transfers: Transfer[], last: Cursor, hashes: Cursor[]): Promise<void> {
  if (transfers.length > 0) {
    await tx.query(
      `INSERT INTO nft_transfers (network, block_number, log_index, block_hash, tx_hash, contract, token_id, from_address, to_address)
       SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::text[], $9::text[])`,
      [
        network,
        transfers.map((t) => t.blockNumber),
        transfers.map((t) => t.logIndex),
        transfers.map((t) => t.blockHash),
        transfers.map((t) => t.txHash),
        transfers.map((t) => t.contract),
        transfers.map((t) => t.tokenId.toString()),
        transfers.map((t) => t.from),
        transfers.map((t) => t.to),
      ],
    );
    // The last transfer of each token in the range decides its owner (one row per token per statement).
    const latest = new Map<string, Transfer>();
    for (const t of transfers) latest.set(`${t.contract}:${t.tokenId}`, t);
    const kept = [...latest.values()].filter((t) => t.to !== ZERO_ADDRESS);
    const burned = [...latest.values()].filter((t) => t.to === ZERO_ADDRESS);
    if (kept.length > 0) {
      await tx.query(
        `INSERT INTO nft_owners (network, contract, token_id, owner, block_number, log_index)
         SELECT $1, * FROM unnest($2::text[], $3::numeric[], $4::text[], $5::bigint[], $6::int[])
         ON CONFLICT (network, contract, token_id) DO UPDATE
           SET owner = EXCLUDED.owner, block_number = EXCLUDED.block_number, log_index = EXCLUDED.log_index`,
        [network, kept.map((t) => t.contract), kept.map((t) => t.tokenId.toString()), kept.map((t) => t.to), kept.map((t) => t.blockNumber), kept.map((t) => t.logIndex)],
      );
    }
    if (burned.length > 0) {
      await tx.query(
        `DELETE FROM nft_owners o USING unnest($2::text[], $3::numeric[]) AS b(contract, token_id)
         WHERE o.network = $1 AND o.contract = b.contract AND o.token_id = b.token_id`,
        [network, burned.map((t) => t.contract), burned.map((t) => t.tokenId.toString())],
      );
    }
  }
  await tx.query(
    `INSERT INTO indexer_blocks (network, number, hash) SELECT $1, * FROM unnest($2::bigint[], $3::text[])
     ON CONFLICT (network, number) DO UPDATE SET hash = EXCLUDED.hash`,
    [network, hashes.map((h) => h.block), hashes.map((h) => h.hash)],
  );
  await tx.query("DELETE FROM indexer_blocks WHERE network = $1 AND number < $2", [network, last.block - REORG_WINDOW]);
  await tx.query(
    `INSERT INTO indexer_cursors (network, block_number, block_hash, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (network) DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, updated_at = now()`,
    [network, last.block, last.hash],
  );
}

/** Recent block hashes of the index, newest first (to compare with the chain after a reorg). */
export async function recentBlocks(db: Queryable, network: string): Promise<Cursor[]> {
  const { rows } = await db.query<{ number: string; hash: string }>(
    "SELECT number, hash FROM indexer_blocks WHERE network = $1 ORDER BY number DESC",
    [network],
  );
  return rows.map((r) => ({ block: Number(r.number), hash: r.hash }));
}

/**
 * Undoes everything above `ancestor` (a block both the index and the chain agree on): its transfers go, and each
 * token they touched gets back the owner its last remaining transfer gave it.
 */
export async function rollBack(tx: Queryable, network: string, ancestor: Cursor): Promise<void> {
  await tx.query(
    `CREATE TEMP TABLE rolled_back ON COMMIT DROP AS
     SELECT DISTINCT contract, token_id FROM nft_transfers WHERE network = $1 AND block_number > $2`,
    [network, ancestor.block],
  );
  await tx.query("DELETE FROM nft_transfers WHERE network = $1 AND block_number > $2", [network, ancestor.block]);
  await tx.query(
    `DELETE FROM nft_owners o USING rolled_back r WHERE o.network = $1 AND o.contract = r.contract AND o.token_id = r.token_id`,
    [network],
  );
  await tx.query(
    `INSERT INTO nft_owners (network, contract, token_id, owner, block_number, log_index)
     SELECT network, contract, token_id, to_address, block_number, log_index FROM (
       SELECT DISTINCT ON (t.contract, t.token_id) t.network, t.contract, t.token_id, t.to_address, t.block_number, t.log_index
       FROM nft_transfers t JOIN rolled_back r ON t.contract = r.contract AND t.token_id = r.token_id
       WHERE t.network = $1
       ORDER BY t.contract, t.token_id, t.block_number DESC, t.log_index DESC
     ) last WHERE to_address <> $2`,
    [network, ZERO_ADDRESS],
  );
  await tx.query("DELETE FROM indexer_blocks WHERE network = $1 AND number > $2", [network, ancestor.block]);
  await tx.query("UPDATE indexer_cursors SET block_number = $2, block_hash = $3, updated_at = now() WHERE network = $1", [network, ancestor.block, ancestor.hash]);
}

/** Forgets a network's index entirely (its chain was replaced, or the reorg went deeper than the window). */
export async function resetNetwork(tx: Queryable, network: string): Promise<void> {
  for (const table of ["nft_transfers", "nft_owners", "indexer_blocks", "indexer_cursors"]) {
    await tx.query(`DELETE FROM ${table} WHERE network = $1`, [network]);
  }
}
