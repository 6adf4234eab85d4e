import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RpcCall {
  method: string;
  params: unknown[];
}

/** An answer the proxy gives instead of the node: a JSON-RPC error, or an HTTP status with a body. */
export type Refusal = { rpcError: { code: number; message: string } } | { httpStatus: number; body: string };

/**
 * A JSON-RPC HTTP proxy in front of a real node, for provider behaviour a local node does not have: `refuse`
 * may answer a call itself (e.g. "block range too large" for wide eth_getLogs), or hold it back (a slow node) by
 * answering a promise. Every call is recorded.
 */
export async function startRpcProxy(
  target: string,
  refuse: (call: RpcCall) => Refusal | undefined | Promise<Refusal | undefined> = () => undefined,
) {
  const calls: RpcCall[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", async () => {
      let call: RpcCall & { id?: unknown };
      try {
        call = JSON.parse(body);
      } catch {
        return void response.writeHead(400).end();
      }
      calls.push({ method: call.method, params: call.params });
      const refusal = await refuse(call);
      if (refusal && "httpStatus" in refusal) return void response.writeHead(refusal.httpStatus).end(refusal.body);
      if (refusal)
        return void response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error: refusal.rpcError }));
      try {
        const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
        response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
      } catch {
        response.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
