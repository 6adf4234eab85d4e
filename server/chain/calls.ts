import { AbiCoder, isCallException, type CallExceptionError, type JsonRpcProvider } from "ethers";
import { DeploylessMulticall__factory } from "../../typechain-types";
import { BoundedCache } from "../lib/bounded-cache";
import { ChainError, nodeFailed, upstreamError, type NodeRpcError } from "./errors";
import type { HeadCache } from "./head";
import type { Networks } from "./networks";
import { rawRpc } from "./raw-rpc";

/** A contract call: the contract and the calldata. */
export interface Call {
  to: string;
  data: string;
}

/**
 * Most calls in one multicall, and the gas each may use: 100 × 200,000 keeps a batch within the 30M gas that nodes
 * commonly grant an `eth_call` by default, and 200,000 is far above what a view function of a token or the converter
 * costs.
 */
const MULTICALL_SIZE = 100;
const GAS_PER_CALL = 200_000n;

/** What a contract call gave: its result, or a revert (with its data when the node gave it); never a node failure. */
export type CallOutcome = { ok: true; data: string } | { ok: false; revertData?: string };

/**
 * Awaits an `eth_call` to `network`: a revert is an outcome for the caller to interpret (and to cache), a node
 * failure, a JSON-RPC error that is not a revert included, is thrown as the chain's upstream error (never cached),
 * anything else (our own bug) as it is.
 */
export async function callOutcome(network: string, call: Promise<string>): Promise<CallOutcome> {
  try {
    return { ok: true, data: await call };
  } catch (error) {
    const upstream = upstreamError(error, network);
    if (upstream) throw upstream;
    if (!isCallException(error)) throw error;
    if (!isRevert(error)) throw nodeFailed(network);
    return { ok: false, revertData: typeof error.data === "string" ? error.data : undefined };
  }
}

/**
 * An `eth_call` at the latest block sent with `rawRpc`, for a call whose answer may be large (a `tokenURI`, an ENS
 * text record: up to a few megabytes, whatever the contract returns). ethers' provider spends about a second of the
 * event loop on a 2 MB answer, during which the instance answers nothing; `fetch` reads it natively in tens of
 * milliseconds. A JSON-RPC error is thrown as ethers throws it for a call (a `CALL_EXCEPTION` carrying the node's
 * error and revert data), so {@link callOutcome} tells a revert from a node failure the same way for both.
 */
export async function rawCall(provider: JsonRpcProvider, call: { to?: string; data: string }): Promise<string> {
  let result: string;
  try {
    result = await rawRpc<string>(provider, "eth_call", [{ to: call.to, data: call.data }, "latest"], notHex);
  } catch (error) {
    // rawRpc's answer with the node's JSON-RPC error; any other failure is no call's outcome.
    if (!(error instanceof ChainError) || !error.error) throw error;
    throw new ChainError(error.message, "CALL_EXCEPTION", { data: revertData(error.error), info: { error: error.error } });
  }
  return result;
}

/** How deep revertData looks into a node's error: geth's data is at 1, Hardhat's at 2. */
const MAX_ERROR_DEPTH = 8;

/**
 * What is wrong with an eth_call answer that is not even hex-prefixed text (the decoders check the hex itself): checked
 * in rawRpc, so it is that provider's fault and the pool asks another URL.
 */
const notHex = (result: unknown) => (typeof result === "string" && /^0x/i.test(result.slice(0, 2)) ? undefined : "not hex");

/**
 * The revert data in a node's JSON-RPC error, found where ethers' provider finds it (its `spelunkData`): the first
 * object, at any depth or in a JSON string, whose message speaks of a revert and whose `data` is hex. geth puts it at
 * the top, Hardhat one level down. test/server/chain/raw-call.test.ts holds the two to the same answers. Unlike ethers'
 * search it stops a few levels down: an error nested deeper is no node's, and a hostile one must not exhaust the stack.
 */
