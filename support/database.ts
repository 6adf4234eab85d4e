import { randomBytes } from "node:crypto";
import pg from "pg";
import type { DatabaseConfig } from "../server/config";
import { openDatabase, openMigratedDatabase, type Database } from "../server/db/database";
import { migrate, type Migration } from "../server/db/migrate";
import { openPglite } from "../server/db/pglite";

/**
 * A fresh database for one suite: a new database on the PostgreSQL server of DATABASE_URL when it is set (CI), else
 * an in-memory PGlite. The app migrates it as it starts; on PGlite it starts migrated already (from one dump per test
 * process) unless `unmigrated` asks for an empty one, for tests of migrations themselves. Apps that must share it (two instances on one database) take
 * `appOptions()`: on PostgreSQL each opens its own pool on the same database, on PGlite they share the
 * one in-process instance.
 */
export interface TestDatabase {
  kind: "postgres" | "pglite";
  config: DatabaseConfig;
  /** What to give `startTestApp` so the app uses this database. */
  appOptions(): Promise<{ database: DatabaseConfig; db?: Database }>;
  /** A connection of the test's own, to look at or change the data behind the app's back. */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export const usingPostgres = () => Boolean(process.env.DATABASE_URL);

/**
 * The statement bound of work that fills a database before a service starts (a benchmark's data: tens of millions of
 * rows, their compaction and index builds, single statements of minutes): not requests, so the service's own bound
 * (DATABASE_STATEMENT_TIMEOUT_MS, seconds) would cancel them.
 */
const FILL_STATEMENT_TIMEOUT_MS = 6 * 3_600_000;

/** The database of `config`, migrated, its statements under the fill's bound on PostgreSQL (PGlite has none). */
export function openMigratedForFill(config: DatabaseConfig, migrations: Migration[]): Promise<{ db: Database; applied: Migration[] }> {
  return openMigratedDatabase(
    config.kind === "postgres"
      ? { ...config, statementTimeoutMs: FILL_STATEMENT_TIMEOUT_MS, longStatementTimeoutMs: FILL_STATEMENT_TIMEOUT_MS }
      : config,
    migrations,
  );
}

/** The database tests and benchmarks run on, by name: PostgreSQL with DATABASE_URL, else PGlite. */
export const backendName = usingPostgres() ? "PostgreSQL" : "PGlite";

let template: Promise<Blob> | undefined;

/**
 * An empty PGlite database with every migration applied, as a dump, made once per test process. A database started
 * from it skips initdb and the migrations: a fraction of a second instead of seconds, for each of the suite's many
 * fresh databases.
 */
export function migratedPgliteDump(): Promise<Blob> {
  return (template ??= (async () => {
    const db = await openPglite(null);
    try {
      await migrate(db);
      return await db.dump();
    } finally {
      await db.close();
    }
  })());
}

/** A fresh PGlite database, migrated: in memory (`dataDir` null) or in a directory that processes open in turn. */
export async function openFreshPglite(dataDir: string | null): Promise<Database> {
  return openPglite(dataDir, { loadDataDir: await migratedPgliteDump() });
}

/** The PostgreSQL databases this process made (createTestDatabase) and has not dropped, with what drops each. */
const undropped = new Map<string, () => Promise<void>>();

export async function createTestDatabase(options: { unmigrated?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    let shared: Promise<Database> | undefined;
    const config: DatabaseConfig = { kind: "pglite", dataDir: null };
    const open = () => (shared ??= options.unmigrated ? openPglite(null) : openFreshPglite(null));
    return {
      kind: "pglite",
      config,
      appOptions: async () => ({ database: config, db: await open() }),
      open,
      drop: async () => (shared ? (await shared).close() : undefined),
    };
  }

  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const remove = async () => {
    await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    undropped.delete(name);
  };
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  undropped.set(name, remove);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return postgresTestDatabase(url.toString(), remove);
}

/**
 * Drops the databases this process made and left (a test file that makes one drops it, test/hooks/databases.ts)
 * and returns their names.
 */
export async function dropLeftTestDatabases(): Promise<string[]> {
  const left = [...undropped];
  for (const [, remove] of left) await remove();
  return left.map(([name]) => name);
}

/**
 * A fresh database for one suite with a connection of the test's own to it, migrated: the set-up of every test that
 * reads and writes the tables directly rather than through an app.
 */
export async function openMigratedTestDatabase(): Promise<{ database: TestDatabase; db: Database }> {
  const database = await createTestDatabase();
  const db = await database.open();
  await migrate(db);
  return { database, db };
}

/** The PostgreSQL database at `url` as a {@link TestDatabase}: `drop` closes what `open` opened, then calls `remove`. */
export function postgresTestDatabase(url: string, remove: () => Promise<void>): TestDatabase {
  const config: DatabaseConfig = { kind: "postgres", url };
  const opened: Database[] = [];
  return {
    kind: "postgres",
    config,
    appOptions: async () => ({ database: config }),
    async open() {
      const db = await openDatabase(config);
      opened.push(db);
      return db;
    },
    async drop() {
      await Promise.all(opened.splice(0).map((db) => db.close().catch(() => {})));
      await remove();
    },
  };
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
