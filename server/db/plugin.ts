import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { openMigratedDatabase, type Database } from "./database";
import { migrate } from "./migrate";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
  }
}

/**
 * Decorates `app.db` and brings the schema up to date before any route runs. A database handed in (tests
 * that share one between two app instances) is left open at close; one opened here is closed with the app.
 * Read replicas are opened by the index reads, their one user (`app.indexReads`, server/indexer/index-reads.ts).
 */
export default fp(
  async function database(app: FastifyInstance, options: { db?: Database }) {
    const { db, applied } = options.db
      ? { db: options.db, applied: await migrate(options.db) }
      : await openMigratedDatabase(app.config.database);
    if (!options.db) app.addHook("onClose", () => db.close());
    if (applied.length > 0) app.log.info({ migrations: applied.map((m) => `${m.version}_${m.name}`) }, "database migrated");
    app.decorate("db", db);
  },
  { name: "db", dependencies: ["config"] },
);
