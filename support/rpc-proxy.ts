import http from "node:http";
import { listenLocally } from "./net";

export interface RpcCall {
  method: string;
  params: unknown[];
  /** When the proxy received it (Date.now()). */
  at?: number;
}

/**
 * An answer the proxy gives instead of the node: a JSON-RPC error (in an HTTP 200), an HTTP status with a body (and
 * headers), or a JSON-RPC result of its own.
 */
export type Refusal =
  | { rpcError: { code: number; message: string; data?: unknown } }
  | { httpStatus: number; body: string; headers?: Record<string, string> }
  | { result: unknown };

export interface RpcProxyOptions {
  /**
   * Changes the node's result before it goes out (a lagging backend leaving logs out); `send` asks the node. An
   * error carrying `error` that it throws is answered as that JSON-RPC error.
   */
  rewrite?: (call: RpcCall, result: unknown, send: (method: string, params: unknown[]) => Promise<unknown>) => Promise<unknown>;
}

/**
 * A JSON-RPC HTTP proxy in front of a real node, for provider behaviour a local node does not have: `refuse`
 * may answer a call itself (e.g. "block range too large" for wide eth_getLogs), `rewrite` may change the node's
 * answer, and `refuse` may hold a call back (a slow node) by answering a promise. Every call is recorded.
 */
export async function startRpcProxy(
  target: string,
  refuse: (call: RpcCall) => Refusal | undefined | Promise<Refusal | undefined> = () => undefined,
  { rewrite }: RpcProxyOptions = {},
) {
  const calls: RpcCall[] = [];
  const send = async (method: string, params: unknown[]) => {
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await upstream.json()) as { result?: unknown; error?: unknown };
    if (body.error) throw Object.assign(new Error(`${method} failed at the node`), { error: body.error });
    return body.result;
  };
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
      calls.push({ method: call.method, params: call.params, at: Date.now() });
      const answer = (payload: object) =>
        void response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: call.id, ...payload }));
      const refusal = await refuse(call);
      if (refusal && "httpStatus" in refusal) return void response.writeHead(refusal.httpStatus, refusal.headers).end(refusal.body);
      if (refusal && "rpcError" in refusal) return answer({ error: refusal.rpcError });
      if (refusal) return answer({ result: refusal.result });
      try {
        if (rewrite) {
          // A node error, or one the rewrite makes (it throws an error carrying `error`), goes out as a JSON-RPC error.
          try {
            return answer({ result: await rewrite(call, await send(call.method, call.params), send) });
          } catch (error) {
            const rpcError = (error as { error?: unknown }).error;
            if (!rpcError) throw error;
            return answer({ error: rpcError });
          }
        }
        const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
        response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
      } catch {
        response.writeHead(502).end();
      }
    });
  });
  return { ...(await listenLocally(server)), calls };
}
