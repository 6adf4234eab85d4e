import type { Connection, Database, Queryable } from "../server/db/database";

/** What the service sent to its database since it started. */
export interface QueryCounts {
  /** SQL statements the service's code ran (BEGIN and COMMIT of transactions not included). */
  statements: number;
  /** Messages that waited for the database's answer: statements, plus BEGIN and COMMIT (or ROLLBACK) of each transaction. */
  roundTrips: number;
  /** Statements by their SQL text (whitespace collapsed), to see which ones a request runs. */
  bySql: Record<string, number>;
}

/**
 * Counts every statement and round trip sent to `db`, for a test that holds a request to its number of queries
 * (the benchmark counts from outside the service, on the wire: bench/lib/pg-count-proxy.ts).
 */
export function countQueries(db: Database): Database & { queryCounts(): QueryCounts } {
  const counts = { statements: 0, roundTrips: 0 };
  // By the SQL as sent (cheap while the service is under load); the text is tidied when the counts are asked for.
  const bySql = new Map<string, number>();
  const count = (sql: string) => {
    counts.statements++;
    counts.roundTrips++;
    bySql.set(sql, (bySql.get(sql) ?? 0) + 1);
  };
  const counted = (target: Queryable): Queryable => ({
    query: (sql, params, options) => {
      count(sql);
      return target.query(sql, params, options);
    },
    exec: (sql) => {
      count(sql);
      return target.exec(sql);
    },
    copyBinary: (table, columns, rows) => {
      count(`COPY ${table}`);
      return target.copyBinary(table, columns, rows);
    },
  });
  const queryCounts = (): QueryCounts => {
    const tidy: Record<string, number> = {};
    for (const [sql, n] of bySql) {
      const key = sql.replace(/\s+/g, " ").trim();
      tidy[key] = (tidy[key] ?? 0) + n;
    }
    return { ...counts, bySql: tidy };
  };
  return {
    ...db,
    ...counted(db),
    kind: db.kind,
    transaction(fn) {
      counts.roundTrips += 2;
      return db.transaction((tx) => fn(counted(tx)));
    },
    async connect(): Promise<Connection> {
      const connection = await db.connect();
      return {
        ...connection,
        ...counted(connection),
        transaction(fn) {
          counts.roundTrips += 2;
          return connection.transaction((tx) => fn(counted(tx)));
        },
      };
    },
    ping: (timeoutMs) => db.ping(timeoutMs),
    close: () => db.close(),
    queryCounts,
  };
}
