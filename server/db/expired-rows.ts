import type { Queryable } from "./database";

/**
 * Deletes at most `rows` rows of `table` whose `expires_at` is before `before`, one short statement whatever the table
 * holds (the expiry's index finds them). For the module that owns the table. Resolves to the rows deleted.
 */
export async function deleteExpiredRows(db: Queryable, table: string, before: Date, rows: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE expires_at < $1 LIMIT $2))`,
    [before, rows],
  );
  return rowCount;
}
