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

  const scope = (target: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const result = await target.query<R>(sql, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
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
    async close() {
      if (closed) return;
      closed = true;
      await lite.close();
    },
  };
  return db;
}
