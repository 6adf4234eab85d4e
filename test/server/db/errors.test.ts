import { expect } from "chai";
import type { Database } from "../../../server/db/database";
import { isForeignKeyViolation, isUniqueViolation, isUnstorableText } from "../../../server/db/errors";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";

// Runs on PostgreSQL when DATABASE_URL is set and on PGlite otherwise: both drivers' errors are read the same way.
describe(`what a statement's refusal means (${backendName})`, function () {
  let testDb: TestDatabase;
  let db: Database;

  before(async function () {
    testDb = await createTestDatabase();
    db = await testDb.open();
    await db.exec(`CREATE TABLE parent (id int PRIMARY KEY);
                   CREATE TABLE child (id int PRIMARY KEY, parent int NOT NULL REFERENCES parent (id), note text, doc jsonb)`);
    await db.query("INSERT INTO parent (id) VALUES (1)");
    await db.query("INSERT INTO child (id, parent) VALUES (1, 1)");
  });
  after(async () => testDb?.drop());

  async function refusal(sql: string, params: unknown[]): Promise<unknown> {
    try {
      await db.query(sql, params);
    } catch (error) {
      return error;
    }
    throw new Error(`the database took ${sql}`);
  }

  /** What each reader of server/db/errors.ts says of `error`. */
  const meaning = (error: unknown) => ({
    unique: isUniqueViolation(error),
    foreignKey: isForeignKeyViolation(error),
    unstorable: isUnstorableText(error),
  });

  it("tells a duplicate key, a key that names no row and text it cannot store apart, and none in another error", async function () {
    expect(meaning(await refusal("INSERT INTO child (id, parent) VALUES ($1, $2)", [1, 1]))).to.deep.equal({
      unique: true,
      foreignKey: false,
      unstorable: false,
    });
    expect(meaning(await refusal("INSERT INTO child (id, parent) VALUES ($1, $2)", [2, 7]))).to.deep.equal({
      unique: false,
      foreignKey: true,
      unstorable: false,
    });
    expect(meaning(await refusal("INSERT INTO child (id, parent, doc) VALUES ($1, $2, $3)", [3, 1, '{"a":"\\u0000"}']))).to.deep.equal({
      unique: false,
      foreignKey: false,
      unstorable: true,
    });
    expect(meaning(await refusal("INSERT INTO child (id, parent, note) VALUES ($1, $2, $3)", [4, 1, "a\u0000b"]))).to.deep.equal({
      unique: false,
      foreignKey: false,
      unstorable: true,
    });
    expect(meaning(await refusal("SELECT * FROM no_such_table", []))).to.deep.equal({
      unique: false,
      foreignKey: false,
      unstorable: false,
    });
    expect(meaning(new Error("duplicate key value violates unique constraint"))).to.deep.equal({
      unique: false,
      foreignKey: false,
      unstorable: false,
    });
  });
});
