import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import type { DatabaseConfig } from "../../../server/config";
import { openMigratedDatabase } from "../../../server/db/database";
import { readMigrations } from "../../../server/db/migrate";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";

/** How the service, its CLIs and the standalone indexer open their database. */
describe(`openMigratedDatabase (${backendName})`, function () {
  let testDb: TestDatabase;
  let dir: string;
  let config: DatabaseConfig;

  beforeEach(async function () {
    testDb = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "open-migrated-"));
    fs.mkdirSync(path.join(dir, "migrations"));
    fs.writeFileSync(path.join(dir, "migrations", "0001_first.sql"), "CREATE TABLE a (id int PRIMARY KEY);");
    // PGlite in a directory, so that a second open finds what the first one did.
    config = testDb.kind === "postgres" ? testDb.config : { kind: "pglite", dataDir: path.join(dir, "pglite") };
  });
  afterEach(async function () {
    await testDb.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("opens the database with its schema brought up to date, and says which migrations that took", async function () {
    const first = await openMigratedDatabase(config, readMigrations(path.join(dir, "migrations")));
    expect(first.applied.map((m) => m.version)).to.deep.equal([1]);
    expect((await first.db.query("SELECT count(*)::int AS n FROM a")).rows).to.deep.equal([{ n: 0 }]);
    await first.db.close();
    const again = await openMigratedDatabase(config, readMigrations(path.join(dir, "migrations")));
    expect(again.applied).to.deep.equal([]);
    await again.db.close();
  });

  it("closes the database again when migrating fails", async function () {
    // PGlite's connections are not visible from outside: PostgreSQL shows them in pg_stat_activity.
    if (testDb.kind !== "postgres") this.skip();
    fs.writeFileSync(path.join(dir, "migrations", "0002_broken.sql"), "SELECT no_such_function();");
    await expect(openMigratedDatabase(config, readMigrations(path.join(dir, "migrations")))).to.be.rejectedWith(/no_such_function/);
    const observer = await testDb.open();
    const { rows } = await observer.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    expect(rows).to.deep.equal([{ n: 0 }]);
  });
});
