import pino from "pino";
import { Networks } from "../chain/networks";
import { loadConfigOrExit } from "../config";
import { openMigratedDatabase } from "../db/database";
import { startIndexers } from "./run";

/**
 * The indexer as its own process (`npm run indexer`), for deployments that run it apart from the HTTP service
 * (set INDEXER=false there). Same configuration as the service; SIGTERM/SIGINT stop it after the current step.
 */
async function main() {
  const config = loadConfigOrExit();
  const log = pino({ level: config.logLevel });
  const { db } = await openMigratedDatabase(config.database);
  const networks = new Networks(config.rpcUrls, config.rpcTimeoutMs);
  const running = startIndexers(config, db, networks, log);
  log.info({ networks: networks.configured() }, "indexer started");
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await running.stop();
    networks.close();
    await db.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
