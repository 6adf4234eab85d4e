import type { Server } from "node:http";
import Fastify, { type FastifyInstance } from "fastify";
import type { Metrics } from "./metrics";

/**
 * The listener that serves `GET /metrics` in Prometheus' text format, apart from any public port: the service's
 * (opened with it) and the standalone indexer's.
 */
export function metricsListener(metrics: Metrics): FastifyInstance {
  const server = Fastify<Server>({ logger: false });
  server.get("/metrics", async (_request, reply) => {
    reply.header("cache-control", "no-store").type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  return server;
}

/** The URL a listening metrics listener serves, for the start's log line. */
export function metricsUrl(server: FastifyInstance, host: string): string {
  const port = (server.server.address() as { port: number }).port;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`;
}
