import type { RawLog } from "../../server/indexer/transfers";

/** `n` as one 32-byte ABI word: 64 hex digits, without 0x. */
export const word = (n: number | bigint): string => n.toString(16).padStart(64, "0");

/** `n` as a 32-byte value with its 0x: a block or transaction hash, a number topic. */
export const hash = (n: number | bigint): string => `0x${word(n)}`;

/** An address as a topic: left-padded to 32 bytes. */
export const addressTopic = (address: string): string => `0x${address.slice(2).padStart(64, "0")}`;

/**
 * A log as eth_getLogs answers it, with `topics`: of the first contract the local node deploys, the first of block
 * 0x1a, unless `fields` say otherwise.
 */
export const rawLog = (topics: string[], fields: Partial<RawLog> = {}): RawLog => ({
  address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  topics,
  data: "0x",
  blockNumber: "0x1a",
  blockHash: hash(1000),
  transactionHash: hash(2000),
  logIndex: "0x0",
  removed: false,
  ...fields,
});
