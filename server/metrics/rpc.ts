import type { JsonRpcPayload, JsonRpcProvider } from "ethers";
import { ANSWER_TOO_LARGE, errorCodeOf, faultInAnswer, nodeErrorOf, rateLimitOf } from "../chain/errors";
import type { Metrics, RpcOutcome } from "./metrics";

type Observer = (method: string, outcome: RpcOutcome, seconds: number) => void;

/** The observer of each instrumented provider, for the calls that bypass ethers (`rawRpc`). */
const observers = new WeakMap<object, Observer>();

/**
 * Counts and times every JSON-RPC call `provider` sends for `network`: ethers' own calls by wrapping its
 * transport (`_send`), and rawRpc's large reads through {@link observeRpc}.
 */
export function instrumentProvider(metrics: Metrics, network: string, provider: JsonRpcProvider): void {
  const observe: Observer = (method, outcome, seconds) => metrics.rpcCall(network, method, outcome, seconds);
  observers.set(provider, observe);
  const send = provider._send.bind(provider);
  provider._send = async (payload) => {
    const started = performance.now();
    const method = (Array.isArray(payload) ? payload[0] : payload)?.method ?? "batch";
    try {
      const results = await send(payload);
      // An error answer that reports the provider's fault counts as that fault (faultInAnswer), any other as the node's.
      const failed = results.find((result) => "error" in result && result.error);
      const fault = failed && faultInAnswer(failed);
      observe(method, fault ?? (failed ? "rpc_error" : "ok"), (performance.now() - started) / 1000);
      return results;
    } catch (error) {
      observe(method, outcomeOf(error), (performance.now() - started) / 1000);
      throw error;
    }
  };
}

/** Times `call` as one JSON-RPC call of `provider` (when it is instrumented). */
export async function observeRpc<T>(provider: JsonRpcProvider, method: JsonRpcPayload["method"], call: () => Promise<T>): Promise<T> {
  const observe = observers.get(provider);
  if (!observe) return call();
  const started = performance.now();
  try {
    const result = await call();
    observe(method, "ok", (performance.now() - started) / 1000);
    return result;
  } catch (error) {
    observe(method, outcomeOf(error), (performance.now() - started) / 1000);
    throw error;
  }
}

/** The outcome of a failed call, as the chain layer's readers of errors tell it (chain/errors.ts). */
function outcomeOf(error: unknown): RpcOutcome {
  const code = errorCodeOf(error);
  if (code === "TIMEOUT") return "timeout";
  // An answer past RPC_MAX_ANSWER_BYTES, which the transport stopped reading.
  if (code === ANSWER_TOO_LARGE) return "too_large";
  if (rateLimitOf(error) !== undefined) return "rate_limited";
  // A JSON-RPC error object that reports the provider's fault (a missing header) is counted as the fault it means.
  if (faultInAnswer(error)) return "transport_error";
  // Any other answer that carries a JSON-RPC error object (a revert, a refused range) came from the node.
  if (nodeErrorOf(error)) return "rpc_error";
  return "transport_error";
}
