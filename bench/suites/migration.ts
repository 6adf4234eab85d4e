import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import type { Database } from "../../server/db/database";
import { migrate, readMigrations } from "../../server/db/migrate";
import { openPglite } from "../../server/db/pglite";
import { createTestDatabase } from "../../support/database";
import {
  fillLegacyIndex,
  legacyReads,
  legacySample,
  migrationsBeforeCompact,
  serviceReads,
  type LegacyShape,
} from "../../support/legacy-index";
import type { Row, Suite } from "../lib/suite";

/** ERC-721 transfers moved (three per token), and as many ERC-1155 ones: BENCH_MIGRATION_TRANSFERS, default a million; 3,000 in the smoke. */
const FULL_TRANSFERS = Number(process.env.BENCH_MIGRATION_TRANSFERS ?? 1_000_002);
const SMOKE_TRANSFERS = 3_000;
/** The migrations that move the ERC-721 rows (0260–0263), then the one that moves the ERC-1155 rows (0264). */
const ERC721_MOVE: [number, number] = [260, 264];
const ERC1155_MOVE: [number, number] = [264, 265];

const migration: Suite = {
  method: [
    "An index of the layout before the compact tables (addresses and hashes as hex text) is written by SQL: `BENCH_MIGRATION_TRANSFERS` ERC-721 transfers (three per token, on two networks) with their owners, and as many ERC-1155 transfers (mints) with their balances, the holdings and holder counts.",
    "The migrations to the compact layout then run as a start of the service runs them, in three timed steps: 0260–0263 (the ERC-721 rows, per million ERC-721 transfers), 0264 (the ERC-1155 transfers and balances, per million ERC-1155 transfers), then the rest; on PostgreSQL (DATABASE_URL) and on PGlite in a directory, one after the other.",
    "After each, a sample of every read (histories, inventories, contracts of an owner, holders, counts, owners) is compared with the same read over the old tables: the run fails on any difference.",
  ],
  onlyWhenNamed: true,
  async run({ log, smoke }) {
    const tokens = Math.ceil((smoke ? SMOKE_TRANSFERS : FULL_TRANSFERS) / 3);
    const shape: LegacyShape = {
      tokens,
      contracts: Math.max(1, Math.round(tokens / 3_000)),
      owners: Math.max(1, Math.round(tokens / 10)),
      transfers1155: 3 * tokens,
    };
    const transfers1155 = 3 * tokens + 120;
    const rows: Row[] = [];
    const measure = async (label: string, db: Database) => {
      await migrate(db, migrationsBeforeCompact());
      log(
        `${label}: writing ${(3 * tokens).toLocaleString("en-US")} ERC-721 and ${transfers1155.toLocaleString("en-US")} ERC-1155 transfers in the text layout`,
      );
      await fillLegacyIndex(db, shape);
      const sample = legacySample(shape, 4);
      const before = await legacyReads(db, sample);
      log(`${label}: migrating`);
      /** Seconds the migrations from `from` up to (not with) `to` took, all when no bounds. */
      const timed = async ([from, to]: [number, number] = [0, Infinity]) => {
        const started = performance.now();
        await migrate(
          db,
          readMigrations().filter((m) => m.version >= from && m.version < to),
        );
        return (performance.now() - started) / 1000;
      };
      const erc721 = await timed(ERC721_MOVE);
      const erc1155 = await timed(ERC1155_MOVE);
      const seconds = erc721 + erc1155 + (await timed());
      const after = await serviceReads(db, sample, 100);
      for (const key of Object.keys(before)) expect(after[key], key).to.deep.equal(before[key]);
      log(`${label}: ${seconds.toFixed(1)} s; ${Object.keys(before).length} reads answer as before`);
      rows.push(
        { suite: "migration", metric: `${label}: every migration from the text layout`, value: seconds, unit: "s" },
        {
          suite: "migration",
          metric: `${label}: 0260–0263, per million ERC-721 transfers`,
          value: erc721 / ((3 * tokens) / 1e6),
          unit: "s",
        },
        { suite: "migration", metric: `${label}: 0264, per million ERC-1155 transfers`, value: erc1155 / (transfers1155 / 1e6), unit: "s" },
      );
    };
    if (process.env.DATABASE_URL) {
      const database = await createTestDatabase({ unmigrated: true });
      try {
        await measure("PostgreSQL", await database.open());
      } finally {
        await database.drop();
      }
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-migration-"));
    const db = await openPglite(dir);
    try {
      await measure("PGlite", db);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

export default migration;
