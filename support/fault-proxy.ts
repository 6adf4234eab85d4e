import { startRpcProxy, type Refusal, type RpcCall } from "./rpc-proxy";

/**
 * The faults a {@link startFaultProxy} injects; a test may change them while the proxy runs (faults stop when set
 * back to undefined). Random choices come from the proxy's seeded generator: the same seed and the same calls give
 * the same faults.
 */
export interface FaultPlan {
  /**
   * A load-balanced provider whose backends' log indexes trail the head: each `eth_getLogs` answer of a block range
   * leaves out the logs of the newest 1 to `logsLag` blocks (drawn per answer), and one by `blockHash` is an "unknown
   * block" for a block among the newest 0 to `logsLag` (drawn: 0 is an up-to-date backend).
   */
  logsLag?: number;
  /** The newest `nullHeaders` blocks answer `eth_getBlockByNumber` with null (announced by eth_blockNumber, not yet served). */
  nullHeaders?: number;
  /** This fraction of the calls (of `failMethods`, or all) gets one of `failWith` (drawn) instead of the node's answer. */
  failRate?: number;
  failMethods?: string[];
  failWith?: Refusal[];
  /** Holds each call back for a time drawn between the two bounds (ms), then lets it through: a slow provider. */
  delayMs?: [number, number];
  /** Answers a call itself when it returns a refusal (every eth_call fails, …); a promise holds the call back (a slow provider). */
  refuse?: (call: RpcCall) => Refusal | undefined | Promise<Refusal | undefined>;
}

/** The node errors providers send most, for `failWith`. */
export const NODE_ERRORS = {
  headerNotFound: { rpcError: { code: -32000, message: "header not found" } },
  rateLimitedInBody: { rpcError: { code: -32005, message: "daily request count exceeded, request rate limited" } },
  tooManyRequests: { httpStatus: 429, body: "Too Many Requests" },
  retryAfter: (seconds: number): Refusal => ({ httpStatus: 429, body: "Too Many Requests", headers: { "retry-after": String(seconds) } }),
  badGateway: { httpStatus: 502, body: "Bad Gateway" },
  internal: { rpcError: { code: -32603, message: "internal error" } },
} satisfies Record<string, Refusal | ((n: number) => Refusal)>;

/** Park-Miller's generator: small, seeded, the same sequence on every run. */
function seeded(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => {
    state = (state * 48271) % 2147483647;
    return (state - 1) / 2147483646;
  };
}

interface RawLog {
  blockNumber: string;
}

/**
 * A seeded, deterministic fault-injecting JSON-RPC proxy in front of a real node (on {@link startRpcProxy}): the
 * service talks to it instead of the node, and it lags, nulls, refuses and fails calls as {@link FaultPlan} says.
 * Every call is recorded; `injected` counts the faults it made.
 */
export async function startFaultProxy(target: string, { seed = 1, plan = {} as FaultPlan } = {}) {
  let random = seeded(seed);
  const state = { plan, injected: 0 };
  const head = async (send: (method: string, params: unknown[]) => Promise<unknown>) => Number(await send("eth_blockNumber", []));
  const proxy = await startRpcProxy(
    target,
    (call) => {
      const { failRate, failMethods, failWith, refuse, delayMs } = state.plan;
      if (delayMs) {
        state.injected++;
        const [least, most] = delayMs;
        const ms = least + random() * (most - least);
        return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms));
      }
      const refusal = refuse?.(call);
      if (refusal) {
        state.injected++;
        return refusal;
      }
      if (failRate && failWith?.length && (!failMethods || failMethods.includes(call.method)) && random() < failRate) {
        state.injected++;
        return failWith[Math.floor(random() * failWith.length)];
      }
      return undefined;
    },
    {
      rewrite: async (call, result, send) => {
        const { logsLag, nullHeaders } = state.plan;
        if (call.method === "eth_getLogs" && logsLag) {
          const filter = call.params[0] as { blockHash?: string };
          const lag = filter.blockHash ? Math.floor(random() * (logsLag + 1)) : 1 + Math.floor(random() * logsLag);
          const served = (await head(send)) - lag;
          if (filter.blockHash) {
            const block = (await send("eth_getBlockByHash", [filter.blockHash, false])) as { number: string } | null;
            if (block && Number(block.number) > served) {
              state.injected++;
              throw Object.assign(new Error("unknown block"), { error: { code: -32000, message: "unknown block" } });
            }
            return result;
          }
          const logs = result as RawLog[];
          const kept = logs.filter((l) => Number(l.blockNumber) <= served);
          if (kept.length < logs.length) state.injected++;
          return kept;
        }
        if (call.method === "eth_getBlockByNumber" && nullHeaders && result) {
          const number = Number((result as { number: string }).number);
          if (number > (await head(send)) - nullHeaders) {
            state.injected++;
            return null;
          }
        }
        return result;
      },
    },
  );
  return {
    ...proxy,
    /** The faults in force; assign to change them. */
    get plan(): FaultPlan {
      return state.plan;
    },
    set plan(next: FaultPlan) {
      state.plan = next;
    },
    /** Starts the random choices over from `seed`: faults drawn after it are the same whatever was drawn before. */
    reseed(next: number): void {
      random = seeded(next);
    },
    /** How many faults the proxy made. */
    get injected(): number {
      return state.injected;
    },
    /** Calls recorded per method. */
    countByMethod(): Record<string, number> {
      const counts: Record<string, number> = {};
      for (const call of proxy.calls) counts[call.method] = (counts[call.method] ?? 0) + 1;
      return counts;
    },
  };
}

export type FaultProxy = Awaited<ReturnType<typeof startFaultProxy>>;
