import http from "node:http";
import type { AddressInfo } from "node:net";

export interface HangingServer {
  url: string;
  /** Drops the connections it holds open, which `server.close` alone would wait for. */
  close(): Promise<void>;
}

/**
 * An HTTP server on `host` that takes every request and never answers it: a node or a host that hangs, for the
 * timeouts of whoever calls it.
 */
export async function startHangingServer(host = "127.0.0.1"): Promise<HangingServer> {
  const server = http.createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
