import type { JsonRpcProvider } from "ethers";
import { rawRpc } from "../chain/raw-rpc";
import { retryUpstream } from "../chain/retry";
import { HEX_DATA, HEX_QUANTITY, HEX_WORD } from "./transfers";

/** What the indexer reads of a block's header. */
export interface Header {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  logsBloom: string;
}

/** A header as eth_getBlockByNumber answers it (with the hashes of its transactions, which are not read). */
interface RawHeader {
  hash: string;
  parentHash: string;
  timestamp: string;
  logsBloom: string;
}

/**
 * What is wrong with an eth_getBlockByNumber answer, or undefined when it is null (no such block yet) or has the
 * fields the indexer reads, as hex of their size. A provider that answers otherwise is asked no more for this call:
 * it is its fault, and another URL is asked, as for a malformed eth_getLogs answer.
 */
export function malformedHeader(block: unknown): string | undefined {
  if (block === null) return undefined;
  if (typeof block !== "object" || Array.isArray(block)) return "not a block";
  const { hash, parentHash, timestamp, logsBloom } = block as Record<string, unknown>;
  if (typeof hash !== "string" || !HEX_WORD.test(hash)) return "a block whose hash is not 32 bytes of hex";
  if (typeof parentHash !== "string" || !HEX_WORD.test(parentHash)) return "a block whose parent hash is not 32 bytes of hex";
  if (typeof timestamp !== "string" || !HEX_QUANTITY.test(timestamp)) return "a block whose timestamp is not a hex quantity";
  if (typeof logsBloom !== "string" || !HEX_DATA.test(logsBloom)) return "a block whose logsBloom is not hex bytes";
  return undefined;
}

/**
 * The header of block `number`, or undefined when the node has none (yet). Read as `rawRpc` reads eth_getLogs: a
 * header carries the hashes of its block's transactions (hundreds on a busy network), which ethers' provider decoded
 * in JavaScript for each header of a sync.
 */
export async function readHeader(network: string, provider: JsonRpcProvider, number: number): Promise<Header | undefined> {
  const block = await retryUpstream(network, () =>
    rawRpc<RawHeader | null>(provider, "eth_getBlockByNumber", [`0x${number.toString(16)}`, false], malformedHeader),
  );
  return block
    ? { number, hash: block.hash, parentHash: block.parentHash, timestamp: Number(block.timestamp), logsBloom: block.logsBloom }
    : undefined;
}
