import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { metricsListener, type MetricsListener } from "./listener";
import { Metrics } from "./metrics";

declare module "fastify" {
  interface FastifyInstance {
    /** The service's Prometheus figures; absent when METRICS=false. */
    metrics?: Metrics;
    /** The listener that serves GET /metrics (METRICS_HOST:METRICS_PORT); absent when METRICS=false. */
    metricsServer?: MetricsListener;
  }
}

/** Route label of requests that matched no route: their URLs are the client's choice, so never a label. */
const UNMATCHED = "(unmatched)";
/** Error codes are the service's own; anything else (a future dialect) is folded so labels stay bounded. */
const ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Collects the service's metrics and serves them in Prometheus' text format on a listener of their own, never on
 * the public port: it starts when the service listens and closes with it. Register it before the plugins whose
 * figures it collects (chain, indexer) so they find `app.metrics`.
 */
export default fp(
  async function metricsPlugin(app: FastifyInstance) {
    const settings = app.config.metrics;
    if (!settings.enabled) return;
    const metrics = new Metrics();
    app.decorate("metrics", metrics);
    metrics.databasePool(
      () => (app.hasDecorator("db") ? app.db.kind : undefined),
      () => (app.hasDecorator("db") ? app.db.stats() : undefined),
    );

    app.addHook("onResponse", async (request, reply) => {
      const route = request.routeOptions.url ?? UNMATCHED;
      metrics.httpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    });

    // Login outcomes are read from the answer of POST /api/login: "success", or the refusal's error code.
    app.addHook("onSend", async (request, reply, payload) => {
      if (request.method !== "POST" || request.routeOptions.url !== "/api/login") return payload;
      metrics.login(reply.statusCode === 200 ? "success" : errorCode(payload));
      return payload;
    });

    const server = metricsListener(metrics);
    app.decorate("metricsServer", server);
    // The service may close while the listener opens (a fast shutdown): it then closes right after opening.
    let closing: Promise<void> | undefined;
    app.addHook("onListen", async () => {
      await server.listen({ host: settings.host, port: settings.port });
      if (closing) return void (await server.close());
      app.log.info({ url: server.url(settings.host) }, "metrics listening");
    });
    app.addHook("onClose", async () => {
      await (closing ??= server.close());
    });
  },
  { name: "metrics", dependencies: ["config"] },
);

function errorCode(payload: unknown): string {
  if (typeof payload !== "string") return "other";
  try {
    const code = (JSON.parse(payload) as { error?: unknown }).error;
    return typeof code === "string" && ERROR_CODE.test(code) ? code : "other";
  } catch {
    return "other";
  }
}
