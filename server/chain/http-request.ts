import http, { type IncomingMessage } from "node:http";
import https from "node:https";

/** One HTTP request to a JSON-RPC provider. */
export interface ProviderRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  /** Covers the whole call, the body's reading included: once aborted, the request and its response are destroyed. */
  deadline: AbortSignal;
}

/**
 * Sends `call` with Node's own HTTP client and gives the response once its headers arrive. Not `fetch`: its web
 * streams took more CPU than anything else in reading a large answer but parsing it. Connections are kept alive; one
 * the server closed as it was reused (its idle timeout ran out as the call was sent, or the event loop was busy when
 * it closed) fails before any answer, and the call is sent once more on a new connection: a JSON-RPC call sent twice
 * changes nothing more than once (a read, or a signed transaction, which the chain takes once).
 */
export async function requestProvider(call: ProviderRequest): Promise<IncomingMessage> {
  try {
    return await attempt(call, true);
  } catch (error) {
    if (!(error as { reusedSocket?: boolean }).reusedSocket || call.deadline.aborted) throw error;
    return attempt(call, false);
  }
}

/** One attempt of `requestProvider`: on a kept-alive connection when `pooled`, else on a new one closed after the answer. */
function attempt({ url, method, headers, body, deadline }: ProviderRequest, pooled: boolean): Promise<IncomingMessage> {
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const sent = client.request(target, {
      method,
      headers: body === null ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
      signal: deadline,
      ...(pooled ? {} : { agent: false }),
    });
    sent.once("response", resolve);
    sent.on("error", (error) => reject(Object.assign(error, { reusedSocket: sent.reusedSocket })));
    sent.end(body ?? undefined);
  });
}
