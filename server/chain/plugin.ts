import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { HeadCache } from "./head";
import { Networks } from "./networks";

declare module "fastify" {
  interface FastifyInstance {
    networks: Networks;
    heads: HeadCache;
  }
}

/**
 * Decorates `app.networks` (the network registry, one provider per configured network) and `app.heads`
 * (the latest block of each, shared by every route that needs it).
 */
export default fp(
  async function chain(app: FastifyInstance) {
    const networks = new Networks(app.config.rpcUrls, app.config.rpcTimeoutMs);
    app.decorate("networks", networks);
    app.decorate("heads", new HeadCache(networks, app.config.headCacheMs));
    app.addHook("onClose", async () => networks.close());
  },
  { name: "chain", dependencies: ["config"] },
);
