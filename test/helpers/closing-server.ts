import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An HTTP server that answers the first request of each connection with `answer(body)` (JSON) and closes the
 * connection at its second, unanswered: the race of a kept-alive connection whose idle timeout ends as a call is sent
 * on it, made certain. `requestsPerConnection()` lists how many requests each connection carried, in the order the
 * connections opened.
 */
export async function startClosingServer(answer: (body: string) => string) {
  const requestsOf = new Map<unknown, number>();
  const server = http.createServer((request, response) => {
    const count = (requestsOf.get(request.socket) ?? 0) + 1;
    requestsOf.set(request.socket, count);
    if (count > 1) return void request.socket.destroy();
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end(answer(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requestsPerConnection: () => [...requestsOf.values()],
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
