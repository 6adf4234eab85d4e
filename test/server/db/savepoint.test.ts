import { expect } from "chai";
import type { Database, Queryable } from "../../../server/db/database";
import { unlessDuplicate } from "../../../server/db/savepoint";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";

// Runs on PostgreSQL when DATABASE_URL is set and on PGlite otherwise.
describe(`unlessDuplicate: work that takes its rows to be new (${backendName})`, function () {
  let testDb: TestDatabase;
  let db: Database;

  before(async function () {
    testDb = await createTestDatabase();
    db = await testDb.open();
    await db.exec("CREATE TABLE keyed (id int PRIMARY KEY)");
  });
  after(async () => testDb?.drop());
  beforeEach(async () => db.query("DELETE FROM keyed"));

  const insert = (tx: Queryable, id: number) => tx.query("INSERT INTO keyed (id) VALUES ($1)", [id]);
  const ids = async () => (await db.query<{ id: number }>("SELECT id FROM keyed ORDER BY id")).rows.map((r) => r.id);

  it("keeps the work when no key refuses a row", async function () {
    const went = await db.transaction((tx) => unlessDuplicate(tx, () => insert(tx, 1)));
    expect(went).to.equal(true);
    expect(await ids()).to.deep.equal([1]);
  });

  it("undoes all the work when a key refuses one of its rows, and the transaction goes on", async function () {
    await insert(db, 1);
    const went = await db.transaction(async (tx) => {
      const result = await unlessDuplicate(tx, async () => {
        await insert(tx, 2);
        await insert(tx, 1);
      });
      await insert(tx, 3);
      return result;
    });
    expect(went).to.equal(false);
    expect(await ids()).to.deep.equal([1, 3]);
  });

  it("nests: a refusal undone inside leaves the outer work, which a later refusal undoes whole", async function () {
    await insert(db, 1);
    const outcomes: boolean[] = [];
    await db.transaction(async (tx) => {
      const outer = await unlessDuplicate(tx, async () => {
        await insert(tx, 10);
        outcomes.push(await unlessDuplicate(tx, () => insert(tx, 1)));
        await insert(tx, 1);
      });
      outcomes.push(outer);
    });
    expect(outcomes).to.deep.equal([false, false]);
    expect(await ids()).to.deep.equal([1]);
  });

  it("throws any other error", async function () {
    const failed = db.transaction((tx) => unlessDuplicate(tx, () => tx.query("SELECT 1 / 0")));
    await expect(failed).to.be.rejectedWith(/division by zero/);
    expect(await ids()).to.deep.equal([]);
  });
});
