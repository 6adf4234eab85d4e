import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { migrate, readMigrations } from "../../../server/db/migrate";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";

describe(`migrate (${backendName})`, function () {
  let testDb: TestDatabase;
  let dir: string;

  beforeEach(async function () {
    testDb = await createTestDatabase({ unmigrated: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
    fs.writeFileSync(path.join(dir, "0001_first.sql"), "CREATE TABLE a (id int PRIMARY KEY);\nINSERT INTO a VALUES (1);");
    fs.writeFileSync(path.join(dir, "0002_second.sql"), "ALTER TABLE a ADD COLUMN name text; -- a comment; with a semicolon\n");
  });
  afterEach(async function () {
    await testDb.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("applies every migration once, in version order", async function () {
    const db = await testDb.open();
    expect((await migrate(db, readMigrations(dir))).map((m) => m.version)).to.deep.equal([1, 2]);
    expect(await migrate(db, readMigrations(dir))).to.deep.equal([]);
    const { rows } = await db.query("SELECT id, name FROM a");
    expect(rows).to.deep.equal([{ id: 1, name: null }]);
  });

  it("is safe when two instances start at once: each migration runs exactly once", async function () {
    const first = await testDb.open();
    // On PostgreSQL a second pool is a second instance; PGlite has one session, shared.
    const second = testDb.kind === "postgres" ? await testDb.open() : first;
    const results = await Promise.all([migrate(first, readMigrations(dir)), migrate(second, readMigrations(dir))]);
    expect(results.map((applied) => applied.length).sort()).to.deep.equal([0, 2]);
    expect((await first.query("SELECT count(*)::int AS n FROM a")).rows[0]).to.deep.equal({ n: 1 });
  });

  it("leaves the database as it was when a migration fails", async function () {
    const db = await testDb.open();
    fs.writeFileSync(path.join(dir, "0003_broken.sql"), "CREATE TABLE b (id int); SELECT no_such_function();");
    await expect(migrate(db, readMigrations(dir))).to.be.rejectedWith(/no_such_function/);
    const tables = await db.query("SELECT 1 FROM information_schema.tables WHERE table_name IN ('a', 'b')");
    expect(tables.rowCount).to.equal(0);
  });

  it("refuses to start when an applied migration was edited", async function () {
    const db = await testDb.open();
    await migrate(db, readMigrations(dir));
    fs.appendFileSync(path.join(dir, "0001_first.sql"), "\nINSERT INTO a VALUES (2);");
    await expect(migrate(db, readMigrations(dir))).to.be.rejectedWith("migration 1_first was changed after it was applied");
  });

  it("lets comment lines be reworded, and takes a database that recorded the whole text's checksum", async function () {
    const db = await testDb.open();
    await migrate(db, readMigrations(dir));
    fs.writeFileSync(
      path.join(dir, "0001_first.sql"),
      "-- The first table, reworded.\nCREATE TABLE a (id int PRIMARY KEY);\nINSERT INTO a VALUES (1);",
    );
    expect(await migrate(db, readMigrations(dir))).to.deep.equal([]);

    // A database migrated when the whole text counted: accepted, and its record rewritten to the new checksum.
    const text = fs.readFileSync(path.join(dir, "0002_second.sql"), "utf8");
    await db.query("UPDATE schema_migrations SET checksum = $1 WHERE version = 2", [createHash("sha256").update(text).digest("hex")]);
    expect(await migrate(db, readMigrations(dir))).to.deep.equal([]);
    const { rows } = await db.query<{ checksum: string }>("SELECT checksum FROM schema_migrations WHERE version = 2");
    expect(rows[0].checksum).to.equal(readMigrations(dir).find((m) => m.version === 2)!.checksum);

    // A change to a statement, even a trailing comment on its line, still stops the start.
    fs.writeFileSync(path.join(dir, "0002_second.sql"), "ALTER TABLE a ADD COLUMN name text; -- reworded\n");
    await expect(migrate(db, readMigrations(dir))).to.be.rejectedWith("migration 2_second was changed after it was applied");
  });

  it("takes the service's databases migrated before its migrations' comment lines were reworded", async function () {
    const db = await testDb.open();
    await migrate(db);
    // The whole-text checksums these three migrations had when they were first released.
    const earlier: Record<number, string> = {
      100: "62dda46101287079c7b7e388e5e9ce3f0de26deff4042b49d46cf85023975d54",
      200: "48f3f6ef06d1bdeae1e7ac8d674a4971fb01151871e820acec70f716ae676cf6",
      300: "863ee80cf1fc4a68c91d89455382f3e666df7dbe5cd12add69ed82470c0f1a35",
    };
    for (const [version, checksum] of Object.entries(earlier)) {
      await db.query("UPDATE schema_migrations SET checksum = $1 WHERE version = $2", [checksum, Number(version)]);
    }
    expect(await migrate(db)).to.deep.equal([]);
    const { rows } = await db.query<{ version: number; checksum: string }>(
      "SELECT version, checksum FROM schema_migrations WHERE version IN (100, 200, 300)",
    );
    for (const row of rows) expect(row.checksum).to.equal(readMigrations().find((m) => m.version === row.version)!.checksum);
  });

  it("refuses a badly named file and duplicate versions", async function () {
    fs.writeFileSync(path.join(dir, "third.sql"), "");
    expect(() => readMigrations(dir)).to.throw("migration file name must be NNNN_name.sql: third.sql");
    fs.rmSync(path.join(dir, "third.sql"));
    fs.writeFileSync(path.join(dir, "0002_again.sql"), "");
    expect(() => readMigrations(dir)).to.throw("two migrations have version 2");
  });

  it("applies the service's own migrations on an empty database", async function () {
    const db = await testDb.open();
    await migrate(db);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM schema_migrations");
    expect(rows[0].n).to.equal(readMigrations().length);
  });
});
