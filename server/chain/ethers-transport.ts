import { FetchRequest, type FetchCancelSignal, type FetchGetUrlFunc, type GetUrlResponse } from "ethers";
import { ACCEPTED_ENCODINGS } from "../lib/bounded-read";
import { Deadline } from "../lib/deadline";
import { ChainError, DEFAULT_MAX_ANSWER_BYTES, answerRefusals } from "./errors";
import { requestProvider, UnreadableAnswer, type ProviderAnswer } from "./http-request";

/**
 * ethers' HTTP transport (its `getUrlFunc`, the one place it is set), bounded as rawRpc's calls are. ethers' own
 * reads a body with no bound, joining each chunk to a copy of all before it (a large answer costs time in the square
 * of its size), gunzips it whole however far it inflates, and bounds only the time between two chunks, so an answer
 * trickled forever never times out. Here:
 * - the whole call, the body's reading included, ends at the request's timeout (RPC_TIMEOUT_MS): TIMEOUT;
 * - the body is read once, decompressed (gzip, deflate, br) and bounded after decompression by `maxAnswerBytes`
 *   (RPC_MAX_ANSWER_BYTES): past it the read stops and the call fails as ANSWER_TOO_LARGE;
 * - a body that cannot be read (cut short, not decompressing, an encoding it does not read) fails as BAD_DATA, the
 *   provider's fault;
 * - a call the provider's closed kept-alive connection failed before any answer is sent once more on a new one.
 * Its own faults are ChainErrors with the codes ethers' own transport gives them (TIMEOUT, CANCELLED) or that ethers
 * reads (BAD_DATA); a call that got no answer (no connection, an answer that is not HTTP) is a NETWORK_ERROR with the
 * transport's words, as rawRpc's.
 */
function boundedGetUrl(maxAnswerBytes: number): FetchGetUrlFunc {
  const refusals = answerRefusals(maxAnswerBytes);
  return async (request: FetchRequest, signal?: FetchCancelSignal): Promise<GetUrlResponse> => {
    if (signal?.cancelled) throw new ChainError("request cancelled before sending", "CANCELLED");
    const cancel = new AbortController();
    signal?.addListener(() => cancel.abort());
    // `cancel` lives no longer than the call, so the deadline needs no end().
    const within = new Deadline(request.timeout, cancel.signal);
    const deadline = within.signal;
    // The deadline or ethers' cancel ended the call: the error says so, whatever Node's stream said.
    const ended = () =>
      within.timedOut
        ? new ChainError("request timeout", "TIMEOUT")
        : cancel.signal.aborted
          ? new ChainError("request cancelled", "CANCELLED")
          : undefined;
    let answer;
    try {
      answer = await requestProvider({
        url: request.url,
        method: request.method,
        headers: { ...request.headers, "accept-encoding": ACCEPTED_ENCODINGS },
        body: request.body,
        deadline,
        maxBytes: maxAnswerBytes,
        refusals,
      });
    } catch (error) {
      // The bound's refusals (answerRefusals): too large, or an encoding it does not read.
      if (error instanceof ChainError) throw error;
      // A body cut short or not decompressing is the provider's fault (BAD_DATA, which ethers reads); no answer, the network's.
      throw ended() ?? new ChainError((error as Error).message, error instanceof UnreadableAnswer ? "BAD_DATA" : "NETWORK_ERROR");
    }
    return {
      statusCode: answer.statusCode,
      statusMessage: answer.statusMessage,
      headers: decodedHeaders(answer.headers),
      body: answer.body.length > 0 ? answer.body : null,
    };
  };
}

/** The answer's headers as ethers keeps them (one string each), less those of the encoded body it no longer sees. */
function decodedHeaders(headers: ProviderAnswer["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && name !== "content-encoding" && name !== "content-length") flat[name] = [value].flat().join(", ");
  return flat;
}

/** An ethers request for a JSON-RPC provider at `url`, on {@link boundedGetUrl}. */
export function jsonRpcRequest(url: string, maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES): FetchRequest {
  const request = new FetchRequest(url);
  request.getUrlFunc = boundedGetUrl(maxAnswerBytes);
  return request;
}
