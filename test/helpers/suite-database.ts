import type { Database } from "../../server/db/database";
import { openMigratedTestDatabase, type TestDatabase } from "./database";

/**
 * A migrated database of the suite's own, a connection to it and what `setUp` writes in it, for a suite that reads and
 * writes the tables without a chain or an app: made in the suite's `before`, dropped in its `after` (which closes the
 * connection). A test reads them by calling the returned function, as with SuiteChain.forSuite.
 */
export function databaseForSuite<T extends object = object>(
  setUp: (db: Database) => Promise<T> = async () => ({}) as T,
): () => T & { db: Database; database: TestDatabase } {
  let database: TestDatabase | undefined;
  let state: (T & { db: Database; database: TestDatabase }) | undefined;
  before(async function () {
    const opened = await openMigratedTestDatabase();
    database = opened.database;
    state = { ...(await setUp(opened.db)), ...opened };
  });
  after(async () => database?.drop());
  return () => {
    if (state === undefined) throw new Error("the suite's database is read before its before hook made it");
    return state;
  };
}
