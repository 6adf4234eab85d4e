import pg from "pg";
import { Reader } from "../config/reader";
import { acquiring } from "./errors";
import { withTimeout, type Connection, type Database, type Queryable, type QueryOptions, type QueryResult } from "./database";

/**
 * `poolSize`, `acquireTimeoutMs`: DATABASE_POOL_SIZE and DATABASE_ACQUIRE_TIMEOUT_MS as loadConfig read them; a config
 * the tests make without them gets their defaults.
 */
export async function openPostgres(
  url: string,
  poolSize = new Reader({}).int("DATABASE_POOL_SIZE"),
  acquireTimeoutMs = new Reader({}).int("DATABASE_ACQUIRE_TIMEOUT_MS"),
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: acquireTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  // An idle client that loses its server (restart, network cut) is dropped by the pool; without a listener
  // the 'error' event would crash the process.
  pool.on("error", () => {});

  // Names of the prepared statements, one per distinct text (node-postgres prepares a name on each connection the
  // first time that connection runs it, and refuses one name for two texts).
  const prepared = new Map<string, string>();
  const nameOf = (sql: string) => {
    let name = prepared.get(sql);
    if (name === undefined) prepared.set(sql, (name = `p${prepared.size}`));
    return name;
  };

  const run = async <R>(
    client: pg.Pool | pg.PoolClient,
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<R>> => {
    // On the pool, a query first waits for a connection.
    const result = await acquiring(
      options?.prepare
        ? client.query({ name: nameOf(sql), text: sql, values: params as unknown[] | undefined })
        : client.query(sql, params as unknown[] | undefined),
    );
    return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
  };

  const scope = (client: pg.Pool | pg.PoolClient): Queryable => ({
    query: (sql, params, options) => run(client, sql, params, options),
    async exec(sql) {
      await acquiring(client.query(sql));
    },
  });

  /** BEGIN … COMMIT on one client; a failed ROLLBACK marks the error so the client is not reused. */
  const inTransaction = async <T>(client: pg.PoolClient, fn: (tx: Queryable) => Promise<T>): Promise<T> => {
    await client.query("BEGIN");
    try {
      const result = await fn(scope(client));
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {
        if (error && typeof error === "object") (error as { connectionBroken?: boolean }).connectionBroken = true;
      });
      throw error;
    }
  };

  const db: Database = {
    kind: "postgres",
    ...scope(pool),
    async transaction(fn) {
      const client = await acquiring(pool.connect());
      let broken = false;
      try {
        return await inTransaction(client, fn);
      } catch (error) {
        broken = (error as { connectionBroken?: boolean }).connectionBroken === true;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async connect(): Promise<Connection> {
      const client = await acquiring(pool.connect());
      let lost: ((error: Error) => void) | undefined;
      const onError = (error: Error) => {
        const listener = lost;
        lost = undefined;
        listener?.(error);
      };
      client.on("error", onError);
      return {
        ...scope(client),
        transaction: (fn) => inTransaction(client, fn),
        release(destroy = false) {
          client.off("error", onError);
          lost = undefined;
          client.release(destroy);
        },
        onLost(listener) {
          lost = listener;
        },
      };
    },
    async listen(channel, onNotify) {
      let client: pg.Client | undefined;
      let closed = false;
      let retry: NodeJS.Timeout | undefined;
      const open = async () => {
        const next = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5_000 });
        next.on("notification", (message) => {
          if (message.channel === channel) onNotify(message.payload ?? "");
        });
        next.on("error", () => reopen(next));
        next.on("end", () => reopen(next));
        try {
          await next.connect();
          await next.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
        } catch (error) {
          next.end().catch(() => {});
          throw error;
        }
        if (closed) await next.end();
        else client = next;
      };
      const reopen = (lost: pg.Client) => {
        if (closed || client !== lost) return;
        client = undefined;
        lost.end().catch(() => {});
        const attempt = () => {
          retry = undefined;
          if (!closed) open().catch(() => (retry = setTimeout(attempt, 1_000)));
        };
        retry = setTimeout(attempt, 200);
      };
      await open();
      return async () => {
        closed = true;
        clearTimeout(retry);
        await client?.end().catch(() => {});
      };
    },
    async ping(timeoutMs = 2_000) {
      await withTimeout(pool.query("SELECT 1"), timeoutMs, "PostgreSQL");
    },
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    async close() {
      await pool.end();
    },
  };
  return db;
}
