import http from "node:http";
import type { AddressInfo } from "node:net";

export interface PageServer {
  /** `http://localhost:<port>/`: another origin than a test service's `127.0.0.1`, as a dApp's page is. */
  url: string;
  close(): void;
}

/**
 * Serves one HTML page at every path, on the loopback (Chromium refuses a public page's requests to a loopback
 * address), so that a browser test's requests to the service are cross-origin ones, as a dApp's are.
 */
export async function servePage(html: string): Promise<PageServer> {
  const server = http.createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(html));
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}
