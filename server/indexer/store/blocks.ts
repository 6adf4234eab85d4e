import type { Queryable } from "../../db/database";

/**
 * The cursor of each network (indexer_cursors: the block the index is complete to) and the hashes of its recent blocks
 * (indexer_blocks: the window in which a reorg is found and undone, and a few anchors below it that tell a new chain
 * from a node on a branch that left this one below the window). Both are written in the transaction that writes the
 * range or undoes the blocks they describe.
 */

/** How many recent block hashes are kept per network to find a common ancestor after a reorg. */
export const REORG_WINDOW = 512;

/** The block the index of a network is complete to, with its hash. */
export interface Cursor {
  block: number;
  hash: string;
}

/** The cursor of `network`, undefined before its index started. */
export async function readCursor(db: Queryable, network: string): Promise<Cursor | undefined> {
  // $1 network
  const { rows } = await db.query<{ block_number: string; block_hash: string }>(
    "SELECT block_number, block_hash FROM indexer_cursors WHERE network = $1",
    [network],
    { prepare: true },
  );
  return rows[0] ? { block: Number(rows[0].block_number), hash: rows[0].block_hash } : undefined;
}

/**
 * Recent block hashes of the index, newest first (to compare with the chain after a reorg): those of the window (at
 * most {@link REORG_WINDOW} blocks below the cursor), then the anchors below it.
 */
export async function recentBlocks(db: Queryable, network: string): Promise<Cursor[]> {
  // $1 network
  const { rows } = await db.query<{ number: string; hash: string }>(
    "SELECT number, hash FROM indexer_blocks WHERE network = $1 ORDER BY number DESC",
    [network],
  );
  return rows.map((r) => ({ block: Number(r.number), hash: r.hash }));
}

/**
 * Records the hashes of a written range's blocks and thins out those that left the window below `last` to anchors:
 * the oldest kept block of each band of distances from `last` that doubles in width (512–1023 blocks below it,
 * 1024–2047, …). So the first block the index read stays, and about one block per doubling of the depth: at most a
 * few dozen rows below the window on any chain, enough to tell a chain that shares the index's older blocks from one
 * that does not.
 */
export async function recordBlocks(tx: Queryable, range: { network: string; hashes: Cursor[]; last: number }): Promise<void> {
  const { network, hashes, last } = range;
  // $1 network, $2 block numbers, $3 their hashes
  await tx.query(
    `INSERT INTO indexer_blocks (network, number, hash) SELECT $1, * FROM unnest($2::bigint[], $3::text[])
     ON CONFLICT (network, number) DO UPDATE SET hash = EXCLUDED.hash`,
    [network, hashes.map((h) => h.block), hashes.map((h) => h.hash)],
  );
  // $1 network, $2 the range's last block, $3 the window's width: below the window, each band of distances,
  // floor(log2(distance / width)), keeps its oldest block. The band is the position of the quotient's highest bit (a
  // numeric logarithm took ten times as long, where a range pushes a thousand hashes out of the window).
  await tx.query(
    `DELETE FROM indexer_blocks d USING (
       SELECT number, row_number() OVER (PARTITION BY 64 - position('1' in (($2::bigint - number) / $3::int)::bit(64)::text) ORDER BY number) AS nth
       FROM indexer_blocks WHERE network = $1 AND number < $2::bigint - $3::int
     ) below
     WHERE d.network = $1 AND d.number = below.number AND below.nth > 1`,
    [network, last, REORG_WINDOW],
  );
}

/** Moves the cursor of `network` forward to the last block of the range written. */
export async function moveCursor(tx: Queryable, network: string, last: Cursor): Promise<void> {
  // $1 network, $2 block, $3 its hash
  await tx.query(
    `INSERT INTO indexer_cursors (network, block_number, block_hash, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (network) DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, updated_at = now()`,
    [network, last.block, last.hash],
  );
}

/** Forgets the blocks above `ancestor` and moves the cursor of `network` back to it. */
export async function rollBackBlocks(tx: Queryable, network: string, ancestor: Cursor): Promise<void> {
  // $1 network, $2 the ancestor's block
  await tx.query("DELETE FROM indexer_blocks WHERE network = $1 AND number > $2", [network, ancestor.block]);
  // $1 network, $2 the ancestor's block, $3 its hash
  await tx.query("UPDATE indexer_cursors SET block_number = $2, block_hash = $3, updated_at = now() WHERE network = $1", [
    network,
    ancestor.block,
    ancestor.hash,
  ]);
}
