import type http from "node:http";
import net from "node:net";

/** A port free right now, so a service's ISSUER can name it before the service listens (issuers must match URLs). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `server` listening on 127.0.0.1 at a port the system picks, its base URL, and a close that also ends its open
 * connections: a client's idle keep-alive socket would otherwise hold the close until it times out.
 */
export async function listenLocally(server: http.Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `target` with its host and port replaced by 127.0.0.1:`port`: the same URL, reached through a proxy or pooler on this machine. */
export function atLocalPort(target: string, port: number): string {
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return url.toString();
}
