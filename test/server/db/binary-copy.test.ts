import { expect } from "chai";
import { BinaryRows, copyStatement } from "../../../server/db/binary-copy";
import type { Database } from "../../../server/db/database";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";

// Runs on PostgreSQL when DATABASE_URL is set and on PGlite otherwise; CI runs it both ways.
describe(`binary COPY: BinaryRows and copyBinary (${backendName})`, function () {
  let testDb: TestDatabase;
  let db: Database;
  const COLUMNS = ["n", "small", "medium", "large", "hash", "id"];

  before(async function () {
    testDb = await createTestDatabase();
    db = await testDb.open();
    await db.exec("CREATE TABLE copied (n integer, small smallint, medium integer, large bigint, hash bytea, id numeric(78, 0))");
  });
  after(async () => testDb?.drop());
  beforeEach(async () => db.query("TRUNCATE copied"));

  /** The table's rows as text, in the order they were written. */
  const read = async () =>
    (
      await db.query<{ small: number; medium: number; large: string; hash: string; id: string }>(
        "SELECT small, medium, large::text AS large, encode(hash, 'hex') AS hash, id::text AS id FROM copied ORDER BY n",
      )
    ).rows;

  it("loads each value as the database reads its text: integers at their bounds, hex of any length, numerics of every size", async function () {
    const ids = [
      0n,
      1n,
      9_999n,
      10_000n,
      10_001n,
      100_000_000n,
      123_456_789_012n,
      10n ** 20n,
      10n ** 77n,
      2n ** 256n - 1n,
      2n ** 255n,
      -5n,
      -(10n ** 8n),
    ];
    const rows = new BinaryRows(COLUMNS.length);
    const expected: Array<Record<string, unknown>> = [];
    ids.forEach((id, n) => {
      const small = n % 2 === 0 ? 32_767 : -32_768;
      const medium = n % 2 === 0 ? 2_147_483_647 : -2_147_483_648;
      const large = [0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 32, 2 ** 32 - 1, -(2 ** 32)][n % 7];
      const hash = `0x${"ab".repeat(n * 3)}${n % 2 === 0 ? "" : "CD"}`;
      rows.row().int4(n).int2(small).int4(medium).int8(large).bytes(hash).numeric(id);
      expected.push({ small, medium, large: String(large), hash: hash.slice(2).toLowerCase(), id: id.toString() });
    });
    expect(await db.copyBinary("copied", COLUMNS, rows.done())).to.equal(ids.length);
    expect(await read()).to.deep.equal(expected);
  });

  it("loads NULLs, an empty set of rows, and 20,000 rows past the first buffer's size", async function () {
    const nulls = new BinaryRows(COLUMNS.length);
    nulls.row().int4(0).null().null().int8(undefined).null().null();
    await db.copyBinary("copied", COLUMNS, nulls.done());
    expect(await read()).to.deep.equal([{ small: null, medium: null, large: null, hash: null, id: null }]);
    expect(await db.copyBinary("copied", COLUMNS, new BinaryRows(COLUMNS.length).done())).to.equal(0);
    await db.query("TRUNCATE copied");
    const many = new BinaryRows(COLUMNS.length, 16);
    for (let n = 0; n < 20_000; n++)
      many
        .row()
        .int4(n)
        .int2(1)
        .int4(n)
        .int8(n * 1000)
        .bytes(`0x${n.toString(16).padStart(64, "0")}`)
        .numeric(BigInt(n) * 10n ** 70n);
    expect(many.count).to.equal(20_000);
    expect(await db.copyBinary("copied", COLUMNS, many.done())).to.equal(20_000);
    const { rows } = await db.query<{ count: number; sum: string; hashes: number }>(
      "SELECT count(*)::int AS count, sum(id)::text AS sum, count(DISTINCT hash)::int AS hashes FROM copied",
    );
    expect(rows[0]).to.deep.equal({ count: 20_000, sum: (((19_999n * 20_000n) / 2n) * 10n ** 70n).toString(), hashes: 20_000 });
  });

  it("is part of the transaction it runs in: rolled back with it", async function () {
    const rows = new BinaryRows(COLUMNS.length).row().int4(1).int2(1).int4(1).int8(1).bytes("0x01").numeric(1n).done();
    await db
      .transaction(async (tx) => {
        await tx.copyBinary("copied", COLUMNS, rows);
        expect((await tx.query("SELECT count(*)::int AS n FROM copied")).rows[0]).to.deep.equal({ n: 1 });
        throw new Error("rolled back");
      })
      .catch((error: Error) => expect(error.message).to.equal("rolled back"));
    expect(await read()).to.deep.equal([]);
  });

  it("refuses a value it cannot write as a TypeError, or a RangeError for an integer past its type, before anything is sent", function () {
    const row = () => new BinaryRows(2).row();
    for (const [label, write] of [
      ["not hex", () => row().bytes("0xzz")],
      ["a hex digit's look-alike past ASCII", () => row().bytes("0x\u0661\u0662")],
      ["a character whose low byte is a hex digit", () => row().bytes("0x\u0131\u0132")],
      ["hex cut short", () => row().bytes("0xabc")],
      ["no 0x", () => row().bytes("abcd")],
      ["a fraction", () => row().int4(1.5)],
      ["past 2^53", () => row().int8(2 ** 53)],
      ["a number for a numeric", () => row().numeric(5 as unknown as bigint)],
      ["more fields than columns", () => row().int4(1).int4(2).int4(3)],
      ["a row cut short", () => row().int4(1).done()],
      ["a field before the first row", () => new BinaryRows(1).int4(1)],
    ] as const)
      expect(write, label).to.throw(TypeError);
    for (const [label, write] of [
      ["a smallint past 32767", () => row().int2(32_768)],
      ["a smallint under -32768", () => row().int2(-32_769)],
      ["an integer past 2^31 - 1", () => row().int4(2 ** 31)],
      ["an integer under -2^31", () => row().int4(-(2 ** 31) - 1)],
    ] as const)
      expect(write, label).to.throw(RangeError);
    expect(() => copyStatement("copied; DROP TABLE copied", ["n"], "STDIN")).to.throw(TypeError, "not a plain SQL name");
  });

  it("fails as the database refuses a value out of the column's range, and loads nothing", async function () {
    const rows = new BinaryRows(2)
      .row()
      .int4(1)
      .numeric(10n ** 78n)
      .done();
    let error: (Error & { code?: string }) | undefined;
    await db.copyBinary("copied", ["n", "id"], rows).catch((e: Error) => (error = e));
    expect(error, "numeric(78, 0) holds at most 78 digits").to.be.an("error");
    expect(error!.code).to.equal("22003");
    expect(await read()).to.deep.equal([]);
  });
});
