import { isAscii } from "node:buffer";
import type { JsonRpcProvider } from "ethers";
import { ACCEPTED_ENCODINGS } from "../lib/bounded-read";
import { observeRpc } from "../metrics/rpc";
import { ChainError, answerRefusals, type ChainErrorCode, type ChainErrorDetails } from "./errors";
import { requestProvider, UnreadableAnswer, type ProviderAnswer } from "./http-request";
import { answerLimitOf, poolOf } from "./networks";

/**
 * One JSON-RPC call over HTTP, on the provider's URL, headers and timeout, for answers too large for ethers:
 * its response handling grows much faster than the size (a 12 MB eth_getLogs answer from a local node took 28 s
 * through `provider.send` and 0.4 s here). Failures are ChainErrors with ethers' `code` (and the node's `error`),
 * as `upstreamError` and the indexer's range sizing read them. A network's provider sends it on one of its URLs, as its
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
  const fail = (message: string, code: ChainErrorCode, details?: ChainErrorDetails) =>
    new ChainError(`${method}: ${message}`, code, details);
  const limit = answerLimitOf(provider);
  const refusals = answerRefusals(limit, `${method}: `);
  const deadline = AbortSignal.timeout(connection.timeout);
  const timedOut = (message: string) => fail(message, "TIMEOUT");
  let answer: ProviderAnswer;
  try {
    answer = await requestProvider({
      url: connection.url,
      method: "POST",
      headers: { ...connection.headers, "content-type": "application/json", "accept-encoding": ACCEPTED_ENCODINGS },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      deadline,
      maxBytes: limit,
      refusals,
    });
  } catch (error) {
    // The bound's refusals (answerRefusals): too large, or an encoding it does not read.
    if (error instanceof ChainError) throw error;
    if (deadline.aborted) throw timedOut("no answer in time");
    // A body cut short or not decompressing is the node's fault, as one that does not parse; no answer, the network's.
    throw fail((error as Error).message, error instanceof UnreadableAnswer ? "BAD_DATA" : "NETWORK_ERROR");
  }
  const status = answer.statusCode;
  if (status < 200 || status > 299) {
    const retryAfter = answer.headers["retry-after"];
    throw fail(`HTTP ${status}`, "SERVER_ERROR", {
      info: { responseStatus: `${status} ${answer.statusMessage}` },
      response: { statusCode: status, headers: { "retry-after": Array.isArray(retryAfter) ? retryAfter[0] : retryAfter } },
    });
  }
  let body: { result?: T; error?: { code: number; message: string } };
  try {
    body = JSON.parse(text(answer.body)) as typeof body;
  } catch {
    throw fail("the answer is not JSON", "BAD_DATA");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw fail("the answer is not a JSON-RPC answer", "BAD_DATA");
  if (body.error) throw fail(body.error.message ?? "error", "UNKNOWN_ERROR", { error: body.error });
  // An answer that is not what the method answers is the provider's fault, as a transport error is: the pool tries
  // another URL, and nothing of it is used.
  const malformed = check?.(body.result);
  if (malformed !== undefined) throw fail(`a malformed answer: ${malformed}`, "BAD_DATA");
  return body.result as T;
}

/**
 * An answer's bytes as text. An answer of hex is ASCII, which reads the same as Latin-1 at about half the cost of
 * decoding UTF-8 (the largest part of reading an eth_getLogs answer after JSON.parse); any other byte takes the UTF-8
 * path.
 */
function text(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}
