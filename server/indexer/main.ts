// First: every module loaded after it is compiled once and then read from the cache.
import "../lib/compile-cache";
import pino from "pino";
import { Networks } from "../chain/networks";
import { providerEvents } from "../chain/provider-events";
import { loadConfig } from "../config";
import { openMigratedDatabase } from "../db/database";
import { DatabaseInUse } from "../db/errors";
import { metricsListener, type MetricsListener } from "../metrics/listener";
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
  // Since the process started (performance's time origin): Node's own start and the loading of the modules.
  const modulesMs = performance.now();
  const config = loadConfig(process.env, { exitOnError: true });
  const log = pino({ level: config.logLevel });
  const configMs = performance.now();
  const { db } = await openMigratedDatabase(config.database);
  const databaseMs = performance.now();
  const metrics = config.metrics.enabled ? new Metrics() : undefined;
  const networks = new Networks(config.rpcUrls, config.rpcTimeoutMs, {
    cooldownMs: config.rpcCooldownMs,
    maxAnswerBytes: config.rpcMaxAnswerBytes,
    onProvider: metrics && ((network, provider) => instrumentProvider(metrics, network, provider)),
    events: providerEvents(log, metrics),
  });
  const running = startIndexers({ config, db, networks, log, metrics: metrics?.indexer });
  // The start-up's parts, which `npm run bench -- indexer` reads to time the start to the first write.
  const startupMs = { modules: modulesMs, config: configMs - modulesMs, database: databaseMs - configMs };
  log.info({ networks: networks.configured(), startupMs }, "indexer started");
  // The metrics listener is opened once the indexers are on their way: it is not on the path to the first write, and
  // the metrics it serves are collected from the start.
  let listener: MetricsListener | undefined;
  if (metrics) {
    const server = metricsListener(metrics);
    listener = server;
    metrics.databasePool(
      () => db.kind,
      () => db.stats(),
    );
    const { host, port } = config.metrics;
    await server.listen({ host, port }).then(
      () => log.info({ url: server.url(host) }, "metrics listening"),
      (error: unknown) => log.error({ err: error }, "metrics: the listener did not open; indexing without it"),
    );
  }
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
