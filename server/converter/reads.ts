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

/** One contract read: a function of an ABI on a contract, with its arguments. */
interface Read {
  to: string;
  abi: Interface;
  fn: string;
  args?: unknown[];
}

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
 * cached per block (shared with the other chain reads). The reads of one step go to the node as one batch (a
 * deployless multicall): a pairs request for 100 ids costs the node three `eth_call`s, not two hundred.
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
    const [[paused, reverse, aliceStock, bobStock], aliceName, bobName] = await Promise.all([
      this.readMany(network, block, [
        { to: converter, abi: CONVERTER, fn: "paused" },
        { to: converter, abi: CONVERTER, fn: "reverseConversionEnabled" },
        { to: alice, abi: ERC721, fn: "balanceOf", args: [converter] },
        { to: bob, abi: ERC721, fn: "balanceOf", args: [converter] },
      ]) as Promise<[boolean | undefined, boolean | undefined, bigint | undefined, bigint | undefined]>,
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
    // Two batches: every id's pairing, then who holds each counterpart that matters.
    const pairings = (await this.readMany(
      network,
      block,
      ids.map((id) => ({ to: converter, abi: CONVERTER, fn: side === "alice" ? "bobIdOf" : "aliceIdOf", args: [id] })),
    )) as ([boolean, bigint] | undefined)[];
    // Why each id cannot convert, as far as the pairing and the switches tell; undefined: it depends on the stock.
    const reasons = pairings.map((pairing): Refusal | undefined => {
      if (!pairing || !pairing[0]) return "not_paired";
      if (side === "bob" && !state.reverseConversionEnabled) return "reverse_conversion_disabled";
      return state.paused ? "paused" : undefined;
    });
    const stockIds = pairings.flatMap((pairing, i) => (reasons[i] === undefined ? [pairing![1]] : []));
    const holders = await this.readMany(
      network,
      block,
      stockIds.map((counterpart) => ({ to: counterToken, abi: ERC721, fn: "ownerOf", args: [counterpart] })),
    );
    const inStock = new Set(stockIds.filter((_id, i) => String(holders[i]).toLowerCase() === converter.toLowerCase()));
    const pairs = ids.map((id, i): PairAnswer => {
      const counterpart = reasons[i] === "not_paired" ? null : pairings[i]![1];
      const reason = reasons[i] ?? (inStock.has(counterpart!) ? null : "out_of_stock");
      return { id, counterpart, convertible: reason === null, reason };
    });
    return { block, pairs };
  }

  private async tokensOf(network: string, converter: string, block: number) {
    const key = `${network}:${converter}`;
    const known = this.tokens.get(key);
    if (known) return known;
    const [alice, bob] = (await this.readMany(network, block, [
      { to: converter, abi: CONVERTER, fn: "alice" },
      { to: converter, abi: CONVERTER, fn: "bob" },
    ])) as (string | undefined)[];
    if (!alice || !bob || alice === ZeroAddress || bob === ZeroAddress) throw new NotConverterError(network, converter);
    const tokens = { alice: getAddress(alice), bob: getAddress(bob) };
    this.tokens.set(key, tokens);
    return tokens;
  }

  private nameOf(network: string, block: number, token: string): Promise<string | null> {
    return this.names.getOrLoad(
      `${network}:${token}`,
      async () => ((await this.readMany(network, block, [{ to: token, abi: ERC721, fn: "name" }]))[0] as string | undefined) ?? null,
    );
  }

  /**
   * Each read's decoded value (a tuple when the function returns several), or undefined for a revert or an answer that
   * does not decode; the reads the cache does not have go to the node as one batch.
   */
  private async readMany(network: string, block: number, reads: Read[]): Promise<unknown[]> {
    const outcomes = await this.calls.callsAt(
      network,
      block,
      reads.map(({ to, abi, fn, args = [] }) => ({ to, data: abi.encodeFunctionData(fn, args) })),
    );
    return outcomes.map((outcome, i) => decoded(reads[i], outcome));
  }
}

function decoded({ abi, fn }: Read, outcome: CallOutcome): unknown {
  if (!outcome.ok) return undefined;
  try {
    const result = abi.decodeFunctionResult(fn, outcome.data);
    return result.length === 1 ? result[0] : result.toArray();
  } catch {
    return undefined;
  }
}
