import pino from "pino";
import { Networks } from "../chain/networks";
import { providerEvents } from "../chain/provider-events";
import { loadConfig } from "../config";
import { openMigratedDatabase } from "../db/database";
import { DatabaseInUse } from "../db/errors";
import { metricsListener, metricsUrl } from "../metrics/listener";
import { Metrics } from "../metrics/metrics";
import { instrumentProvider } from "../metrics/rpc";
import { startIndexers } from "./start-indexers";

/**
 * The indexer as its own process (`npm run indexer`), for deployments that run it apart from the HTTP service
 * (set INDEXER=false there). Same configuration as the service; SIGTERM/SIGINT stop it after the current step.
 * It serves its metrics (the indexer's, its RPC calls, its pool) on the metrics listener as the service does; a
 * port that cannot be opened is logged and indexing goes on.
 */
async function main() {
  const config = loadConfig(process.env, { exitOnError: true });
  const log = pino({ level: config.logLevel });
  const { db } = await openMigratedDatabase(config.database);
  const metrics = config.metrics.enabled ? new Metrics() : undefined;
  const networks = new Networks(config.rpcUrls, config.rpcTimeoutMs, {
    cooldownMs: config.rpcCooldownMs,
    maxAnswerBytes: config.rpcMaxAnswerBytes,
    onProvider: metrics && ((network, provider) => instrumentProvider(metrics, network, provider)),
    events: providerEvents(log, metrics),
  });
  const listener = metrics && metricsListener(metrics);
  if (metrics && listener) {
    metrics.databasePool(
      () => db.kind,
      () => db.stats(),
    );
    const { host, port } = config.metrics;
    await listener.listen({ host, port }).then(
      () => log.info({ url: metricsUrl(listener, host) }, "metrics listening"),
      (error: unknown) => log.error({ err: error }, "metrics: the listener did not open; indexing without it"),
    );
  }
  const running = startIndexers({ config, db, networks, log, metrics: metrics?.indexer });
  log.info({ networks: networks.configured() }, "indexer started");
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await running.stop();
    await listener?.close();
    networks.close();
    await db.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((error) => {
  // A database in use is not a fault of ours: its message says what holds it and what to do, in one line.
  console.error(error instanceof DatabaseInUse ? error.message : error);
  process.exit(1);
});