function revertData(value: unknown, depth = 0): string | undefined {
  if (value === null || value === undefined || depth > MAX_ERROR_DEPTH) return undefined;
  if (typeof value === "string") {
    try {
      return revertData(JSON.parse(value), depth + 1);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== "object") return undefined;
  const { message, data } = value as { message?: unknown; data?: unknown };
  if (typeof message === "string" && /revert/i.test(message) && typeof data === "string" && /^0x[0-9a-f]*$/i.test(data)) return data;
  for (const inner of Object.values(value)) {
    const found = revertData(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** How nodes word a revert without revert data (geth's "execution reverted", Hardhat's "VM Exception…"). */
const REVERT_MESSAGE = /revert|VM Exception|invalid opcode|out of gas|stack (underflow|overflow)|invalid jump/i;

/**
 * Whether a `CALL_EXCEPTION` is the contract's revert rather than the node's failure. ethers makes every JSON-RPC
 * error of an `eth_call` a `CALL_EXCEPTION` (a rate limit in an HTTP 200, "header not found" at the newest block), so
 * the node's own error decides: revert data (`0x` too), code 3 (geth's revert with data) or a revert's wording. An
 * exception ethers raised itself, with no node error behind it, stays a revert.
 */
function isRevert(error: CallExceptionError): boolean {
  if (typeof error.data === "string") return true;
  const rpcError = error.info?.error as NodeRpcError | undefined;
  if (!rpcError) return true;
  if (rpcError.code === 3) return true;
  return typeof rpcError.message === "string" && REVERT_MESSAGE.test(rpcError.message);
}

/**
 * Blocks whose calls are kept per network, the newest by number: the head's and the index's, with a few behind them
 * for the reads still in flight. Calls are made at blocks the head cache or the index gave, so an answer at an older
 * block is not asked for again: keeping it would only hold memory until the bound pushed it out.
 */
const BLOCKS_KEPT = 4;

/**
 * `eth_call`s at the latest block, each answered once per block: the key names the head, so a new block asks the
 * node again and every request in between shares one answer. Outcomes as {@link callOutcome} gives them.
 */
export class BlockCalls {
  /** By network, the calls of its newest {@link BLOCKS_KEPT} blocks, each block's bounded by `maxPerBlock`. */
  private readonly blocks = new Map<string, Map<number, BoundedCache<CallOutcome>>>();

  constructor(
    private readonly networks: Networks,
    private readonly heads: HeadCache,
    private readonly maxPerBlock = 5_000,
  ) {}

  /**
   * The call at the latest block, and that block's number. `atLeast`: a block the caller already answered from (the
   * index's), so that the call never reads an older state than an answer the client may have seen (the head is cached).
   */
  async callAtHead(network: string, to: string, data: string, atLeast = 0): Promise<{ outcome: CallOutcome; block: number }> {
    const block = Math.max(await this.heads.latest(network), atLeast);
    return { outcome: await this.callAt(network, block, to, data), block };
  }

  async call(network: string, to: string, data: string, atLeast = 0): Promise<CallOutcome> {
    return (await this.callAtHead(network, to, data, atLeast)).outcome;
  }

  /** The call at `block` (a number the head cache gave, so that several reads see the same state). */
  async callAt(network: string, block: number, to: string, data: string): Promise<CallOutcome> {
    return this.cacheOf(network, block).getOrLoad(this.key({ to, data }), async () =>
      callOutcome(network, this.networks.provider(network).call({ to, data, blockTag: block })),
    );
  }

  /**
   * Each call at `block`, cached as {@link callAt} caches it; those the cache does not have (nor has in flight) go to
   * the node together, as deployless multicalls of up to {@link MULTICALL_SIZE} calls: one `eth_call` at the node
   * instead of one per call, which is what a paid provider bills.
   */
  async callsAt(network: string, block: number, calls: Call[]): Promise<CallOutcome[]> {
    const cache = this.cacheOf(network, block);
    const missing: Call[] = [];
    let batch: Promise<CallOutcome[]> | undefined;
    // getOrLoad calls its loader synchronously on a miss: every miss is in `missing` before the batch starts, after
    // this loop (a microtask later).
    const outcomes = calls.map((call) =>
      cache.getOrLoad(this.key(call), async () => {
        const index = missing.push(call) - 1;
        batch ??= Promise.resolve().then(() => this.multicall(network, block, missing));
        return (await batch)[index];
      }),
    );
    return Promise.all(outcomes);
  }

  private async multicall(network: string, block: number, calls: Call[]): Promise<CallOutcome[]> {
    const chunks: Call[][] = [];
    for (let start = 0; start < calls.length; start += MULTICALL_SIZE) chunks.push(calls.slice(start, start + MULTICALL_SIZE));
    return (await Promise.all(chunks.map((chunk) => this.multicallChunk(network, block, chunk)))).flat();
  }

  private async multicallChunk(network: string, block: number, calls: Call[]): Promise<CallOutcome[]> {
    const provider = this.networks.provider(network);
    if (calls.length === 1) return [await callOutcome(network, provider.call({ ...calls[0], blockTag: block }))];
    const { data } = await new DeploylessMulticall__factory().getDeployTransaction(
      calls.map((call) => call.to),
      calls.map((call) => call.data),
      GAS_PER_CALL,
    );
    const outcome = await callOutcome(network, provider.call({ data, blockTag: block }));
    // The multicall itself failed (a node granting less gas, or refusing calls without `to`): call by call instead.
    if (!outcome.ok) return mapInOrder(calls, (call) => callOutcome(network, provider.call({ ...call, blockTag: block })));
    let ok: boolean[];
    let results: string[];
    try {
      [ok, results] = AbiCoder.defaultAbiCoder().decode(["bool[]", "bytes[]"], outcome.data).toArray(true) as [boolean[], string[]];
    } catch {
      throw nodeFailed(network);
    }
    if (ok.length !== calls.length || results.length !== calls.length) throw nodeFailed(network);
    return calls.map((_call, i) => (ok[i] ? { ok: true, data: results[i] } : { ok: false, revertData: results[i] }));
  }

  /**
   * The calls of `block`, a new cache when it is among the newest blocks of `network`; an older block's calls are
   * made (and shared while in flight) but not kept. Only configured networks get one: `provider` throws otherwise.
   */
  private cacheOf(network: string, block: number): BoundedCache<CallOutcome> {
    this.networks.provider(network);
    let byBlock = this.blocks.get(network);
    if (!byBlock) this.blocks.set(network, (byBlock = new Map()));
    let cache = byBlock.get(block);
    if (!cache) {
      cache = new BoundedCache(this.maxPerBlock);
      byBlock.set(block, cache);
      if (byBlock.size > BLOCKS_KEPT) byBlock.delete(Math.min(...byBlock.keys()));
    }
    return cache;
  }

  private key(call: Call): string {
    return `${call.to}:${call.data}`;
  }
}

/** `fn` over `items` one after the other (a fallback that must not fire a burst of calls at the node). */
async function mapInOrder<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await fn(item));
  return results;
}
