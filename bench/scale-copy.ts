/**
 * A one-off measurement for bench/scale.ts: how fast the synthetic ERC-721 transfers load into nft_transfers (no
 * indexes) by the server's `INSERT ... SELECT generate_series` against `COPY ... FROM STDIN` of rows made in Node, in
 * text and in binary, each as two halves at once (the machine has two cores). Same rows every way.
 * `DATABASE_URL=... BENCH_SCALE_TOKENS=1000000 node -r ts-node/register/transpile-only bench/scale-copy.ts`
 */
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { openMigratedDatabase } from "../server/db/database";
import { createTestDatabase } from "../support/database";

const T = Number(process.env.BENCH_SCALE_TOKENS ?? 1_000_000);
const O = T / 10;
const C = Math.max(1, Math.round(T / 10_000));
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const WHALE_TOKENS = 1000;
const ownerId = (o: number) => 2 + C + o;
const mulmod = (a: number, b: number, m: number) => Number((BigInt(a) * BigInt(b)) % BigInt(m));
const owner = (i: number, k: number) =>
  k === 0 ? (i * 40503 + 17) % O : k === 1 ? (i * 69069 + 1) % O : Math.floor(i / C) < WHALE_TOKENS ? i % C : mulmod(i, 2654435761, O);

const SQL_FUNCTIONS = `
  CREATE FUNCTION bench_hash_bytes(kind int, n bigint) RETURNS bytea IMMUTABLE LANGUAGE sql
    AS $$ SELECT decode(kind || repeat('0', 47), 'hex') || int8send(n) $$;
  CREATE FUNCTION bench_owner(i bigint, k bigint) RETURNS bigint IMMUTABLE LANGUAGE sql AS $$
    SELECT CASE k WHEN 0 THEN (i * 40503 + 17) % ${O} WHEN 1 THEN (i * 69069 + 1) % ${O}
      ELSE CASE WHEN i / ${C} < ${WHALE_TOKENS} THEN i % ${C} ELSE (i * 2654435761) % ${O} END END $$;`;

const insertSql = (from: number, to: number) => `INSERT INTO nft_transfers (block_number, block_time, log_index, batch_index, contract_id, from_id, to_id, network_id, tx_hash, token_id)
  SELECT s / 100, 1600000000 + (s / 100) * 12, s % 100, 0, 2 + i % ${C},
    CASE WHEN k = 0 THEN 1 ELSE ${2 + C} + bench_owner(i, k - 1) END, ${2 + C} + bench_owner(i, k), 1, bench_hash_bytes(2, s), i / ${C}
  FROM generate_series(${from}::bigint, ${to - 1}::bigint) s, LATERAL (SELECT s % ${T} AS i, s / ${T} AS k) x`;

const COLUMNS = "block_number, block_time, log_index, batch_index, contract_id, from_id, to_id, network_id, tx_hash, token_id";
const HASH_PREFIX = "2" + "0".repeat(47);
const BATCH = 5000;

/** Rows s in [from, to) as COPY text, in chunks. */
function* textRows(from: number, to: number): Generator<Buffer> {
  for (let start = from; start < to; start += BATCH) {
    let out = "";
    for (let s = start; s < Math.min(to, start + BATCH); s++) {
      const i = s % T;
      const k = Math.floor(s / T);
      const block = Math.floor(s / 100);
      const fromId = k === 0 ? 1 : ownerId(owner(i, k - 1));
      out += `${block}\t${1600000000 + block * 12}\t${s % 100}\t0\t${2 + (i % C)}\t${fromId}\t${ownerId(owner(i, k))}\t1\t\\\\x${HASH_PREFIX}${s.toString(16).padStart(16, "0")}\t${Math.floor(i / C)}\n`;
    }
    yield Buffer.from(out);
  }
}

/** Numeric in COPY binary: base-10000 digits, most significant first, trailing zero digits left out. */
function numericBinary(buf: Buffer, at: number, v: number): number {
  const digits: number[] = [];
  for (let x = v; x > 0; x = Math.floor(x / 10000)) digits.unshift(x % 10000);
  const weight = digits.length - 1;
  while (digits.length > 0 && digits[digits.length - 1] === 0) digits.pop();
  buf.writeInt32BE(8 + 2 * digits.length, at);
  buf.writeInt16BE(digits.length, at + 4);
  buf.writeInt16BE(digits.length === 0 ? 0 : weight, at + 6);
  buf.writeInt16BE(0, at + 8);
  buf.writeInt16BE(0, at + 10);
  let p = at + 12;
  for (const d of digits) p = buf.writeInt16BE(d, p);
  return p;
}

