import type { Database, Queryable } from "../../server/db/database";
import { writeRange, type IndexedRange } from "../../server/indexer/store/writes";

/** Writes one range in a transaction, as the indexer does; the statements it sent, in order (its COPYs aside). */
export async function writeRangeCounted(db: Database, range: IndexedRange): Promise<string[]> {
  const statements: string[] = [];
  await db.transaction((tx) => {
    const counted: Queryable = {
      query: (sql, params, options) => {
        statements.push(sql);
        return tx.query(sql, params, options);
      },
      exec: (sql) => tx.exec(sql),
      copyBinary: (table, columns, rows) => tx.copyBinary(table, columns, rows),
    };
    return writeRange(counted, range);
  });
  return statements;
}
