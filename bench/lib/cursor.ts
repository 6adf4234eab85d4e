import type { Queryable } from "../../server/db/database";
import { readCursor } from "../../server/indexer/store/blocks";

/** How often the cursor is read: a wait ends at most this late, and costs a read of one row per period. */
const POLL_MS = 10;

/**
 * Resolves once the index of `network` is complete to `block`: its cursor in the database (what the service itself
 * reads as `X-Indexed-Block`) reached it. Read through the store's own `readCursor`: `indexer_cursors` is laid out
 * the same in every tree a bench runs, so this tree's reader serves the older trees' databases too.
 */
export async function cursorReached(db: Queryable, network: string, block: number): Promise<void> {
  for (;;) {
    const cursor = await readCursor(db, network);
    if (cursor && cursor.block >= block) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
