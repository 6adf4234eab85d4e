import { migrate, readMigrations } from "../../server/db/migrate";
import type { Database } from "../../server/db/database";
import { createTestDatabase } from "./database";

/**
 * A test of what migration `version` makes of the rows written before it: `body` gets a fresh database migrated up to,
 * not including, that version, writes rows in the layout of then, calls `migrateRest` and reads what came of them. The
 * database is dropped afterwards.
 */
export async function beforeMigration(
  version: number,
  body: (db: Database, migrateRest: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const database = await createTestDatabase({ unmigrated: true });
  const db = await database.open();
  try {
    const all = readMigrations();
    await migrate(
      db,
      all.filter((m) => m.version < version),
    );
    await body(db, async () => {
      await migrate(db, all);
    });
  } finally {
    await database.drop();
  }
}
