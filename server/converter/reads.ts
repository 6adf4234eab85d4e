import { getAddress, Interface, ZeroAddress } from "ethers";
import type { BlockCalls, CallOutcome } from "../chain/calls";
import type { HeadCache } from "../chain/head";
import { BoundedCache } from "../lib/bounded-cache";
import { DomainError } from "../lib/domain-error";

const CONVERTER = new Interface([
  "function alice() view returns (address)",
  "function bob() view returns (address)",
  "function paused() view returns (bool)",
  "function reverseConversionEnabled() view returns (bool)",
  "function bobIdOf(uint256 aliceId) view returns (bool paired, uint256 bobId)",
  "function aliceIdOf(uint256 bobId) view returns (bool paired, uint256 aliceId)",
]);
const ERC721 = new Interface([
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function balanceOf(address owner) view returns (uint256)",
  "function name() view returns (string)",
]);

export type Side = "alice" | "bob";

const PAIR_CONCURRENCY = 16;

/** Why a token cannot be converted now, most lasting reason first. */
export type Refusal = "not_paired" | "reverse_conversion_disabled" | "paused" | "out_of_stock";

export interface ConverterState {
  network: string;
  converter: string;
  /** The block every value was read at. */
  block: number;
  alice: string;
  bob: string;
  /** The tokens' ERC-721 `name()`, or null when they have none. */
  names: { alice: string | null; bob: string | null };
  paused: boolean;
  reverseConversionEnabled: boolean;
  /** Tokens of each contract the converter holds. */
  stock: { alice: bigint; bob: bigint };
}

export interface PairAnswer {
  id: bigint;
  /** The paired token id on the other side, null when not paired. */
  counterpart: bigint | null;
  convertible: boolean;
  reason: Refusal | null;
}

/** The address does not answer the converter's ABI on that network (no code, or another contract). */
export class NotConverterError extends DomainError {
  constructor(network: string, address: string) {
    super("not_found", "not_found", `${address} is not an NFT converter on ${network}`);
  }
}

/**
 * Reads a converter's state and its pairs from the chain, every value of one answer at one block, each eth_call
 * cached per block (shared with the other chain reads).
 */
export class ConverterReads {
  // Alice and Bob are immutable: once a converter has answered, its tokens are known for good.
  private readonly tokens = new BoundedCache<{ alice: string; bob: string }>(1_000);
  private readonly names = new BoundedCache<string | null>(1_000);

  constructor(
    private readonly calls: BlockCalls,
    private readonly heads: HeadCache,
  ) {}

  async state(network: string, converter: string): Promise<ConverterState> {
    const block = await this.heads.latest(network);
    const { alice, bob } = await this.tokensOf(network, converter, block);
    const [paused, reverse, aliceStock, bobStock, aliceName, bobName] = await Promise.all([
      this.read<boolean>(network, block, converter, CONVERTER, "paused"),
      this.read<boolean>(network, block, converter, CONVERTER, "reverseConversionEnabled"),
      this.read<bigint>(network, block, alice, ERC721, "balanceOf", [converter]),
      this.read<bigint>(network, block, bob, ERC721, "balanceOf", [converter]),
      this.nameOf(network, block, alice),
      this.nameOf(network, block, bob),
    ]);
    if (paused === undefined || reverse === undefined) throw new NotConverterError(network, converter);
    return {
      network,
      converter,
      block,
      alice,
      bob,
      names: { alice: aliceName, bob: bobName },
      paused,
      reverseConversionEnabled: reverse,
      stock: { alice: aliceStock ?? 0n, bob: bobStock ?? 0n },
    };
  }

  /** For each id of `side`: its counterpart, and whether a holder can convert it now (and why not). */
  async pairs(network: string, converter: string, side: Side, ids: bigint[]): Promise<{ block: number; pairs: PairAnswer[] }> {
    const state = await this.state(network, converter);
    const { block } = state;
    const counterToken = side === "alice" ? state.bob : state.alice;
    // At most PAIR_CONCURRENCY ids in flight: a full request is up to 200 calls, which a provider may rate-limit.
    const pairs = await mapLimited(ids, PAIR_CONCURRENCY, async (id): Promise<PairAnswer> => {
      const pairing = await this.read<[boolean, bigint]>(network, block, converter, CONVERTER, side === "alice" ? "bobIdOf" : "aliceIdOf", [
        id,
      ]);
      if (!pairing || !pairing[0]) return { id, counterpart: null, convertible: false, reason: "not_paired" };
      const counterpart = pairing[1];
      let reason: Refusal | null = null;
      if (side === "bob" && !state.reverseConversionEnabled) reason = "reverse_conversion_disabled";
      else if (state.paused) reason = "paused";
      else {
        const holder = await this.read<string>(network, block, counterToken, ERC721, "ownerOf", [counterpart]);
        if (holder?.toLowerCase() !== converter.toLowerCase()) reason = "out_of_stock";
      }
      return { id, counterpart, convertible: reason === null, reason };
    });
    return { block, pairs };
  }

  private async tokensOf(network: string, converter: string, block: number) {
    const key = `${network}:${converter}`;
    const known = this.tokens.get(key);
    if (known) return known;
    const [alice, bob] = await Promise.all([
      this.read<string>(network, block, converter, CONVERTER, "alice"),
      this.read<string>(network, block, converter, CONVERTER, "bob"),
    ]);
    if (!alice || !bob || alice === ZeroAddress || bob === ZeroAddress) throw new NotConverterError(network, converter);
    const tokens = { alice: getAddress(alice), bob: getAddress(bob) };
    this.tokens.set(key, tokens);
    return tokens;
  }

  private nameOf(network: string, block: number, token: string): Promise<string | null> {
    return this.names.getOrLoad(
      `${network}:${token}`,
      async () => (await this.read<string>(network, block, token, ERC721, "name")) ?? null,
    );
  }

  /** One decoded value (a tuple when the function returns several), or undefined for a revert or an answer that does not decode. */
  private async read<T>(
    network: string,
    block: number,
    to: string,
    abi: Interface,
    fn: string,
    args: unknown[] = [],
  ): Promise<T | undefined> {
    const outcome: CallOutcome = await this.calls.callAt(network, block, to, abi.encodeFunctionData(fn, args));
    if (!outcome.ok) return undefined;
    try {
      const result = abi.decodeFunctionResult(fn, outcome.data);
      return (result.length === 1 ? result[0] : result.toArray()) as T;
    } catch {
      return undefined;
    }
  }
}

/** `map` over `items` with at most `limit` calls of `fn` in flight; results in the order of `items`. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
