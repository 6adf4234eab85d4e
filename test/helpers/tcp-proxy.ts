import net from "node:net";
import { atLocalPort } from "../../support/net";

/**
 * A TCP proxy the test controls, standing between the service and its database or node: `cut()` resets
 * every open connection and every new one (an outage), `restore()` lets traffic through again, `retarget()` sends
 * the next connections elsewhere (an address that moved to another server, as after a failover).
 */
export interface TcpProxy {
  port: number;
  /** `target` URL with its host and port replaced by the proxy's. */
  url(target: string): string;
  cut(): void;
  restore(): void;
  retarget(port: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let open = true;
  let target = targetPort;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (!open) return void client.resetAndDestroy();
    const upstream = net.connect(target, targetHost);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: (target) => atLocalPort(target, port),
    cut() {
      open = false;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore() {
      open = true;
    },
    retarget(port) {
      target = port;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
