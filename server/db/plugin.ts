import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { openMigratedDatabase, type Database } from "./database";
import { migrate } from "./migrate";
import { openReadReplicas, primaryOnly, type ReadReplicas } from "./replicas";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    /** Where reads that may be a little behind go (DATABASE_READ_URLS); the primary alone when none is configured. */
    reads: ReadReplicas;
  }
}

/**
 * Decorates `app.db` and brings the schema up to date before any route runs. A database handed in (tests
 * that share one between two app instances) is left open at close; one opened here is closed with the app.
 * Read replicas, when configured, are opened here too and closed with the app.
 */
export default fp(
  async function database(app: FastifyInstance, options: { db?: Database }) {
    const { db, applied } = options.db
      ? { db: options.db, applied: await migrate(options.db) }
      : await openMigratedDatabase(app.config.database);
    if (!options.db) app.addHook("onClose", () => db.close());
    if (applied.length > 0) app.log.info({ migrations: applied.map((m) => `${m.version}_${m.name}`) }, "database migrated");
    app.decorate("db", db);

    const config = app.config.database;
    const replicas = config.kind === "postgres" ? config.replicas : undefined;
    const reads = replicas
      ? await openReadReplicas(db, replicas, {
          poolSize: config.kind === "postgres" ? config.poolSize : undefined,
          preparedStatements: config.kind === "postgres" ? config.preparedStatements : undefined,
          clock: app.clock,
          events: {
            skipped(replica, reason, detail, again) {
              app.metrics?.replicaSkipped(replica, reason);
              if (!again)
                app.log.warn({ replica, reason, detail, retryMs: replicas.retryMs }, "read replica skipped: its reads go to the primary");
            },
            served: (target) => app.metrics?.replicaRead(target),
            back: (replica) => app.log.info({ replica }, "read replica serves again"),
          },
        })
      : primaryOnly(db);
    app.addHook("onClose", () => reads.close());
    if (replicas) app.log.info({ replicas: replicas.urls.length }, "read replicas configured");
    app.decorate("reads", reads);
  },
  { name: "db", dependencies: ["config"] },
);
