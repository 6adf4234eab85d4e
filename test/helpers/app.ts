import type { FastifyInstance } from "fastify";
import { buildApp } from "../../server/app";
import { loadConfig, type Config, type DatabaseConfig } from "../../server/config";
import type { Database } from "../../server/db/database";
import { createTestDatabase, type TestDatabase } from "./database";

export interface TestApp {
  app: FastifyInstance;
  /** Base URL of the real HTTP server, e.g. http://127.0.0.1:41234 */
  url: string;
  config: Config;
  /** The test database (dropped by close() when this helper created it). */
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment the config is read from (on top of a quiet default); RPC_URL_* go here too. */
  env?: Record<string, string>;
  /** Share a database with another app (two instances); a fresh one is made otherwise. */
  database?: TestDatabase;
  /** Listen on this port instead of a free one (an OIDC issuer URL must name the port before the app starts). */
  port?: number;
  /** Register extra routes or hooks before the app starts (e.g. a route that throws). */
  configure?: (app: FastifyInstance) => void | Promise<void>;
}

/**
 * The whole service on a real HTTP port over a real database: config from an environment (validated like
 * in production), a fresh database unless one is shared, listening on 127.0.0.1 with a free port.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const owned = !options.database;
  const { database: databaseConfig, db } = await database.appOptions();
  const config = testConfig(options.env, databaseConfig);
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp(config, { db });
    await options.configure?.(app);
    await app.listen({ host: "127.0.0.1", port: options.port ?? 0 });
  } catch (error) {
    await app?.close();
    if (owned) await database.drop();
    throw error;
  }
  const { port } = app.server.address() as { port: number };
  const started = app;
  return {
    app: started,
    url: `http://127.0.0.1:${port}`,
    config,
    database,
    async close() {
      await started.close();
      if (owned) await database.drop();
    },
  };
}

/** The config a test app runs with: LOG_LEVEL silent (TEST_LOG_LEVEL to see logs), no embedded chain. */
export function testConfig(env: Record<string, string> = {}, database?: DatabaseConfig): Config {
  // METRICS_PORT 0: a free port per app, so apps alive at once (and other test runs) do not fight over 9464.
  const config = loadConfig({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent", LOCAL_CHAIN: "false", METRICS_PORT: "0", ...env });
  return database ? { ...config, database } : config;
}

export type { Database };
