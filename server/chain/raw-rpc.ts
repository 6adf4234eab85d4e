import { isAscii } from "node:buffer";
import type { JsonRpcProvider } from "ethers";
import { readBounded } from "../lib/bounded-read";
import { observeRpc } from "../metrics/rpc";
import { ANSWER_TOO_LARGE } from "./errors";
import { answerLimitOf, poolOf } from "./networks";

/**
 * One JSON-RPC call over `fetch`, on the provider's URL, headers and timeout, for answers too large for ethers:
 * its response handling grows much faster than the size (a 12 MB eth_getLogs answer from a local node took 28 s
 * through `provider.send` and 0.4 s here). Failures carry the ethers-style `code` (and the node's `error`) that
 * `upstreamError` and the indexer's range sizing read. A network's provider sends it on one of its URLs, as its
 * own calls (the pool's choice, failover and 429 pauses). `check` names what is wrong with an answer that is not of
 * the method's shape (undefined when it is): such an answer fails as BAD_DATA, the provider's fault. An answer larger
 * than the provider's bound (RPC_MAX_ANSWER_BYTES) is not read past it: it fails as ANSWER_TOO_LARGE, which the
 * indexer takes as "ask for fewer blocks" and which is not the provider's fault (another would answer the same).
 */
export function rawRpc<T>(
  provider: JsonRpcProvider,
  method: string,
  params: unknown[],
  check?: (result: unknown) => string | undefined,
): Promise<T> {
  const pool = poolOf(provider);
  const sendOn = (target: JsonRpcProvider) => observeRpc(target, method, () => send<T>(target, method, params, check));
  return pool ? pool.run((member) => sendOn(member.provider)) : sendOn(provider);
}

async function send<T>(
  provider: JsonRpcProvider,
  method: string,
  params: unknown[],
  check?: (result: unknown) => string | undefined,
): Promise<T> {
  const connection = provider._getConnection();
  const fail = (message: string, extra: object) => Object.assign(new Error(`${method}: ${message}`), extra);
  let response: Response;
  try {
    response = await fetch(connection.url, {
      method: "POST",
      headers: { ...connection.headers, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(connection.timeout),
    });
  } catch (error) {
    throw fail((error as Error).message, { code: (error as Error).name === "TimeoutError" ? "TIMEOUT" : "NETWORK_ERROR" });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw fail(`HTTP ${response.status}`, {
      code: "SERVER_ERROR",
      info: { responseStatus: `${response.status} ${response.statusText}` },
      response: { statusCode: response.status, headers: { "retry-after": response.headers.get("retry-after") ?? undefined } },
    });
  }
  let body: { result?: T; error?: { code: number; message: string } };
  try {
    body = JSON.parse(await boundedText(response, answerLimitOf(provider), fail)) as typeof body;
  } catch (error) {
    if ((error as { code?: unknown }).code === ANSWER_TOO_LARGE) throw error;
    throw fail("the answer is not JSON", { code: (error as Error).name === "TimeoutError" ? "TIMEOUT" : "BAD_DATA" });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw fail("the answer is not a JSON-RPC answer", { code: "BAD_DATA" });
  if (body.error) throw fail(body.error.message ?? "error", { code: "UNKNOWN_ERROR", error: body.error });
  // An answer that is not what the method answers is the provider's fault, as a transport error is: the pool tries
  // another URL, and nothing of it is used.
  const malformed = check?.(body.result);
  if (malformed !== undefined) throw fail(`a malformed answer: ${malformed}`, { code: "BAD_DATA" });
  return body.result as T;
}

/**
 * The body of `response` as text, read up to `limit` bytes (after decompression): a larger one is dropped where it
 * passes the bound, so that one answer cannot take more memory than that, whatever its headers say.
 */
async function boundedText(response: Response, limit: number, fail: (message: string, extra: object) => Error): Promise<string> {
  const tooLarge = () => fail(`the answer exceeds RPC_MAX_ANSWER_BYTES (${limit} bytes)`, { code: ANSWER_TOO_LARGE });
  if (Number(response.headers.get("content-length")) > limit && !response.headers.get("content-encoding")) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  // fetch has decompressed the body already: the bound is on what it becomes.
  if (!response.body) return "";
  const bytes = await readBounded(response.body, limit, tooLarge);
  // An answer of hex is ASCII, which reads the same as Latin-1 at about half the cost of decoding UTF-8 (the largest
  // part of reading an eth_getLogs answer after JSON.parse); any other byte takes the UTF-8 path.
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}
