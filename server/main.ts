import type { FastifyInstance } from "fastify";
import { buildApp, type AppOptions } from "./app";
import { loadConfig, type Config } from "./config";
import { DatabaseInUse } from "./db/errors";

/** The service as a process: it serves until a signal, then shuts down in order. */
export interface ServiceProcess {
  /** True once a signal asked the process to stop. */
  readonly stopping: boolean;
  /** Something to stop once the app has closed (what the caller started for it, e.g. the local chain). */
  onShutdown(stop: () => Promise<void>): void;
  /** Builds the app from `config` (and `options.app`) and listens; `options.beforeListen` runs on the built app first. */
  serve(config: Config, options?: ServeOptions): Promise<FastifyInstance>;
}

export interface ServeOptions {
  beforeListen?: (app: FastifyInstance) => Promise<void>;
  app?: AppOptions;
}

/**
 * Takes over SIGINT/SIGTERM for the service (`npm start` runs it from local/start.ts): a signal stops accepting,
 * finishes the requests in flight, closes the database, then stops what was added with `onShutdown`; past
 * SHUTDOWN_TIMEOUT_MS, or on a second signal, the process exits at once.
 */
export function serviceProcess({ shutdownTimeoutMs }: Pick<Config, "shutdownTimeoutMs">): ServiceProcess {
  let app: FastifyInstance | undefined;
  let stopping = false;
  const afterClose: Array<() => Promise<void>> = [];
  const stop = async (signal: string) => {
    if (stopping) {
      console.error(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    app?.log.info({ signal }, "shutting down");
    const deadline = shutdownTimeoutMs;
    setTimeout(() => {
      console.error(`shutdown took longer than ${deadline} ms: exiting`);
      process.exit(1);
    }, deadline).unref();
    try {
      await app?.close();
      for (const stopOne of afterClose) await stopOne();
      process.exit(0);
    } catch (error) {
      console.error("shutdown failed:", error);
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  return {
    get stopping() {
      return stopping;
    },
    onShutdown(stopOne) {
      afterClose.push(stopOne);
    },
    async serve(config, options = {}) {
      app = await buildApp(config, options.app);
      await options.beforeListen?.(app);
      await app.listen({ host: config.host, port: config.port });
      return app;
    },
  };
}

/**
 * The service alone, as production runs it from the build (`npm run start:prod`: `node --max-semi-space-size=64
 * dist/server/main.js`, the node options of `npm start`). The local chain is Hardhat's, which a production install
 * does not have: that setup is `npm start`'s.
 */
if (require.main === module) {
  const config = loadConfig(process.env, { exitOnError: true });
  if (config.localChain) {
    console.error(
      "Configuration error: LOCAL_CHAIN runs a Hardhat node, which only `npm start` (the local setup) has; set RPC_URL_<NETWORK> or LOCAL_CHAIN=false",
    );
    process.exit(1);
  }
  serviceProcess(config)
    .serve(config)
    .catch((error) => {
      // A database in use is not a fault of ours: its message says what holds it and what to do, in one line.
      console.error(error instanceof DatabaseInUse ? error.message : error);
      process.exit(1);
    });
}
