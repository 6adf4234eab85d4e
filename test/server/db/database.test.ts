import { expect } from "chai";
import type { Database } from "../../../server/db/database";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";

// Runs on PostgreSQL when DATABASE_URL is set and on PGlite otherwise; CI runs it both ways.
describe(`database (${backendName})`, function () {
  let testDb: TestDatabase;
  let db: Database;

  before(async function () {
    testDb = await createTestDatabase();
    db = await testDb.open();
    await db.exec(`CREATE TABLE t (id numeric(78,0) PRIMARY KEY, n int8, b bytea, j jsonb, at timestamptz DEFAULT now());
                   CREATE TABLE counter (k text PRIMARY KEY, v int NOT NULL)`);
  });
  after(async () => testDb?.drop());

  describe("query", function () {
    it("returns the same value types on both backends: exact int8 and numeric strings, Buffer, parsed json, Date", async function () {
      const id = (2n ** 256n - 1n).toString();
      await db.query("INSERT INTO t (id, n, b, j) VALUES ($1, $2, $3, $4)", [
        id,
        "9007199254740993",
        Buffer.from([1, 2, 255]),
        { a: "あ" },
      ]);
      const { rows } = await db.query<{ id: string; n: string; b: Buffer; j: unknown; at: Date }>("SELECT * FROM t WHERE id = $1", [id]);
      expect(rows).to.have.length(1);
      expect(rows[0].id).to.equal(id);
      expect(rows[0].n).to.equal("9007199254740993");
      expect(Buffer.isBuffer(rows[0].b)).to.equal(true);
      expect([...rows[0].b]).to.deep.equal([1, 2, 255]);
      expect(rows[0].j).to.deep.equal({ a: "あ" });
      expect(rows[0].at).to.be.instanceOf(Date);
    });

    it("counts changed rows and returned rows", async function () {
      await db.query("INSERT INTO counter (k, v) VALUES ('a', 1), ('b', 1), ('c', 1)");
      expect((await db.query("UPDATE counter SET v = v + 1 WHERE k <> 'c'")).rowCount).to.equal(2);
      expect((await db.query("SELECT * FROM counter")).rowCount).to.equal(3);
      expect((await db.query("DELETE FROM counter WHERE k = 'zzz'")).rowCount).to.equal(0);
    });

    it("rejects bad SQL with the server's error and stays usable", async function () {
      let caught: unknown;
      await db.query("SELEC 1").catch((error) => (caught = error));
      expect(String(caught)).to.match(/syntax error/);
      expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows[0].one).to.equal(1);
    });
  });

  describe("transaction", function () {
    it("commits when the function resolves", async function () {
      await db.transaction(async (tx) => {
        await tx.query("INSERT INTO counter (k, v) VALUES ('tx1', 1)");
      });
      expect((await db.query("SELECT v FROM counter WHERE k = 'tx1'")).rows).to.deep.equal([{ v: 1 }]);
    });

    it("rolls everything back when the function throws", async function () {
      const failure = db.transaction(async (tx) => {
        await tx.query("INSERT INTO counter (k, v) VALUES ('tx2', 1)");
        throw new Error("boom");
      });
      await expect(failure).to.be.rejectedWith("boom");
      expect((await db.query("SELECT v FROM counter WHERE k = 'tx2'")).rowCount).to.equal(0);
    });

    it("serializes concurrent read-modify-write under row locks: no update is lost", async function () {
      await db.query("INSERT INTO counter (k, v) VALUES ('race', 0)");
      await Promise.all(
        Array.from({ length: 20 }, () =>
          db.transaction(async (tx) => {
            const { rows } = await tx.query<{ v: number }>("SELECT v FROM counter WHERE k = 'race' FOR UPDATE");
            await tx.query("UPDATE counter SET v = $1 WHERE k = 'race'", [rows[0].v + 1]);
          }),
        ),
      );
      expect((await db.query("SELECT v FROM counter WHERE k = 'race'")).rows).to.deep.equal([{ v: 20 }]);
    });
  });

  describe("connect", function () {
    it("keeps a session: a session advisory lock is held until released", async function () {
      const holder = await db.connect();
      const got = await holder.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(42) AS ok");
      expect(got.rows[0].ok).to.equal(true);
      if (db.kind === "postgres") {
        // Another session cannot take it while the holder keeps its connection.
        const other = await db.connect();
        expect((await other.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(42) AS ok")).rows[0].ok).to.equal(false);
        other.release();
      }
      await holder.query("SELECT pg_advisory_unlock(42)");
      holder.release();
    });
  });

  describe("listen", function () {
    it("delivers a NOTIFY sent in a transaction once it commits, and nothing after unlisten", async function () {
      const got: string[] = [];
      const unlisten = await db.listen("test_channel", (payload) => got.push(payload));
      let seenInside: string[] = [];
      await db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify('test_channel', 'one')");
        await new Promise((resolve) => setTimeout(resolve, 100));
        seenInside = [...got];
      });
      for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect([seenInside, got]).to.deep.equal([[], ["one"]]);
      await unlisten();
      await db.query("SELECT pg_notify('test_channel', 'two')");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(got).to.deep.equal(["one"]);
    });
  });

  describe("ping", function () {
    it("answers while the database is up", async function () {
      await db.ping();
    });
  });
});
