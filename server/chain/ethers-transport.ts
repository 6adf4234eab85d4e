import http from "node:http";
import https from "node:https";
import { FetchRequest, type FetchGetUrlFunc } from "ethers";

/** ethers' own HTTP transport, on Node's kept-alive connections. */
const ethersGetUrl = FetchRequest.createGetUrlFunc();
/** The same on a new connection each time, closed after the answer. */
const ethersGetUrlOnNewConnection = {
  http: FetchRequest.createGetUrlFunc({ agent: new http.Agent({ keepAlive: false }) }),
  https: FetchRequest.createGetUrlFunc({ agent: new https.Agent({ keepAlive: false }) }),
};

/**
 * ethers' transport, sending a call once more on a new connection when it failed with ECONNRESET or EPIPE before any
 * answer: Node's keep-alive agent hands out a connection the provider closed a moment before (its idle timeout, or an
 * event loop busy when the close arrived), and the call fails as "socket hang up" though the provider is healthy (the
 * pool would count it as the provider's failure). ethers' error does not say whether the connection was a reused one
 * (rawRpc's does): any such failure is sent once more, which a read and a signed transaction both bear.
 */
const resendingOnClosedConnection: FetchGetUrlFunc = async (request, signal) => {
  try {
    return await ethersGetUrl(request, signal);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "ECONNRESET" && code !== "EPIPE") throw error;
    return ethersGetUrlOnNewConnection[request.url.startsWith("https:") ? "https" : "http"](request, signal);
  }
};

/** An ethers request for a JSON-RPC provider at `url`, on {@link resendingOnClosedConnection}. */
export function jsonRpcRequest(url: string): FetchRequest {
  const request = new FetchRequest(url);
  request.getUrlFunc = resendingOnClosedConnection;
  return request;
}
