import fs from "node:fs";
import { PGlite, types } from "@electric-sql/pglite";
import type { Connection, Database, Queryable, QueryResult } from "./database";

export async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create(dataDir ?? undefined, {
    // Same values as node-postgres gives, so code and tests do not depend on the backend.
    parsers: {
      [types.INT8]: (value: string) => value,
      [types.BYTEA]: (value: string) => Buffer.from(value.slice(2), "hex"),
    },
  });

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
  });

  let closed = false;
  const db: Database = {
    kind: "pglite",
    ...scope(lite),
    transaction: (fn) => lite.transaction((tx) => fn(scope(tx))),
    // PGlite is a single session inside this process: the "dedicated connection" is the database itself,
    // and it can only be lost by closing it.
    async connect(): Promise<Connection> {
      return { query: db.query, exec: db.exec, transaction: db.transaction, release() {}, onLost() {} };
    },
    listen: (channel, onNotify) => lite.listen(channel, onNotify),
    async ping() {
      if (closed) throw new Error("PGlite is closed");
      await lite.query("SELECT 1");
    },
    stats: () => ({ total: closed ? 0 : 1, idle: closed || inFlight > 0 ? 0 : 1, waiting: Math.max(0, inFlight - 1), max: 1 }),
    async close() {
      if (closed) return;
      closed = true;
      await lite.close();
    },
  };
  return db;
}
