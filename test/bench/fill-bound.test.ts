import { expect } from "chai";
import { readMigrations } from "../../server/db/migrate";
import { createTestDatabase, openMigratedForFill, usingPostgres } from "../../support/database";

/**
 * A benchmark fills its database before the service starts: the scale suite writes tens of millions of rows and
 * compacts them, single statements of minutes. They run under a bound of their own, not the service's statement
 * timeout (DATABASE_STATEMENT_TIMEOUT_MS, 10 s by default), which once cancelled the full scale run's fill.
 */
describe("bench: a suite's fill", function () {
  it("runs its statements under the fill's bound, not the service's", async function () {
    if (!usingPostgres()) return this.skip();
    const database = await createTestDatabase();
    try {
      const { db } = await openMigratedForFill(database.config, readMigrations());
      try {
        const { rows } = await db.query<{ statement_timeout: string }>("SHOW statement_timeout");
        expect(rows[0].statement_timeout).to.equal("6h");
      } finally {
        await db.close();
      }
    } finally {
      await database.drop();
    }
  });
});
