import { Interface } from "ethers";
import { decodeResult } from "../chain/abi-string";
import type { BlockCalls, CallOutcome } from "../chain/calls";
import { displayText } from "../lib/display-text";

const COLLECTION = new Interface([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function totalSupply() view returns (uint256)",
]);

/** Longest name and symbol served, in code points (longer ones are cut, with "…"). */
export const MAX_NAME = 200;
export const MAX_SYMBOL = 50;

/** What a collection's contract answers about itself; a function it does not answer (reverts, or garbage) is absent. */
export interface ChainFacts {
  name?: string;
  symbol?: string;
  totalSupply?: bigint;
}

const CALLS = [
  { fn: "name", data: COLLECTION.encodeFunctionData("name") },
  { fn: "symbol", data: COLLECTION.encodeFunctionData("symbol") },
  { fn: "totalSupply", data: COLLECTION.encodeFunctionData("totalSupply") },
] as const;

/**
 * name(), symbol() and totalSupply() of each contract at `block`, cached per block by `calls` and sent together as
 * deployless multicalls (one `eth_call` per hundred calls: three per contract). Names and symbols are cleaned and
 * bounded as shown (displayText).
 */
export async function readChainFacts(
  calls: BlockCalls,
  network: string,
  block: number,
  contracts: readonly string[],
): Promise<ChainFacts[]> {
  const outcomes = await calls.callsAt(
    network,
    block,
    contracts.flatMap((to) => CALLS.map(({ data }) => ({ to, data }))),
  );
  return contracts.map((_contract, i) => {
    const [name, symbol, totalSupply] = CALLS.map(({ fn }, j) => decoded(outcomes[i * CALLS.length + j], fn));
    const facts: ChainFacts = {};
    const cleanName = typeof name === "string" ? displayText(name, MAX_NAME) : null;
    const cleanSymbol = typeof symbol === "string" ? displayText(symbol, MAX_SYMBOL) : null;
    if (cleanName !== null) facts.name = cleanName;
    if (cleanSymbol !== null) facts.symbol = cleanSymbol;
    if (typeof totalSupply === "bigint") facts.totalSupply = totalSupply;
    return facts;
  });
}

/** The value a call answered, or undefined for a revert or an answer that does not decode. */
function decoded(outcome: CallOutcome, fn: string): unknown {
  if (!outcome.ok) return undefined;
  try {
    return decodeResult(COLLECTION, fn, outcome.data);
  } catch {
    return undefined;
  }
}
