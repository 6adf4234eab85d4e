import http from "node:http";
import { listenLocally } from "../../support/net";

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
  const [good, slow, failing] = await Promise.all(servers.map(listenLocally));
  return {
    hosts: { good: good.url, slow: slow.url, failing: failing.url },
    close: () => Promise.all([good, slow, failing].map((host) => host.close())),
  };
}
