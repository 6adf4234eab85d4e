import { rpc, type Networks } from "./networks";

interface Entry {
  block: number;
  at: number;
}

/**
 * The latest block number per network, read from the node at most once per `ttlMs` however many requests
 * ask: concurrent askers share one call in flight. With a TTL shorter than the block time the answer is at
 * most one block behind the node.
 */
export class HeadCache {
  private readonly cached = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<number>>();

  constructor(
    private readonly networks: Networks,
    private readonly ttlMs: number,
  ) {}

  async latest(network: string): Promise<number> {
    const entry = this.cached.get(network);
    if (entry && Date.now() - entry.at < this.ttlMs) return entry.block;
    let pending = this.inFlight.get(network);
    if (!pending) {
      const provider = this.networks.provider(network);
      pending = rpc(network, provider.getBlockNumber())
        .then((block) => {
          this.cached.set(network, { block, at: Date.now() });
          return block;
        })
        .finally(() => this.inFlight.delete(network));
      this.inFlight.set(network, pending);
    }
    return pending;
  }
}
