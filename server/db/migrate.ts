import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "./database";

export const MIGRATIONS_DIR = path.join(__dirname, "migrations");

/** Arbitrary constant: the advisory lock key that serializes migrations of instances starting at once. */
const MIGRATION_LOCK = 7_301_955_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Of the SQL without its comment lines: rewording a comment is not a change to the schema. */
  checksum: string;
  /** Of the whole text, as checksums were recorded before comment lines stopped counting. */
  wholeTextChecksum: string;
}

/**
 * Whole-text checksums of migrations whose comment lines were reworded after databases recorded them (before comment
 * lines stopped counting). A database holding one of these is up to date: its record is rewritten to the new checksum.
 */
const REWORDED: Record<number, string> = {
  100: "62dda46101287079c7b7e388e5e9ce3f0de26deff4042b49d46cf85023975d54",
  200: "48f3f6ef06d1bdeae1e7ac8d674a4971fb01151871e820acec70f716ae676cf6",
  300: "863ee80cf1fc4a68c91d89455382f3e666df7dbe5cd12add69ed82470c0f1a35",
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The SQL a migration runs, for its checksum: every line that is only a comment is left out. */
const withoutCommentLines = (sql: string) =>
  sql
    .split("\n")
    .filter((line) => !/^\s*--/.test(line))
    .join("\n");

/**
 * Migrations are `NNNN_name.sql` files applied in version order. Version ranges keep features apart:
 * 0001–0099 core, 0100–0199 login, 0200–0299 data and indexer, 0300–0399 metadata, 0500–0599 webhooks.
 */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const migrations = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .map((file) => {
      const match = /^(\d+)_([\w-]+)\.sql$/.exec(file);
      if (!match) throw new Error(`migration file name must be NNNN_name.sql: ${file}`);
      const sql = fs.readFileSync(path.join(dir, file), "utf8");
      return { version: Number(match[1]), name: match[2], sql, checksum: sha256(withoutCommentLines(sql)), wholeTextChecksum: sha256(sql) };
    })
    .sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i].version === migrations[i - 1].version) throw new Error(`two migrations have version ${migrations[i].version}`);
  }
  return migrations;
}

/**
 * Applies the migrations not applied yet, all in one transaction under an advisory lock: instances starting
 * together wait for each other, and a failing migration leaves the database as it was. Its statements have the long
 * bound (DATABASE_LONG_STATEMENT_TIMEOUT_MS): an index built on a large table takes minutes. A migration whose SQL changed
 * after it was applied stops the start (fix forward with a new migration instead); its comment lines may be reworded.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<Migration[]> {
  return db.transaction(
    async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
      const { rows } = await tx.query<{ version: number; name: string; checksum: string }>(
        "SELECT version, name, checksum FROM schema_migrations",
      );
      const applied = new Map(rows.map((row) => [row.version, row]));
      const pending: Migration[] = [];
      for (const migration of migrations) {
        const done = applied.get(migration.version);
        if (!done) {
          pending.push(migration);
        } else if (done.checksum !== migration.checksum) {
          if (done.checksum !== migration.wholeTextChecksum && done.checksum !== REWORDED[migration.version]) {
            throw new Error(`migration ${migration.version}_${migration.name} was changed after it was applied`);
          }
          await tx.query("UPDATE schema_migrations SET checksum = $2 WHERE version = $1", [migration.version, migration.checksum]);
        }
      }
      for (const migration of pending) {
        await tx.exec(migration.sql);
        await tx.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [
          migration.version,
          migration.name,
          migration.checksum,
        ]);
      }
      return pending;
    },
    { long: true },
  );
}
