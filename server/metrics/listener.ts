import type { Server } from "node:http";
import Fastify, { type FastifyInstance } from "fastify";
import errors from "../http/errors";
import type { Metrics } from "./metrics";

/**
 * The listener that serves `GET /metrics` in Prometheus' text format, apart from any public port: the service's
 * (opened with it) and the standalone indexer's.
 */
export function metricsListener(metrics: Metrics): FastifyInstance {
  const server = Fastify<Server>({ logger: false });
  // Its refusals (any other path or method) in the service's error shape, not Fastify's.
  void server.register(errors);
  // In a plugin, so that it is added after the errors plugin, which learns each route's methods for its 405s.
  void server.register(async (scope) => {
    scope.get("/metrics", async (_request, reply) => {
      reply.header("cache-control", "no-store").type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  });
  return server;
}

/** The URL a listening metrics listener serves, for the start's log line. */
export function metricsUrl(server: FastifyInstance, host: string): string {
  const port = (server.server.address() as { port: number }).port;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`;
}
