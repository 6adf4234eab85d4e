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

/** `target` with its host and port replaced by 127.0.0.1:`port`: the same URL, reached through a proxy or pooler on this machine. */
export function atLocalPort(target: string, port: number): string {
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return url.toString();
}
