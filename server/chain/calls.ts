import { BoundedCache } from "../lib/bounded-cache";
import { upstreamError } from "./errors";
import type { HeadCache } from "./head";
import type { Networks } from "./networks";

/** What a contract call gave: its result, or a revert (with its data when the node gave it); never a node failure. */
export type CallOutcome = { ok: true; data: string } | { ok: false; revertData?: string };

/**
 * Awaits an `eth_call` to `network`: a revert is an outcome for the caller to interpret, a node failure is thrown as
 * the chain's upstream error, anything else (our own bug) as it is.
 */
export async function callOutcome(network: string, call: Promise<string>): Promise<CallOutcome> {
  try {
    return { ok: true, data: await call };
  } catch (error) {
    const upstream = upstreamError(error, network);
    if (upstream) throw upstream;
    const e = error as { code?: string; data?: unknown };
    if (e.code === "CALL_EXCEPTION") return { ok: false, revertData: typeof e.data === "string" ? e.data : undefined };
    throw error;
  }
}

/**
 * `eth_call`s at the latest block, each answered once per block: the key names the head, so a new block asks the
 * node again and every request in between shares one answer. Outcomes as {@link callOutcome} gives them.
 */
export class BlockCalls {
  private readonly cache: BoundedCache<CallOutcome>;

  constructor(
    private readonly networks: Networks,
    private readonly heads: HeadCache,
    max = 20_000,
  ) {
    this.cache = new BoundedCache(max);
  }

  /** The call at the latest block, and that block's number. */
  async callAtHead(network: string, to: string, data: string): Promise<{ outcome: CallOutcome; block: number }> {
    const block = await this.heads.latest(network);
    return { outcome: await this.callAt(network, block, to, data), block };
  }

  async call(network: string, to: string, data: string): Promise<CallOutcome> {
    return (await this.callAtHead(network, to, data)).outcome;
  }

  /** The call at `block` (a number the head cache gave, so that several reads see the same state). */
  callAt(network: string, block: number, to: string, data: string): Promise<CallOutcome> {
    return this.cache.getOrLoad(`${network}:${block}:${to}:${data}`, async () =>
      callOutcome(network, this.networks.provider(network).call({ to, data, blockTag: block })),
    );
  }
}
