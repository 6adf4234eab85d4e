import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Metrics } from "./metrics";

/** The one path the listener serves, and the methods it takes there. */
const PATH = "/metrics";
const METHODS = ["GET", "HEAD"];

/** The metrics listener: its HTTP server, opened and closed with the process that collects the figures. */
export interface MetricsListener {
  readonly server: Server;
  listen(options: { host: string; port: number }): Promise<void>;
  close(): Promise<void>;
  /** The URL it serves once listening, with the host it was opened on (`host`), for the start's log line. */
  url(host: string): string;
}

/**
 * The listener that serves `GET /metrics` in Prometheus' text format, apart from any public port: the service's
 * (opened with it) and the standalone indexer's. On Node's own HTTP server, not Fastify: one route needs no router,
 * schemas or hooks, and the standalone indexer would load Fastify for it alone, on its way to its first write. Its
 * refusals (any other path or method) are in the service's error shape.
 */
export function metricsListener(metrics: Metrics): MetricsListener {
  const server = createServer((request, response) => void answer(metrics, request, response));
  return {
    server,
    listen: ({ host, port }) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen({ host, port }, () => {
          server.off("error", reject);
          resolve();
        });
      }),
    close: () =>
      new Promise((resolve) => {
        // Scrapers keep their connections open: they are closed with it, not waited for.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    url: (host) => {
      const port = (server.address() as { port: number }).port;
      return `http://${host.includes(":") ? `[${host}]` : host}:${port}${PATH}`;
    },
  };
}

async function answer(metrics: Metrics, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? "/").split("?")[0];
  const method = request.method ?? "GET";
  if (path !== PATH) return refuse(response, 404, { error: "not_found", message: `Route ${method} ${path} not found` });
  if (!METHODS.includes(method)) {
    return refuse(
      response,
      405,
      { error: "method_not_allowed", message: `${PATH} takes ${METHODS.join(" or ")}, not ${method}` },
      { allow: METHODS.join(", ") },
    );
  }
  let text: string;
  try {
    text = await metrics.registry.metrics();
  } catch {
    return refuse(response, 500, { error: "internal_error", message: "Internal server error" });
  }
  response.writeHead(200, {
    "content-type": metrics.registry.contentType,
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  response.end(method === "HEAD" ? undefined : text);
}

function refuse(
  response: ServerResponse,
  status: number,
  body: { error: string; message: string },
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...headers, "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  response.end(text);
}
