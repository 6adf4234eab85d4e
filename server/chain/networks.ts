import { FetchRequest, JsonRpcProvider, Network } from "ethers";
import { ProviderBackoff, throttleProvider } from "./backoff";
import { networkUnavailable, unknownNetwork, upstreamError, wrongChain } from "./errors";
import { NETWORKS, type NetworkInfo } from "./registry";

/** Awaits an RPC call, turning node failures into the chain's upstream errors and letting everything else through. */
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

  /** The built-in facts of `name`; `unknown_network` for a name that is not in the registry. */
  info(name: string): NetworkInfo & { name: string } {
    const info = Object.hasOwn(NETWORKS, name) ? NETWORKS[name] : undefined;
    if (!info) throw unknownNetwork(name);
    return { name, ...info };
  }

  /** The provider of `name`: `unknown_network`, or `network_unavailable` when it has no RPC URL. */
  provider(name: string): JsonRpcProvider {
    const { chainId } = this.info(name);
    let provider = this.providers.get(name);
    if (provider) return provider;
    const url = this.rpcUrls[name];
    if (!url) throw networkUnavailable(name);
    const request = new FetchRequest(url);
    request.timeout = this.timeoutMs;
    // staticNetwork: no eth_chainId before each call, and no endless "failed to detect network" retries
    // while a node is down. batchMaxCount 1: ethers' batching would hold each call back by 10 ms. cacheTimeout -1:
    // ethers would serve an identical call's answer, a failure included, for 250 ms of wall time after it settled;
    // the service's own caches share calls in flight and keep answers per block, on the app's clock.
    provider = new JsonRpcProvider(request, Network.from(chainId), { staticNetwork: true, batchMaxCount: 1, cacheTimeout: -1 });
    this.onProvider?.(name, provider);
    throttleProvider(provider, new ProviderBackoff(name, this.timeoutMs));
    this.providers.set(name, provider);
    return provider;
  }

  /** Checks that the node of `name` answers and serves the chain id the registry says; throws an upstream error otherwise. */
  async check(name: string): Promise<void> {
    const provider = this.provider(name);
    const chainId = Number(await rpc(name, provider.send("eth_chainId", [])));
    const expected = this.info(name).chainId;
    if (chainId !== expected) throw wrongChain(name, chainId, expected);
  }

  close(): void {
    for (const provider of this.providers.values()) provider.destroy();
    this.providers.clear();
  }
}
