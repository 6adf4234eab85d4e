import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Networks } from "./networks";

declare module "fastify" {
  interface FastifyInstance {
    networks: Networks;
  }
}

/** Decorates `app.networks`: the network registry with one provider per configured network. */
export default fp(
  async function chain(app: FastifyInstance) {
    const networks = new Networks(app.config.rpcUrls, app.config.rpcTimeoutMs);
    app.decorate("networks", networks);
    app.addHook("onClose", async () => networks.close());
  },
  { name: "chain", dependencies: ["config"] },
);
