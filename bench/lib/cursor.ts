import type { Queryable } from "../../server/db/database";

/** How often the cursor is read: a wait ends at most this late, and costs a read of one row per period. */
const POLL_MS = 10;

/**
 * Resolves once the index of `network` is complete to `block`: its cursor in the database (what the service itself
 * reads as `X-Indexed-Block`) reached it. The table and its columns are the same in every tree a bench runs.
 */
export async function cursorReached(db: Pick<Queryable, "query">, network: string, block: number): Promise<void> {
  for (;;) {
    // $1 network
    const { rows } = await db.query<{ block_number: string }>("SELECT block_number FROM indexer_cursors WHERE network = $1", [network]);
    if (rows.length > 0 && Number(rows[0].block_number) >= block) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
