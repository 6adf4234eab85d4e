import { BoundedCache } from "../lib/bounded-cache";
import type { Clock } from "../lib/clock";
import { rpc, type Networks } from "./networks";
import { NETWORKS } from "./registry";

/**
 * The latest block number per network, read from the node at most once per `ttlMs` however many requests
 * ask: concurrent askers share one call in flight. With a TTL shorter than the block time the answer is at
 * most one block behind the node.
 */
export class HeadCache {
  // One entry per network of the registry: names outside it never reach the cache (the provider refuses them).
  private readonly cache: BoundedCache<number>;

  constructor(
    private readonly networks: Networks,
    ttlMs: number,
    now: Clock,
  ) {
    this.cache = new BoundedCache(Object.keys(NETWORKS).length, { ttlMs, now });
  }

  latest(network: string): Promise<number> {
    return this.cache.getOrLoad(network, async () => rpc(network, this.networks.provider(network).getBlockNumber()));
  }
}
