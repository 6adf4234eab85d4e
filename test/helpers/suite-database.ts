import type { Database } from "../../server/db/database";
import { openMigratedTestDatabase, type TestDatabase } from "./database";
import { suiteFixture } from "./suite-fixture";

/**
 * A migrated database of the suite's own, a connection to it and what `setUp` writes in it, for a suite that reads and
 * writes the tables without a chain or an app: made in the suite's `before`, dropped in its `after` (which closes the
 * connection). A test reads them by calling the returned function, as with SuiteChain.forSuite.
 */
export function databaseForSuite<T extends object = object>(
  setUp: (db: Database) => Promise<T> = async () => ({}) as T,
): () => T & { db: Database; database: TestDatabase } {
  return suiteFixture({
    open: openMigratedTestDatabase,
    state: async (opened) => ({ ...(await setUp(opened.db)), ...opened }),
    close: ({ database }) => database.drop(),
  });
}
