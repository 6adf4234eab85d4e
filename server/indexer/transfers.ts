import { id } from "ethers";

/** topic0 of `Transfer(address,address,uint256)`: shared by ERC-20 and ERC-721. */
export const TRANSFER_TOPIC = id("Transfer(address,address,uint256)");
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
}

/**
 * An ERC-721 Transfer: topic0 and three indexed topics (from, to, tokenId) and no data. An ERC-20 Transfer has the
 * same topic0 but two indexed topics and the amount in data: it is not an NFT transfer and is skipped.
 */
export function decodeTransfer(log: RawLog): Transfer | undefined {
  if (log.removed || log.topics.length !== 4 || log.topics[0] !== TRANSFER_TOPIC || (log.data !== "0x" && log.data !== "")) return undefined;
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
