import http from "node:http";
import type { AddressInfo } from "node:net";

/** How long the slow host takes to answer: well past a client's patience, within METADATA_FETCH_TIMEOUT_MS (10 s). */
const SLOW_MS = 4_000;

/**
 * The token metadata hosts the soak's tokenURIs point at: one that answers at once, one that answers after
 * {@link SLOW_MS}, one that fails (a 500, then a reset connection, in turn).
 */
export async function startMetadataHosts() {
  let failures = 0;
  const answer = (response: http.ServerResponse, path: string) =>
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: `Token at ${path}`, image: "ipfs://soak" }));
  const servers = [
    http.createServer((request, response) => answer(response, request.url ?? "")),
    http.createServer((request, response) => {
      const timer = setTimeout(() => answer(response, request.url ?? ""), SLOW_MS);
      response.on("close", () => clearTimeout(timer));
    }),
    http.createServer((_request, response) => {
      if (failures++ % 2) response.socket?.destroy();
      else response.writeHead(500).end("failing");
    }),
  ];
  const urls = await Promise.all(
    servers.map(
      (server) =>
        new Promise<string>((resolve) =>
          server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
        ),
    ),
  );
  return {
    hosts: { good: urls[0], slow: urls[1], failing: urls[2] },
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      ),
  };
}
