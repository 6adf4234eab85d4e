import { FetchRequest, JsonRpcProvider, Network } from "ethers";
import { HttpError } from "../http/http-error";
import { NETWORKS, rpcEnvName, type NetworkInfo } from "./registry";

/** ethers error codes that mean "the node did not give a usable answer" (transport, HTTP, JSON, JSON-RPC error). */
const UPSTREAM_CODES = new Set([
  "SERVER_ERROR",
  "NETWORK_ERROR",
  "UNKNOWN_ERROR",
  "BAD_DATA",
  "UNSUPPORTED_OPERATION",
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
]);

/**
 * Maps an RPC failure to the answer the README's error table gives: timeout → 504 `upstream_timeout`, any other transport or
 * node fault → 502 `upstream_error`. Returns undefined for anything else — notably a revert
 * (`CALL_EXCEPTION`), whose meaning is the caller's to decide, and our own bugs, which must stay 500s.
 */
export function upstreamError(error: unknown, network: string): HttpError | undefined {
  if (error instanceof HttpError) return error.statusCode >= 502 ? error : undefined;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "TIMEOUT") return new HttpError(504, "upstream_timeout", `The ${network} node did not answer in time`);
  if (typeof code === "string" && UPSTREAM_CODES.has(code)) {
    return new HttpError(502, "upstream_error", `The ${network} node failed to answer`);
  }
  return undefined;
}

/** Awaits an RPC call, turning node failures into 502/504 HttpErrors and letting everything else through. */
export async function rpc<T>(network: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw upstreamError(error, network) ?? error;
  }
}

/** The network registry at run time: one JSON-RPC provider per configured network. */
export class Networks {
  private readonly providers = new Map<string, JsonRpcProvider>();

  constructor(
    private readonly rpcUrls: Readonly<Record<string, string>>,
    private readonly timeoutMs: number,
    /** Called with each provider made (metrics instrument it). */
    private readonly onProvider?: (network: string, provider: JsonRpcProvider) => void,
  ) {}

  /** Names of the networks that have an RPC URL. */
  configured(): string[] {
    return Object.keys(this.rpcUrls);
  }

  /** Whether `name` is a network of the registry. */
  isKnown(name: string): boolean {
    return Object.hasOwn(NETWORKS, name);
  }

  /** The built-in facts of `name`; 400 `unknown_network` for a name that is not in the registry. */
  info(name: string): NetworkInfo & { name: string } {
    const info = Object.hasOwn(NETWORKS, name) ? NETWORKS[name] : undefined;
    if (!info) throw new HttpError(400, "unknown_network", `Unknown network "${name}"`);
    return { name, ...info };
  }

  /** The provider of `name`: 400 `unknown_network`, or 503 `network_unavailable` when it has no RPC URL. */
  provider(name: string): JsonRpcProvider {
    const { chainId } = this.info(name);
    let provider = this.providers.get(name);
    if (provider) return provider;
    const url = this.rpcUrls[name];
    if (!url) throw new HttpError(503, "network_unavailable", `Network "${name}" is not configured (${rpcEnvName(name)})`);
    const request = new FetchRequest(url);
    request.timeout = this.timeoutMs;
    // staticNetwork: no eth_chainId before each call, and no endless "failed to detect network" retries
    // while a node is down. batchMaxCount 1: ethers' batching would hold each call back by 10 ms.
    provider = new JsonRpcProvider(request, Network.from(chainId), { staticNetwork: true, batchMaxCount: 1 });
    this.onProvider?.(name, provider);
    this.providers.set(name, provider);
    return provider;
  }

  /** Checks that the node of `name` answers and serves the chain id the registry says; throws 502/504 otherwise. */
  async check(name: string): Promise<void> {
    const provider = this.provider(name);
    const chainId = Number(await rpc(name, provider.send("eth_chainId", [])));
    const expected = this.info(name).chainId;
    if (chainId !== expected) {
      throw new HttpError(502, "upstream_error", `The ${name} node serves chain ${chainId}, not ${expected}`);
    }
  }

  close(): void {
    for (const provider of this.providers.values()) provider.destroy();
    this.providers.clear();
  }
}
