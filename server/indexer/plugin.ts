import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { startIndexers } from "./start-indexers";

/**
 * Runs the ERC-721 indexer inside the service when INDEXER is on (the default): it starts once the app is ready
 * and stops before the database closes. With several instances, one writes per network and the others wait.
 */
export default fp(
  async function indexer(app: FastifyInstance) {
    if (!app.config.indexer.enabled) return;
    let running: ReturnType<typeof startIndexers> | undefined;
    app.addHook("onReady", async () => {
      running = startIndexers({ config: app.config, db: app.db, networks: app.networks, log: app.log, metrics: app.metrics?.indexer });
    });
    app.addHook("preClose", async () => {
      await running?.stop();
    });
  },
  { name: "indexer", dependencies: ["db", "chain"] },
);
