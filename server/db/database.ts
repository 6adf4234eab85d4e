import type { DatabaseConfig } from "../config";
import { migrate, readMigrations, type Migration } from "./migrate";

export interface QueryResult<R> {
  rows: R[];
  /** Rows changed by INSERT/UPDATE/DELETE, or rows returned by SELECT. */
  rowCount: number;
}

export interface QueryOptions {
  /**
   * On PostgreSQL, send it as a named prepared statement: each connection parses and plans it once, then only binds
   * and runs it. For the few statements every login or data page runs, whose text is one of a small fixed set (each
   * distinct text is kept prepared on every connection of the pool). PGlite, in process, runs it as any other.
   */
  prepare?: boolean;
}

export interface TransactionOptions {
  /**
   * Its statements get DATABASE_LONG_STATEMENT_TIMEOUT_MS instead of DATABASE_STATEMENT_TIMEOUT_MS: for the few that
   * need it (migrations, the indexer's writes of a range). PGlite, in process, bounds no statement.
   */
  long?: boolean;
}

/** Something SQL can be sent to: the database, a transaction, or one dedicated connection. */
export interface Queryable {
  /**
   * One statement with `$1`-style parameters. Values come back as node-postgres gives them on both backends:
   * int8 and numeric as strings (exact), bytea as Buffer, json/jsonb parsed, timestamps as Date.
   */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<R>>;
  /** Runs several statements separated by semicolons, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Loads rows made by `BinaryRows` (binary-copy.ts) into `columns` of `table` with one binary COPY, the cheapest way
   * in for many rows: nothing to parse. In a transaction it is part of it. Resolves to the number of rows loaded.
   */
  copyBinary(table: string, columns: readonly string[], rows: Buffer): Promise<number>;
}

/** A connection kept for one holder (e.g. to keep a session-level advisory lock and write under it). */
export interface Connection extends Queryable {
  /** Runs `fn` in one transaction on this connection. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Hands the connection back; `destroy` closes it instead (which also drops its session locks). */
  release(destroy?: boolean): void;
  /** Called at most once if the connection fails while held (its session locks are gone with it). */
  onLost(listener: (error: Error) => void): void;
}

/**
 * The one database interface of the service, over PostgreSQL (`pg`) or embedded PGlite. Both run the same SQL:
 * PGlite is PostgreSQL compiled to WebAssembly, not an emulation.
 */
export interface Database extends Queryable {
  readonly kind: "postgres" | "pglite";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** A dedicated connection. On PGlite, which has one session, it is the database itself. */
  connect(): Promise<Connection>;
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel` (sent by any session, delivered at its commit).
   * On PostgreSQL it holds a connection of its own, opened again when lost; notifications sent while it was away
   * are not delivered, so listeners also look for themselves now and then.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Resolves when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  /** Connection use right now (metrics). PGlite has one session: busy or idle, and the queries queued behind it. */
  stats(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

/**
 * Opens the database and brings its schema up to date: how the service, its CLIs and the standalone indexer start.
 * `applied`: the migrations applied now (none when it was up to date). A database that fails to migrate is closed
 * again before the error is thrown.
 */
export async function openMigratedDatabase(
  config: DatabaseConfig,
  migrations: Migration[] = readMigrations(),
): Promise<{ db: Database; applied: Migration[] }> {
  const db = await openDatabase(config);
  try {
    return { db, applied: await migrate(db, migrations) };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === "postgres") {
    const { openPostgres } = await import("./postgres");
    return openPostgres(config.url, config);
  }
  const { openPglite } = await import("./pglite");
  return openPglite(config.dataDir);
}

/** Rejects with a timeout error when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
