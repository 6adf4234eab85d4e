import { expect } from "chai";
import { arrayLiteral, columnLiterals } from "../../../server/db/arrays";
import type { Database } from "../../../server/db/database";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";

// Runs on PostgreSQL when DATABASE_URL is set and on PGlite otherwise; CI runs it both ways.
describe(`arrayLiteral (${backendName})`, function () {
  let testDb: TestDatabase;
  let db: Database;

  before(async function () {
    testDb = await createTestDatabase();
    db = await testDb.open();
  });
  after(async () => testDb?.drop());

  it("is read by the database as the array node-postgres would send: numbers, bigints, hex, decimals and NULLs", async function () {
    const big = 2n ** 256n - 1n;
    const values = [
      [1, -2, 0],
      [big, 0n],
      ["0xAbC0", "0x", null],
      ["123", "-7", undefined],
    ] as const;
    const { rows } = await db.query<{ ints: number[]; ids: string[]; hashes: Array<Buffer | null>; decimals: Array<string | null> }>(
      `SELECT $1::int[] AS ints, $2::numeric[]::text[] AS ids,
         array(SELECT decode(substr(h, 3), 'hex') FROM unnest($3::text[]) WITH ORDINALITY AS u(h, n) ORDER BY n) AS hashes,
         $4::numeric[]::text[] AS decimals`,
      values.map((v) => arrayLiteral(v)),
    );
    expect(rows[0].ints).to.deep.equal([1, -2, 0]);
    expect(rows[0].ids).to.deep.equal([big.toString(), "0"]);
    expect(rows[0].hashes.map((h) => h && [...h])).to.deep.equal([[0xab, 0xc0], [], null]);
    expect(rows[0].decimals).to.deep.equal(["123", "-7", null]);
    // The same arrays sent by node-postgres's own conversion read the same.
    const { rows: same } = await db.query<{ ints: number[]; ids: string[] }>("SELECT $1::int[] AS ints, $2::numeric[]::text[] AS ids", [
      [1, -2, 0],
      [big.toString(), "0"],
    ]);
    expect(same[0]).to.deep.equal({ ints: rows[0].ints, ids: rows[0].ids });
  });

  it("is one element per value whatever the count, and {} for none", async function () {
    const many = Array.from({ length: 10_000 }, (_, i) => i);
    const { rows } = await db.query<{ n: number; sum: string; empty: number }>(
      "SELECT cardinality($1::int[]) AS n, (SELECT sum(x) FROM unnest($1::int[]) x)::text AS sum, cardinality($2::int[]) AS empty",
      [arrayLiteral(many), arrayLiteral([])],
    );
    expect(rows[0]).to.deep.equal({ n: 10_000, sum: String((9_999 * 10_000) / 2), empty: 0 });
  });

  it("columnLiterals: one array literal per field, in the order named, read back row by row by unnest", async function () {
    const batch = [
      { contract: "0xab", tokenId: 1n, owner: "0x01", delta: -1n },
      { contract: "0xcd", tokenId: "22", owner: "0x02", delta: 3n },
    ];
    const columns = columnLiterals(batch, ["owner", "tokenId", "delta"]);
    expect(columns).to.deep.equal(["{0x01,0x02}", "{1,22}", "{-1,3}"]);
    const { rows } = await db.query<{ owner: string; token_id: string; delta: string }>(
      "SELECT owner, token_id::text, delta::text FROM unnest($1::text[], $2::numeric[], $3::numeric[]) AS u(owner, token_id, delta)",
      columns,
    );
    expect(rows).to.deep.equal([
      { owner: "0x01", token_id: "1", delta: "-1" },
      { owner: "0x02", token_id: "22", delta: "3" },
    ]);
  });

  it("refuses text an array literal would have to quote, or read as NULL", function () {
    for (const text of ["0x12,34", "{1}", '"1"', "NULL", "null", "0xzz", "1.5", " 1", "", "0x12\\"]) {
      expect(() => arrayLiteral([text]), text).to.throw(TypeError, /is neither hex nor an integer/);
    }
  });
});
