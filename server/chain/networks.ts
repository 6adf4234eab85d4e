import { JsonRpcProvider, Network } from "ethers";
import { systemClock, type Clock } from "../lib/clock";
import { ProviderBackoff, withoutEthersRetries } from "./backoff";
import { jsonRpcRequest } from "./ethers-transport";
import { DEFAULT_MAX_ANSWER_BYTES, networkUnavailable, unknownNetwork, upstreamError, withFaultsThrown, wrongChain } from "./errors";
import { ProviderHealth, ProviderPool, providerLabels, type PoolEvents } from "./pool";
import { NETWORKS, type NetworkInfo } from "./registry";

export interface NetworksOptions {
  /** The first cool-down of a provider that failed (RPC_COOLDOWN_MS). */
  cooldownMs?: number;
  /** The largest answer read of a call on these providers, ethers' or `rawRpc`'s (RPC_MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
  clock?: Clock;
  /** Called with each URL's provider made (metrics count and time its calls). */
  onProvider?: (network: string, provider: JsonRpcProvider) => void;
  /** Health changes, answers and failures of each URL (metrics, log lines). */
  events?: PoolEvents;
  /** How long a URL may go without a call before a probe asks it (RPC_PROBE_INTERVAL_MS); absent: no probes. */
  probeIntervalMs?: number;
}

/** The pool behind each network's provider, for the calls that bypass ethers (`rawRpc`). */
const pools = new WeakMap<JsonRpcProvider, ProviderPool>();

/** The pool of URLs behind `provider`, when it is a network's provider. */
export function poolOf(provider: JsonRpcProvider): ProviderPool | undefined {
  return pools.get(provider);
}

const answerLimits = new WeakMap<JsonRpcProvider, number>();

/** The largest answer `rawRpc` reads on `provider`, in bytes. */
export function answerLimitOf(provider: JsonRpcProvider): number {
  return answerLimits.get(provider) ?? DEFAULT_MAX_ANSWER_BYTES;
}

/** Awaits an RPC call, turning node failures into the chain's upstream errors and letting everything else through. */
export async function rpc<T>(network: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw upstreamError(error, network) ?? error;
  }
}

/**
 * The network registry at run time: one JSON-RPC provider per configured network, which sends each call to one of
 * the network's URLs (a {@link ProviderPool}: the fastest healthy one, the next on failure).
 */
export class Networks {
  private readonly providers = new Map<string, JsonRpcProvider>();
  private readonly urlProviders: JsonRpcProvider[] = [];
  private probes: NodeJS.Timeout | undefined;

  constructor(
    private readonly rpcUrls: Readonly<Record<string, string | readonly string[]>>,
    private readonly timeoutMs: number,
    private readonly options: NetworksOptions = {},
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
    if (!info) throw unknownNetwork(name, this.configured());
    return { name, ...info };
  }

  /** The provider of `name`: `unknown_network`, or `network_unavailable` when it has no RPC URL. */
  provider(name: string): JsonRpcProvider {
    const { chainId } = this.info(name);
    let provider = this.providers.get(name);
    if (provider) return provider;
    const given = this.rpcUrls[name];
    const urls = given === undefined ? [] : typeof given === "string" ? [given] : given;
    if (urls.length === 0) throw networkUnavailable(name);
    const { cooldownMs = 5000, clock = systemClock, onProvider, events } = this.options;
    const labels = providerLabels(urls);
    const members = urls.map((url, i) => {
      const member = this.jsonRpcProvider(url, chainId);
      withoutEthersRetries(member);
      onProvider?.(name, member);
      this.urlProviders.push(member);
      return {
        url,
        label: labels[i],
        provider: member,
        backoff: new ProviderBackoff(name, this.timeoutMs, clock),
        health: new ProviderHealth(cooldownMs),
      };
    });
    const pool = new ProviderPool(name, members, events, clock);
    // The network's provider never sends itself: each call goes to the pool, which sends it on one URL's provider.
    provider = this.jsonRpcProvider(urls[0], chainId);
    // ethers resolves a JSON-RPC error as an answer: one that reports the provider's fault is thrown for the pool.
    provider._send = (payload) => pool.run(async (member) => withFaultsThrown(await member.provider._send(payload)));
    pools.set(provider, pool);
    this.providers.set(name, provider);
    return provider;
  }

  private jsonRpcProvider(url: string, chainId: number): JsonRpcProvider {
    const request = jsonRpcRequest(url, this.options.maxAnswerBytes);
    request.timeout = this.timeoutMs;
    // staticNetwork: no eth_chainId before each call, and no endless "failed to detect network" retries
    // while a node is down. batchMaxCount 1: ethers' batching would hold each call back by 10 ms. cacheTimeout -1:
    // ethers would serve an identical call's answer, a failure included, for 250 ms of wall time after it settled;
    // the service's own caches share calls in flight and keep answers per block, on the app's clock.
    const provider = new JsonRpcProvider(request, Network.from(chainId), { staticNetwork: true, batchMaxCount: 1, cacheTimeout: -1 });
    if (this.options.maxAnswerBytes !== undefined) answerLimits.set(provider, this.options.maxAnswerBytes);
    return provider;
  }

  /** Checks that the node of `name` answers and serves the chain id the registry says; throws an upstream error otherwise. */
  async check(name: string): Promise<void> {
    const provider = this.provider(name);
    const chainId = Number(await rpc(name, provider.send("eth_chainId", [])));
    const expected = this.info(name).chainId;
    if (chainId !== expected) throw wrongChain(name, chainId, expected);
  }

  /**
   * Probes every configured network's URLs every RPC_PROBE_INTERVAL_MS (those that were sent nothing for as long):
   * without it, a URL's health changed only when a call happened, and an idle instance reported a dead provider as up.
   */
  startProbes(): void {
    const { probeIntervalMs } = this.options;
    if (probeIntervalMs === undefined || this.probes) return;
    const probeAll = async () => {
      for (const name of this.configured()) {
        const pool = poolOf(this.provider(name));
        await pool?.probe(probeIntervalMs, async (member, payload) => withFaultsThrown(await member.provider._send(payload)));
      }
    };
    let running = false;
    this.probes = setInterval(() => {
      // One round at a time: a round waits at most RPC_TIMEOUT_MS per URL.
      if (running) return;
      running = true;
      probeAll()
        .catch(() => undefined)
        .finally(() => (running = false));
    }, probeIntervalMs);
    this.probes.unref();
  }

  close(): void {
    clearInterval(this.probes);
    this.probes = undefined;
    for (const provider of [...this.providers.values(), ...this.urlProviders]) provider.destroy();
    this.providers.clear();
    this.urlProviders.length = 0;
  }
}