/** Rows s in [from, to) as COPY binary (header, tuples, trailer), in chunks. */
function* binaryRows(from: number, to: number): Generator<Buffer> {
  yield Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
  const hash = Buffer.alloc(32);
  hash[0] = 0x20;
  for (let start = from; start < to; start += BATCH) {
    const buf = Buffer.alloc(BATCH * 140);
    let p = 0;
    for (let s = start; s < Math.min(to, start + BATCH); s++) {
      const i = s % T;
      const k = Math.floor(s / T);
      const block = Math.floor(s / 100);
      p = buf.writeInt16BE(10, p);
      p = buf.writeInt32BE(8, p);
      p = buf.writeBigInt64BE(BigInt(block), p);
      p = buf.writeInt32BE(8, p);
      p = buf.writeBigInt64BE(BigInt(1600000000 + block * 12), p);
      for (const v of [s % 100, 0, 2 + (i % C), k === 0 ? 1 : ownerId(owner(i, k - 1)), ownerId(owner(i, k))]) {
        p = buf.writeInt32BE(4, p);
        p = buf.writeInt32BE(v, p);
      }
      p = buf.writeInt32BE(2, p);
      p = buf.writeInt16BE(1, p);
      p = buf.writeInt32BE(32, p);
      hash.writeBigInt64BE(BigInt(s), 24);
      p += hash.copy(buf, p);
      p = numericBinary(buf, p, Math.floor(i / C));
    }
    yield buf.subarray(0, p);
  }
  const end = Buffer.alloc(2);
  end.writeInt16BE(-1);
  yield end;
}

async function withClient<R>(url: string, fn: (client: pg.Client) => Promise<R>): Promise<R> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET synchronous_commit = off");
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function main() {
  const database = await createTestDatabase();
  const url = (database.config as { url: string }).url;
  try {
    const { db } = await openMigratedDatabase(database.config);
    await db.exec(SQL_FUNCTIONS);
    for (const { indexname } of (await db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'nft_transfers'")).rows) {
      await db.exec(`DROP INDEX ${indexname}`);
    }
    await db.close();
    const half = Math.floor((3 * T) / 2);
    const halves: Array<[number, number]> = [
      [0, half],
      [half, 3 * T],
    ];
    const ways: Record<string, (from: number, to: number) => Promise<void>> = {
      "INSERT ... SELECT generate_series": (from, to) => withClient(url, async (c) => void (await c.query(insertSql(from, to)))),
      "COPY FROM STDIN (text)": (from, to) =>
        withClient(url, (c) => pipeline(Readable.from(textRows(from, to)), c.query(copyFrom(`COPY nft_transfers (${COLUMNS}) FROM STDIN`)))),
      "COPY FROM STDIN (binary)": (from, to) =>
        withClient(url, (c) =>
          pipeline(Readable.from(binaryRows(from, to)), c.query(copyFrom(`COPY nft_transfers (${COLUMNS}) FROM STDIN (FORMAT binary)`))),
        ),
    };
    const times = new Map<string, number[]>();
    let reference: string | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, way] of Object.entries(ways)) {
        await withClient(url, (c) => c.query("TRUNCATE nft_transfers; CHECKPOINT"));
        const started = performance.now();
        await Promise.all(halves.map(([from, to]) => way(from, to)));
        const seconds = (performance.now() - started) / 1000;
        times.set(name, [...(times.get(name) ?? []), seconds]);
        // Every way writes the same rows.
        const digest = await withClient(url, async (c) => {
          const { rows } = await c.query(
            `SELECT count(*) AS n, md5(string_agg(md5(t::text), '' ORDER BY block_number, log_index)) AS digest FROM nft_transfers t`,
          );
          return `${rows[0].n} ${rows[0].digest}`;
        });
        reference ??= digest;
        const size = await withClient(url, async (c) => (await c.query("SELECT pg_relation_size('nft_transfers') AS b")).rows[0].b);
        console.log(`${name}, round ${round + 1}: ${(3 * T).toLocaleString("en-US")} rows in ${seconds.toFixed(1)} s, ${size} bytes${digest === reference ? "" : ` DIFFERENT ROWS ${digest} vs ${reference}`}`);
      }
    }
    for (const [name, list] of times) console.log(`${name}: ${list.map((t) => t.toFixed(1)).join(", ")} s`);
  } finally {
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
