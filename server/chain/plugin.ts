import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { BlockCalls } from "./calls";
import { HeadCache } from "./head";
import { instrumentProvider } from "../metrics/rpc";
import { Networks } from "./networks";
import { providerEvents } from "./provider-events";

declare module "fastify" {
  interface FastifyInstance {
    networks: Networks;
    heads: HeadCache;
    calls: BlockCalls;
  }
}

/**
 * Decorates `app.networks` (the network registry, one provider per configured network) and `app.heads`
 * (the latest block of each, shared by every route that needs it) and `app.calls` (eth_calls cached per block).
 */
export default fp(
  async function chain(app: FastifyInstance) {
    const { metrics } = app;
    const networks = new Networks(app.config.rpcUrls, app.config.rpcTimeoutMs, {
      cooldownMs: app.config.rpcCooldownMs,
      maxAnswerBytes: app.config.rpcMaxAnswerBytes,
      clock: app.clock,
      onProvider: metrics && ((network, provider) => instrumentProvider(metrics, network, provider)),
      events: providerEvents(app.log, metrics),
      probeIntervalMs: app.config.rpcProbeIntervalMs,
    });
    app.decorate("networks", networks);
    app.addHook("onReady", async () => networks.startProbes());
    const heads = new HeadCache(networks, app.config.headCacheMs, app.clock);
    app.decorate("heads", heads);
    app.decorate("calls", new BlockCalls(networks, heads));
    app.addHook("onClose", async () => networks.close());
  },
  { name: "chain", dependencies: ["config"] },
);
