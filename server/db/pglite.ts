import fs from "node:fs";
import { PGlite, types } from "@electric-sql/pglite";
import { copyStatement } from "./binary-copy";
import type { Connection, Database, Queryable, QueryResult } from "./database";
import { lockDataDir } from "./pglite-lock";

/** The embedded database, which can also be written out whole and started again from that copy. */
export interface PgliteDatabase extends Database {
  /** A tarball of the whole data directory, as `openPglite`'s `loadDataDir` takes it. */
  dump(): Promise<Blob>;
}

/**
 * Opens PGlite in `dataDir` (null: in memory). `loadDataDir` starts it from a `dump()` instead of an empty cluster,
 * which skips initdb (the tests start every database from one dump of a migrated one).
 * A directory is taken for this process until `close` (pglite-lock.ts): one already open, here or in another live
 * process, is refused with `DatabaseInUse` before PGlite reads or writes any of it.
 */
export async function openPglite(dataDir: string | null, options: { loadDataDir?: Blob } = {}): Promise<PgliteDatabase> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  let lite: PGlite;
  try {
    lite = await PGlite.create(dataDir ?? undefined, {
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      // Same values as node-postgres gives, so code and tests do not depend on the backend.
      parsers: {
        [types.INT8]: (value: string) => value,
        [types.BYTEA]: (value: string) => Buffer.from(value.slice(2), "hex"),
      },
    });
  } catch (error) {
    release();
    throw error;
  }

  /** Queries sent and not yet answered (PGlite runs one at a time; the others queue). */
  let inFlight = 0;
  const scope = (target: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      inFlight++;
      try {
        const result = await target.query<R>(sql, params as unknown[] | undefined);
        return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
      } finally {
        inFlight--;
      }
    },
    async exec(sql) {
      await target.exec(sql);
    },
    async copyBinary(table, columns, rows) {
      // PGlite reads COPY's input from the query's blob, named '/dev/blob'.
      inFlight++;
      try {
        const result = await target.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob([rows]) });
        return result.affectedRows ?? 0;
      } finally {
        inFlight--;
      }
    },
  });

  let closed = false;
  const db: PgliteDatabase = {
    kind: "pglite",
    ...scope(lite),
    transaction: (fn) => lite.transaction((tx) => fn(scope(tx))),
    // PGlite is a single session inside this process: the "dedicated connection" is the database itself,
    // and it can only be lost by closing it.
    async connect(): Promise<Connection> {
      return { query: db.query, exec: db.exec, copyBinary: db.copyBinary, transaction: db.transaction, release() {}, onLost() {} };
    },
    listen: (channel, onNotify) => lite.listen(channel, onNotify),
    async ping() {
      if (closed) throw new Error("PGlite is closed");
      await lite.query("SELECT 1");
    },
    stats: () => ({ total: closed ? 0 : 1, idle: closed || inFlight > 0 ? 0 : 1, waiting: Math.max(0, inFlight - 1), max: 1 }),
    dump: () => lite.dumpDataDir("none"),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await lite.close();
      } finally {
        release();
      }
    },
  };
  return db;
}
