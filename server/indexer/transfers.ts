import { AbiCoder, id } from "ethers";

/** topic0 of `Transfer(address,address,uint256)`: shared by ERC-20 and ERC-721. */
export const TRANSFER_TOPIC = id("Transfer(address,address,uint256)");
/** topic0 of ERC-1155's `TransferSingle` and `TransferBatch`. */
export const TRANSFER_SINGLE_TOPIC = id("TransferSingle(address,address,address,uint256,uint256)");
export const TRANSFER_BATCH_TOPIC = id("TransferBatch(address,address,address,uint256[],uint256[])");
/** What the indexer asks eth_getLogs for: any of the three. */
export const NFT_TOPICS = [TRANSFER_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC];
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** A log as eth_getLogs answers it (hex strings, lower case). */
export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  /** Some nodes add the block's time (hex) to each log. */
  blockTimestamp?: string;
  removed?: boolean;
}

export interface Transfer {
  blockNumber: number;
  blockHash: string;
  logIndex: number;
  txHash: string;
  /** Lower case. */
  contract: string;
  tokenId: bigint;
  from: string;
  to: string;
  /** Unix time of the block, filled in by the indexer (logs do not carry it on every node). */
  blockTime?: number;
}

/**
 * An ERC-721 Transfer: topic0 and three indexed topics (from, to, tokenId) and no data. An ERC-20 Transfer has the
 * same topic0 but two indexed topics and the amount in data: it is not an NFT transfer and is skipped.
 */
export function decodeTransfer(log: RawLog): Transfer | undefined {
  if (log.removed || log.topics.length !== 4 || log.topics[0] !== TRANSFER_TOPIC || (log.data !== "0x" && log.data !== ""))
    return undefined;
  return {
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash,
    logIndex: Number(log.logIndex),
    txHash: log.transactionHash,
    contract: log.address.toLowerCase(),
    tokenId: BigInt(log.topics[3]),
    from: `0x${log.topics[1].slice(26)}`.toLowerCase(),
    to: `0x${log.topics[2].slice(26)}`.toLowerCase(),
  };
}

/** One id moved by an ERC-1155 TransferSingle or TransferBatch (`batchIndex`: its position in the batch). */
export interface Transfer1155 extends Transfer {
  batchIndex: number;
  amount: bigint;
}

const topicAddress = (topic: string) => `0x${topic.slice(26)}`.toLowerCase();
const abi = AbiCoder.defaultAbiCoder();

/**
 * The ids an ERC-1155 log moves: TransferSingle (operator, from, to indexed; id and value in data) or
 * TransferBatch (the same topics; ids and values arrays in data). A log that does not decode, or whose arrays
 * differ in length, is not a transfer we can trust: none.
 */
export function decodeTransfer1155(log: RawLog): Transfer1155[] {
  if (log.removed || log.topics.length !== 4) return [];
  const base = {
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash,
    logIndex: Number(log.logIndex),
    txHash: log.transactionHash,
    contract: log.address.toLowerCase(),
    from: topicAddress(log.topics[2]),
    to: topicAddress(log.topics[3]),
  };
  if (log.topics[0] === TRANSFER_SINGLE_TOPIC) {
    if (log.data.length !== 2 + 128) return [];
    return [{ ...base, batchIndex: 0, tokenId: BigInt(`0x${log.data.slice(2, 66)}`), amount: BigInt(`0x${log.data.slice(66, 130)}`) }];
  }
  if (log.topics[0] === TRANSFER_BATCH_TOPIC) {
    let ids: bigint[];
    let values: bigint[];
    try {
      const decoded = abi.decode(["uint256[]", "uint256[]"], log.data);
      ids = [...decoded[0]] as bigint[];
      values = [...decoded[1]] as bigint[];
    } catch {
      return [];
    }
    if (ids.length !== values.length) return [];
    return ids.map((tokenId, batchIndex) => ({ ...base, batchIndex, tokenId, amount: values[batchIndex] }));
  }
  return [];
}

/** A stored transfer of either table, as read back (batch_index and amount are NULL for ERC-721). */
export interface TransferRow {
  block_number: string;
  log_index: number;
  batch_index: number | null;
  block_time: string | null;
  tx_hash: string;
  contract: string;
  token_id: string;
  from_address: string;
  to_address: string;
  amount: string | null;
}
