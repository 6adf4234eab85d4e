import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { copyStatement } from "./binary-copy";
import { settingDefaults } from "../config";
import { sendCancelRequest } from "./cancel-request";
import { isStartupParameterRefused, statementAbandoned, translated, translatedError } from "./errors";
import {
  withTimeout,
  type Connection,
  type Database,
  type Queryable,
  type QueryOptions,
  type QueryResult,
  type TransactionOptions,
} from "./database";

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
  /** DATABASE_STATEMENT_TIMEOUT_MS: the longest a statement may run. */
  statementTimeoutMs?: number;
  /** DATABASE_LONG_STATEMENT_TIMEOUT_MS: the same, in a transaction opened with `{ long: true }`. */
  longStatementTimeoutMs?: number;
}

/**
 * How long after its bound the service waits for PostgreSQL to cancel a statement before it gives up on it itself:
 * enough for the server's own cancel to arrive first whenever the server runs.
 */
export const GIVE_UP_GRACE_MS = 1_000;

/** How often the watchdog looks at the statements in flight: it gives up on one at most this much past its grace. */
const WATCH_TICK_MS = 250;

/** A connection's statement in flight, as the watchdog sees it (one record per connection, reused by its statements). */
interface Watch {
  client: pg.ClientBase;
  /** The connection's statements so far: tells the one the watchdog gave up on from those after it. */
  statement: number;
  /** The watchdog's tick when the statement began. */
  since: number;
  boundMs: number;
  abandon: (error: Error) => void;
  /** A cancel request is on its way for this statement. */
  givingUp: boolean;
  /** The error of the statement given up on. */
  abandoned: Error | undefined;
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
  const statementTimeoutMs = options.statementTimeoutMs ?? defaults.statementTimeoutMs;
  const longStatementTimeoutMs = options.longStatementTimeoutMs ?? defaults.longStatementTimeoutMs;
  // PostgreSQL's own bound, a parameter of the connection's startup packet: no statement sent on it can skip it, and
  // it costs no round trip. A pooler (PgBouncer) refuses startup parameters it does not track: the URLs where it was
  // refused open their connections without it from then on, and the service's own bound (`bounded`) holds there.
  const refusedAt = new Set<string>();
  const serverBound = (at: string) => (refusedAt.has(at) ? {} : { statement_timeout: statementTimeoutMs });
  /** `open()` a connection to `at`, once more without the bound if a pooler refused it. */
  const openBounded = async <T>(at: string, open: () => Promise<T>, forget: () => void = () => {}): Promise<T> => {
    try {
      return await open();
    } catch (error) {
      if (refusedAt.has(at) || !isStartupParameterRefused(error)) throw error;
      refusedAt.add(at);
      forget();
      return open();
    }
  };
  /** A pool's next connections go without the bound (pg-pool hands its options to each new client). */
  const unbound = (target: pg.Pool) => () => {
    delete (target.options as { statement_timeout?: number }).statement_timeout;
  };
  const pool = new pg.Pool({
    connectionString: url,
    application_name: APPLICATION_NAME,
    max: poolSize,
    connectionTimeoutMillis: acquireTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    ...serverBound(url),
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
        ...serverBound(sessionUrl),
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

  // The service's own bound, for a statement PostgreSQL did not cancel (a stalled server, a pooler that does not carry
  // the bound): one sweep of the statements in flight every WATCH_TICK_MS, rather than a timer, a promise and a race per
  // statement; a statement costs an entry in a set and a count of ticks read.
  const inFlight = new Set<Watch>();
  const watches = new WeakMap<pg.ClientBase, Watch>();
  let ticks = 0;
  const watchdog = setInterval(() => {
    ticks++;
    for (const watch of inFlight) {
      // Ticks since the statement began, less the one it began in: at least this many whole ticks have passed.
      if (watch.givingUp || (ticks - watch.since - 1) * WATCH_TICK_MS < watch.boundMs + GIVE_UP_GRACE_MS) continue;
      watch.givingUp = true;
      const statement = watch.statement;
      void sendCancelRequest(watch.client).then(() => {
        // Cancelled by the server meanwhile (the statement ended): the connection is sound and may already serve another.
        if (!inFlight.has(watch) || watch.statement !== statement) return;
        const error = statementAbandoned(watch.boundMs);
        watch.abandoned = error;
        watch.abandon(error);
      });
    }
  }, WATCH_TICK_MS);
  watchdog.unref();

  /**
   * `work`, a statement sent on `client`, within `boundMs`: PostgreSQL cancels it at the bound where the connection
   * carries it; if no answer came `GIVE_UP_GRACE_MS` later, the watchdog asks PostgreSQL to cancel it (waiting at most
   * CANCEL_TIMEOUT_MS for the request to be taken), then gives up on the connection (`abandon`, which closes it and so
   * ends `work`) and the statement fails with database_busy.
   */
  const bounded = async <T>(
    client: pg.ClientBase,
    work: () => Promise<T>,
    boundMs: number,
    abandon: (error: Error) => void,
  ): Promise<T> => {
    let watch = watches.get(client);
    if (!watch) watches.set(client, (watch = { client, statement: 0, since: 0, boundMs, abandon, givingUp: false, abandoned: undefined }));
    const statement = ++watch.statement;
    watch.since = ticks;
    watch.boundMs = boundMs;
    watch.abandon = abandon;
    watch.givingUp = false;
    inFlight.add(watch);
    try {
      return await work();
    } catch (error) {
      // Once given up on, whatever the closed connection made of its statements is said as database_busy.
      throw watch.abandoned ?? translatedError(error);
    } finally {
      if (watch.statement === statement) inFlight.delete(watch);
    }
  };

  const send = <R>(client: pg.ClientBase, sql: string, params?: readonly unknown[], options?: QueryOptions) =>
    options?.prepare && preparedStatements
      ? client.query<R & pg.QueryResultRow>({ name: nameOf(sql), text: sql, values: params as unknown[] | undefined })
      : client.query<R & pg.QueryResultRow>(sql, params as unknown[] | undefined);

  /** A connection's end when the service gave up on a statement it was running: its socket goes, and the session with it. */
  const endConnection = (client: pg.ClientBase) => () => {
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  };

  /** One statement on a connection of the pool, taken for it and handed back (closed if it was given up on). */
  const onPool = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    // Waiting for a connection is bounded by the pool's acquire timeout (database_busy).
    const client = await translated(openBounded(url, () => pool.connect(), unbound(pool)));
    let broken = false;
    const onError = () => {
      broken = true;
    };
    client.on("error", onError);
    try {
      return await work(client);
    } catch (error) {
      broken ||= (error as { connectionBroken?: boolean }).connectionBroken === true;
      throw error;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  };

  const toResult = <R>(result: pg.QueryResult): QueryResult<R> => ({
    rows: result.rows as R[],
    rowCount: result.rowCount ?? result.rows.length,
  });

  /** Statements on one client (a transaction's, a dedicated connection's), each within `boundMs`. */
  const scope = (client: pg.ClientBase, boundMs: number, abandon: (error: Error) => void): Queryable => ({
    query: async (sql, params, options) => toResult(await bounded(client, () => send(client, sql, params, options), boundMs, abandon)),
    async exec(sql) {
      await bounded(client, () => client.query(sql), boundMs, abandon);
    },
    async copyBinary(table, columns, rows) {
      const stream = client.query(copyFrom(copyStatement(table, columns, "STDIN")));
      // 'finish' comes once the server has confirmed the COPY (pg-copy-streams waits for it before finishing).
      await bounded(
        client,
        () =>
          new Promise<void>((resolve, reject) => {
            stream.on("finish", resolve);
            stream.on("error", reject);
            stream.end(rows);
          }),
        boundMs,
        abandon,
      );
      return stream.rowCount;
    },
  });

  /** Statements on the pool: each on a connection taken for it. */
  const pooled: Queryable = {
    query: (sql, params, options) =>
      onPool(async (client) =>
        toResult(await bounded(client, () => send(client, sql, params, options), statementTimeoutMs, endConnection(client))),
      ),
    exec: (sql) => onPool((client) => scope(client, statementTimeoutMs, endConnection(client)).exec(sql)),
    // COPY needs a connection of its own for the time of the statement: a transaction's, which also keeps watch for
    // the server closing it.
    copyBinary: (table, columns, rows) => db.transaction((tx) => tx.copyBinary(table, columns, rows)),
  };

  /**
   * BEGIN … COMMIT on one client, its statements within the transaction's bound (the long one for `{ long: true }`,
   * set for the transaction alone with SET LOCAL, which a pooler in transaction mode carries). A failed ROLLBACK, or a
   * statement given up on, marks the error so the client is not reused; no ROLLBACK is sent on a connection given up
   * on (it would wait behind the stalled statement): closing it rolls the transaction back.
   */
  const inTransaction = async <T>(
    client: pg.ClientBase,
    fn: (tx: Queryable) => Promise<T>,
    options: TransactionOptions | undefined,
    abandon: (error: Error) => void,
  ): Promise<T> => {
    const boundMs = options?.long ? longStatementTimeoutMs : statementTimeoutMs;
    const tx = scope(client, boundMs, abandon);
    await tx.exec(options?.long ? `BEGIN; SET LOCAL statement_timeout = ${longStatementTimeoutMs}` : "BEGIN");
    try {
      const result = await fn(tx);
      await tx.exec("COMMIT");
      return result;
    } catch (error) {
      if ((error as { connectionBroken?: boolean }).connectionBroken !== true)
        await client.query("ROLLBACK").catch(() => {
          if (error && typeof error === "object") (error as { connectionBroken?: boolean }).connectionBroken = true;
        });
      throw error;
    }
  };

  const db: Database = {
    kind: "postgres",
    ...pooled,
    // A client taken from the pool has no 'error' listener of the pool's: the server closing its connection (a
    // restart) would be an uncaught exception that ends the process; `onPool` listens while it is held.
    transaction: (fn, options) => onPool((client) => inTransaction(client, fn, options, endConnection(client))),
    async connect(): Promise<Connection> {
      const target = sessions();
      const client = await translated(openBounded(sessionUrl, () => target.connect(), unbound(target)));
      let lost: ((error: Error) => void) | undefined;
      const onError = (error: Error) => {
        const listener = lost;
        lost = undefined;
        listener?.(error);
      };
      client.on("error", onError);
      // Giving up on a statement ends the connection, and with it the session's locks: its holder hears of it as of
      // any other loss.
      const abandon = (error: Error) => {
        endConnection(client)();
        onError(error);
      };
      return {
        ...scope(client, statementTimeoutMs, abandon),
        transaction: (fn, options) => inTransaction(client, fn, options, abandon),
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
          ...serverBound(sessionUrl),
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
          if (!closed) openBounded(sessionUrl, open).catch(() => (retry = setTimeout(attempt, 1_000)));
        };
        retry = setTimeout(attempt, 200);
      };
      await openBounded(sessionUrl, open);
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
      clearInterval(watchdog);
      await Promise.all([pool.end(), sessionPool?.end()]);
    },
  };
  return db;
}
