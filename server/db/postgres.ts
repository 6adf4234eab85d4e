import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { copyStatement } from "./binary-copy";
import { settingDefaults } from "../config";
import { translated } from "./errors";
import { withTimeout, type Connection, type Database, type Queryable, type QueryOptions, type QueryResult } from "./database";

export interface PostgresOptions {
  /** DATABASE_POOL_SIZE as loadConfig read it; a config the tests make without one gets its default. */
  poolSize?: number;
  /**
   * DATABASE_SESSION_URL: where the connections that need a session of their own go (a dedicated connection that
   * holds a session-level advisory lock, LISTEN). Through PgBouncer in transaction mode a session is not kept from
   * one transaction to the next, so these must reach PostgreSQL itself. Default: `url`.
   */
  sessionUrl?: string;
  /** DATABASE_PREPARED_STATEMENTS: false sends every statement unnamed, which any pooler carries. */
  preparedStatements?: boolean;
  /** DATABASE_ACQUIRE_TIMEOUT_MS: how long a query waits for a free connection of the pool. */
  acquireTimeoutMs?: number;
}

/** How the service's connections show in `pg_stat_activity`: pooled ones, and the sessions of their own. */
export const APPLICATION_NAME = "wallet-login-nft-service";
export const SESSION_APPLICATION_NAME = `${APPLICATION_NAME} session`;

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  const defaults = settingDefaults().database;
  const poolSize = options.poolSize ?? defaults.poolSize;
  const sessionUrl = options.sessionUrl ?? url;
  const preparedStatements = options.preparedStatements ?? defaults.preparedStatements;
  const acquireTimeoutMs = options.acquireTimeoutMs ?? defaults.acquireTimeoutMs;
  const pool = new pg.Pool({
    connectionString: url,
    application_name: APPLICATION_NAME,
    max: poolSize,
    connectionTimeoutMillis: acquireTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  // An idle client that loses its server (restart, network cut) is dropped by the pool; without a listener
  // the 'error' event would crash the process.
  pool.on("error", () => {});
  // Dedicated connections come from a pool of their own only when they must bypass a transaction-mode pooler.
  let sessionPool: pg.Pool | undefined;
  const sessions = () => {
    if (sessionUrl === url) return pool;
    if (!sessionPool) {
      sessionPool = new pg.Pool({
        connectionString: sessionUrl,
        application_name: SESSION_APPLICATION_NAME,
        max: poolSize,
        connectionTimeoutMillis: acquireTimeoutMs,
        keepAlive: true,
      });
      sessionPool.on("error", () => {});
    }
    return sessionPool;
  };

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
    const result = await translated(
      options?.prepare && preparedStatements
        ? client.query({ name: nameOf(sql), text: sql, values: params as unknown[] | undefined })
        : client.query(sql, params as unknown[] | undefined),
    );
    return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
  };

  const scope = (client: pg.Pool | pg.PoolClient): Queryable => ({
    query: (sql, params, options) => run(client, sql, params, options),
    async exec(sql) {
      await translated(client.query(sql));
    },
    async copyBinary(table, columns, rows) {
      // On the pool, COPY needs a connection of its own for the time of the statement: a transaction's, which also
      // keeps watch for the server closing it.
      if (client instanceof pg.Pool) return db.transaction((tx) => tx.copyBinary(table, columns, rows));
      const stream = client.query(copyFrom(copyStatement(table, columns, "STDIN")));
      // 'finish' comes once the server has confirmed the COPY (pg-copy-streams waits for it before finishing).
      await translated(
        new Promise<void>((resolve, reject) => {
          stream.on("finish", resolve);
          stream.on("error", reject);
          stream.end(rows);
        }),
      );
      return stream.rowCount;
    },
  });

  /** BEGIN … COMMIT on one client; a failed ROLLBACK marks the error so the client is not reused. */
  const inTransaction = async <T>(client: pg.PoolClient, fn: (tx: Queryable) => Promise<T>): Promise<T> => {
    await translated(client.query("BEGIN"));
    try {
      const result = await fn(scope(client));
      await translated(client.query("COMMIT"));
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
      const client = await translated(pool.connect());
      let broken = false;
      // A client taken from the pool has no 'error' listener of the pool's: the server closing its connection
      // (a restart) would be an uncaught exception that ends the process. The query in flight fails on its own.
      const onError = () => {
        broken = true;
      };
      client.on("error", onError);
      try {
        return await inTransaction(client, fn);
      } catch (error) {
        broken ||= (error as { connectionBroken?: boolean }).connectionBroken === true;
        throw error;
      } finally {
        client.off("error", onError);
        client.release(broken);
      }
    },
    async connect(): Promise<Connection> {
      const client = await translated(sessions().connect());
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
        const next = new pg.Client({
          connectionString: sessionUrl,
          application_name: SESSION_APPLICATION_NAME,
          keepAlive: true,
          connectionTimeoutMillis: 5_000,
        });
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
      await Promise.all([pool.end(), sessionPool?.end()]);
    },
  };
  return db;
}
