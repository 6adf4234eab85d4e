import { AbiCoder, id } from "ethers";
import { decodeDelegation, DELEGATION_TOPICS, type DelegationEvent } from "./delegations";

/** topic0 of `Transfer(address,address,uint256)`: shared by ERC-20 and ERC-721. */
export const TRANSFER_TOPIC = id("Transfer(address,address,uint256)");
/** topic0 of ERC-1155's `TransferSingle` and `TransferBatch`. */
export const TRANSFER_SINGLE_TOPIC = id("TransferSingle(address,address,address,uint256,uint256)");
export const TRANSFER_BATCH_TOPIC = id("TransferBatch(address,address,address,uint256[],uint256[])");
/** topic0 of ERC-2309's `ConsecutiveTransfer`: one log moving a range of ERC-721 ids. */
export const CONSECUTIVE_TRANSFER_TOPIC = id("ConsecutiveTransfer(uint256,uint256,address,address)");
/** The NFT transfer topics: any of the four. */
export const NFT_TOPICS = [TRANSFER_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC, CONSECUTIVE_TRANSFER_TOPIC];
/** topic0 of ERC-4906's `MetadataUpdate` and `BatchMetadataUpdate` (no indexed argument: the ids are in data). */
export const METADATA_UPDATE_TOPIC = id("MetadataUpdate(uint256)");
export const BATCH_METADATA_UPDATE_TOPIC = id("BatchMetadataUpdate(uint256,uint256)");
/** topic0 of ERC-1155's `URI(string value, uint256 indexed id)`. */
export const URI_TOPIC = id("URI(string,uint256)");
/** The events that say a token's metadata changed. */
/** topic0 of ERC-7572's `ContractURIUpdated()`: the contract-level metadata changed. */
export const CONTRACT_URI_UPDATED_TOPIC = id("ContractURIUpdated()");
/**
 * The id a mark names the contract-level metadata by: no token has it (ids are unsigned), and the metadata cache keeps
 * the collection's document under it.
 */
export const COLLECTION_TOKEN_ID = -1n;
export const METADATA_TOPICS = [METADATA_UPDATE_TOPIC, BATCH_METADATA_UPDATE_TOPIC, URI_TOPIC, CONTRACT_URI_UPDATED_TOPIC];
/** What the indexer asks eth_getLogs for: transfers, metadata changes and the delegate registry's delegations. */
export const INDEXED_TOPICS = [...NFT_TOPICS, ...METADATA_TOPICS, ...DELEGATION_TOPICS];
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

const topicAddress = (topic: string) => `0x${topic.slice(26)}`.toLowerCase();
const lowerCase = (hex: string) => hex.toLowerCase();
const itself = (hex: string) => hex;

/**
 * A conversion of hex text that keeps its last input and output: the logs of a run repeat their block, transaction,
 * contract and accounts, which are then converted once and share one string (one key to hash in the writer's maps,
 * and no copy per log kept while the range is written).
 */
class LastOf {
  private input: string | undefined;
  private output = "";

  constructor(private readonly convert: (hex: string) => string) {}

  of(hex: string): string {
    if (hex !== this.input) {
      this.input = hex;
      this.output = this.convert(hex);
    }
    return this.output;
  }
}

/** The values the logs of one answer share, decoded once per run (see {@link LastOf}). */
export class SharedValues {
  readonly blockHash = new LastOf(itself);
  readonly txHash = new LastOf(itself);
  readonly contract = new LastOf(lowerCase);
  readonly from = new LastOf(topicAddress);
  readonly to = new LastOf(topicAddress);
  private blockText: string | undefined;
  private block = 0;

  blockNumber(text: string): number {
    if (text !== this.blockText) {
      this.blockText = text;
      this.block = Number(text);
    }
    return this.block;
  }
}

/** Where a log is and what it moves between: the fields every transfer of it shares. */
const logBase = (log: RawLog, fromTopic: string, toTopic: string, shared: SharedValues) => ({
  blockNumber: shared.blockNumber(log.blockNumber),
  blockHash: shared.blockHash.of(log.blockHash),
  logIndex: Number(log.logIndex),
  txHash: shared.txHash.of(log.transactionHash),
  contract: shared.contract.of(log.address),
  from: shared.from.of(fromTopic),
  to: shared.to.of(toTopic),
});

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** 32 bytes of hex (a hash, a topic). */
export const HEX_WORD = /^0x[0-9a-fA-F]{64}$/;
/** A hex quantity a JavaScript number holds exactly (a block number, a log index, a timestamp). */
export const HEX_QUANTITY = /^0x[0-9a-fA-F]{1,13}$/;
/** Hex bytes, or nothing. */
export const HEX_DATA = /^(?:0x(?:[0-9a-fA-F]{2})*)?$/;

/**
 * What is wrong with an eth_getLogs answer, or undefined when every log has the fields the indexer reads, as hex of
 * their size. A provider that answers otherwise (a truncated hash, an address that is not hex) would otherwise stop
 * the indexer at the range's write for as long as it answered so; checked at the answer, it is that provider's fault
 * and another URL is asked.
 */
export function malformedLogs(logs: unknown): string | undefined {
  if (!Array.isArray(logs)) return "not a list of logs";
  // Logs of one block, one transaction, one contract repeat these: each distinct value is matched once in a row.
  let address: unknown, blockHash: unknown, transactionHash: unknown;
  // So do the topics at each place (an event's signature, a mint's sender, a lot's recipient).
  const topicsBefore: unknown[] = [];
  for (const log of logs as Array<Record<string, unknown> | null>) {
    if (typeof log !== "object" || log === null) return "a log that is not an object";
    if (log.address !== address) {
      if (typeof log.address !== "string" || !HEX_ADDRESS.test(log.address)) return "a log whose address is not 20 bytes of hex";
      address = log.address;
    }
    if (log.blockHash !== blockHash) {
      if (typeof log.blockHash !== "string" || !HEX_WORD.test(log.blockHash)) return "a log whose block hash is not 32 bytes of hex";
      blockHash = log.blockHash;
    }
    if (log.transactionHash !== transactionHash) {
      if (typeof log.transactionHash !== "string" || !HEX_WORD.test(log.transactionHash))
        return "a log whose transaction hash is not 32 bytes of hex";
      transactionHash = log.transactionHash;
    }
    const { topics, data, blockNumber, logIndex } = log;
    if (!Array.isArray(topics) || topics.length > 4) return "a log whose topics are not a list of at most four";
    for (let i = 0; i < topics.length; i++) {
      const topic: unknown = topics[i];
      if (topic === topicsBefore[i] || (i === 0 && INDEXED_TOPICS.includes(topic as string))) continue;
      if (typeof topic !== "string" || !HEX_WORD.test(topic)) return "a log whose topics are not 32 bytes of hex each";
      topicsBefore[i] = topic;
    }
    if (typeof data !== "string" || !HEX_DATA.test(data)) return "a log whose data is not hex bytes";
    if (typeof blockNumber !== "string" || !HEX_QUANTITY.test(blockNumber)) return "a log whose block number is not a hex quantity";
    if (typeof logIndex !== "string" || !HEX_QUANTITY.test(logIndex)) return "a log whose log index is not a hex quantity";
  }
  return undefined;
}

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
  /** ERC-721 from a ConsecutiveTransfer: the id's offset in the log's range (the ids of one log share its log index). */
  rangeIndex?: number;
}

/**
 * An ERC-721 Transfer: topic0 and three indexed topics (from, to, tokenId) and no data. An ERC-20 Transfer has the
 * same topic0 but two indexed topics and the amount in data: it is not an NFT transfer and is skipped.
 */
export function decodeTransfer(log: RawLog, shared = new SharedValues()): Transfer | undefined {
  const { topics } = log;
  if (log.removed || topics.length !== 4 || topics[0] !== TRANSFER_TOPIC || (log.data !== "0x" && log.data !== "")) return undefined;
  const transfer = logBase(log, topics[1], topics[2], shared) as Transfer;
  transfer.tokenId = BigInt(topics[3]);
  return transfer;
}

/** A ConsecutiveTransfer the indexer did not expand: more ids than its bound, or a reversed range. */
export interface SkippedRange {
  blockNumber: number;
  logIndex: number;
  txHash: string;
  contract: string;
  fromTokenId: bigint;
  toTokenId: bigint;
  from: string;
  to: string;
}

/**
 * An ERC-2309 ConsecutiveTransfer (fromTokenId, from and to indexed; toTokenId in data): each id of the inclusive
 * range fromTokenId–toTokenId as an ERC-721 transfer, when the range holds at most `max` ids. A longer or reversed
 * range is `skipped` (expanding it could cost any number of rows); a log of another shape is not one (undefined).
 */
export function decodeConsecutive(
  log: RawLog,
  max: number,
  shared = new SharedValues(),
): { transfers: Transfer[] } | { skipped: SkippedRange } | undefined {
  if (log.removed || log.topics.length !== 4 || log.topics[0] !== CONSECUTIVE_TRANSFER_TOPIC || log.data.length !== 2 + 64)
    return undefined;
  const fromTokenId = BigInt(log.topics[1]);
  const toTokenId = BigInt(log.data);
  const base = logBase(log, log.topics[2], log.topics[3], shared);
  if (toTokenId < fromTokenId || toTokenId - fromTokenId >= BigInt(max)) {
    const { blockHash: _, ...skipped } = base;
    return { skipped: { ...skipped, fromTokenId, toTokenId } };
  }
  const count = Number(toTokenId - fromTokenId) + 1;
  return { transfers: Array.from({ length: count }, (_, i) => ({ ...base, tokenId: fromTokenId + BigInt(i), rangeIndex: i })) };
}

/** A log saying the metadata of the ids `fromTokenId`–`toTokenId` (inclusive) of a contract changed. */
export interface MetadataMark {
  blockNumber: number;
  logIndex: number;
  txHash: string;
  blockTime?: number;
  /** Lower case. */
  contract: string;
  fromTokenId: bigint;
  toTokenId: bigint;
}

const word = (data: string, index: number) => BigInt(`0x${data.slice(2 + index * 64, 2 + (index + 1) * 64)}`);

/**
 * ERC-4906 `MetadataUpdate(uint256)` (one id in data), `BatchMetadataUpdate(uint256,uint256)` (the inclusive range in
 * data; `type(uint256).max` as its end names the whole collection), ERC-1155 `URI(string, uint256 indexed id)` and
 * ERC-7572 `ContractURIUpdated()` (the contract-level metadata: {@link COLLECTION_TOKEN_ID}).
 * A range is one mark whatever its width: nothing is expanded per id. A reversed range or another shape is none.
 */
export function decodeMetadataMark(log: RawLog): MetadataMark | undefined {
  if (log.removed) return undefined;
  const base = {
    blockNumber: Number(log.blockNumber),
    logIndex: Number(log.logIndex),
    txHash: log.transactionHash,
    contract: log.address.toLowerCase(),
  };
  const [topic0] = log.topics;
  if (topic0 === METADATA_UPDATE_TOPIC && log.topics.length === 1 && log.data.length === 2 + 64) {
    const id = word(log.data, 0);
    return { ...base, fromTokenId: id, toTokenId: id };
  }
  if (topic0 === BATCH_METADATA_UPDATE_TOPIC && log.topics.length === 1 && log.data.length === 2 + 128) {
    const [from, to] = [word(log.data, 0), word(log.data, 1)];
    return to < from ? undefined : { ...base, fromTokenId: from, toTokenId: to };
  }
  if (topic0 === URI_TOPIC && log.topics.length === 2) {
    const id = BigInt(log.topics[1]);
    return { ...base, fromTokenId: id, toTokenId: id };
  }
  if (topic0 === CONTRACT_URI_UPDATED_TOPIC && log.topics.length === 1)
    return { ...base, fromTokenId: COLLECTION_TOKEN_ID, toTokenId: COLLECTION_TOKEN_ID };
  return undefined;
}

/**
 * What one range's logs hold, in log order: ERC-721 transfers (ConsecutiveTransfer ranges expanded), ERC-1155 ones,
 * skipped ranges, metadata changes, the delegate registry's delegations.
 */
export interface DecodedLogs {
  transfers: Transfer[];
  transfers1155: Transfer1155[];
  skipped: SkippedRange[];
  marks: MetadataMark[];
  delegations: DelegationEvent[];
}

/**
 * Decodes eth_getLogs' answer. A ConsecutiveTransfer range of more than `maxConsecutive` ids is skipped, and so is one
 * that would take its block's expanded ids past `maxPerBlock` (counted in log order): a log of a few thousand gas
 * claims thousands of ids, and a block holds thousands of such logs.
 */
export function decodeLogs(logs: RawLog[], maxConsecutive: number, maxPerBlock: number): DecodedLogs {
  const decoded: DecodedLogs = { transfers: [], transfers1155: [], skipped: [], marks: [], delegations: [] };
  const shared = new SharedValues();
  let block: string | undefined;
  let expanded = 0;
  for (const log of logs) {
    const transfer = decodeTransfer(log, shared);
    if (transfer) {
      decoded.transfers.push(transfer);
      continue;
    }
    if (METADATA_TOPICS.includes(log.topics[0])) {
      const mark = decodeMetadataMark(log);
      if (mark) decoded.marks.push(mark);
      continue;
    }
    if (DELEGATION_TOPICS.includes(log.topics[0])) {
      const delegation = decodeDelegation(log);
      if (delegation) decoded.delegations.push(delegation);
      continue;
    }
    if (log.blockNumber !== block) [block, expanded] = [log.blockNumber, 0];
    const range = decodeConsecutive(log, Math.min(maxConsecutive, maxPerBlock - expanded), shared);
    if (range && "skipped" in range) decoded.skipped.push(range.skipped);
    else if (range) {
      expanded += range.transfers.length;
      decoded.transfers.push(...range.transfers);
    } else decoded.transfers1155.push(...decodeTransfer1155(log, shared));
  }
  return decoded;
}

/**
 * The ids a ConsecutiveTransfer log expands to: 0 for another log, and for a range that is not expanded (reversed,
 * or longer than `maxConsecutive`).
 */
function consecutiveWidth(log: RawLog, maxConsecutive: number): number {
  if (log.topics[0] !== CONSECUTIVE_TRANSFER_TOPIC || log.topics.length !== 4 || log.data.length !== 2 + 64) return 0;
  const ids = BigInt(log.data) - BigInt(log.topics[1]) + 1n;
  return ids >= 1n && ids <= BigInt(maxConsecutive) ? Number(ids) : 0;
}

/** The ids the ConsecutiveTransfers of `logs` expand to, each up to `maxConsecutive`, before any per-block bound. */
export function consecutiveIds(logs: RawLog[], maxConsecutive: number): number {
  let ids = 0;
  for (const log of logs) ids += consecutiveWidth(log, maxConsecutive);
  return ids;
}

/**
 * The ids an ERC-1155 TransferBatch claims, read from its ids array's length word without decoding it: 0 for another
 * log, and for one whose length cannot hold in its data (it does not decode, so it writes nothing). The arrays may
 * share their words, so a batch moves an id for every 32 bytes of data.
 */
function batchWidth(log: RawLog): number {
  if (log.topics[0] !== TRANSFER_BATCH_TOPIC || log.data.length < 2 + 128) return 0;
  const words = Math.floor((log.data.length - 2) / 64);
  const offset = BigInt(`0x${log.data.slice(2, 66)}`);
  if (offset % 32n !== 0n || offset / 32n >= BigInt(words)) return 0;
  const at = Number(offset / 32n);
  const length = BigInt(`0x${log.data.slice(2 + at * 64, 2 + at * 64 + 64)}`);
  return length <= BigInt(words - at - 1) ? Number(length) : 0;
}

/**
 * How many rows the logs would write, for sizing eth_getLogs ranges: a ConsecutiveTransfer counts the ids it expands
 * to (up to the bound) and a TransferBatch the ids it moves, so a block range of large mints or batches shrinks like
 * one of many logs.
 */
export function logWeight(logs: RawLog[], maxConsecutive: number): number {
  let weight = 0;
  for (const log of logs) weight += consecutiveWidth(log, maxConsecutive) || batchWidth(log) || 1;
  return weight;
}

/** One id moved by an ERC-1155 TransferSingle or TransferBatch (`batchIndex`: its position in the batch). */
export interface Transfer1155 extends Transfer {
  batchIndex: number;
  amount: bigint;
}

const abi = AbiCoder.defaultAbiCoder();

/**
 * The two `uint256[]` of a TransferBatch's data as every compiler lays them out (each array's offset a whole word,
 * inside the data, its length word and elements there), read word by word; undefined for any other layout, which
 * ethers' ABI decoder then reads (or refuses) as before. Its general decoder costs more per id than the rest of the
 * row's making.
 */
function wordArrays(data: string): [bigint[], bigint[]] | undefined {
  const words = (data.length - 2) / 64;
  if (!Number.isInteger(words) || words < 2) return undefined;
  const word = (index: number) => BigInt(`0x${data.slice(2 + index * 64, 2 + (index + 1) * 64)}`);
  const array = (offsetWord: number): bigint[] | undefined => {
    const offset = word(offsetWord);
    if (offset % 32n !== 0n || offset / 32n >= BigInt(words)) return undefined;
    const start = Number(offset / 32n);
    const length = word(start);
    if (length > BigInt(words - start - 1)) return undefined;
    const values = new Array<bigint>(Number(length));
    for (let i = 0; i < values.length; i++) values[i] = word(start + 1 + i);
    return values;
  };
  const ids = array(0);
  const values = ids && array(1);
  return ids && values ? [ids, values] : undefined;
}

/**
 * The ids an ERC-1155 log moves: TransferSingle (operator, from, to indexed; id and value in data) or
 * TransferBatch (the same topics; ids and values arrays in data). A log that does not decode, or whose arrays
 * differ in length, is not a transfer we can trust: none.
 */
export function decodeTransfer1155(log: RawLog, shared = new SharedValues()): Transfer1155[] {
  if (log.removed || log.topics.length !== 4) return [];
  const base = logBase(log, log.topics[2], log.topics[3], shared);
  if (log.topics[0] === TRANSFER_SINGLE_TOPIC) {
    if (log.data.length !== 2 + 128) return [];
    return [{ ...base, batchIndex: 0, tokenId: BigInt(`0x${log.data.slice(2, 66)}`), amount: BigInt(`0x${log.data.slice(66, 130)}`) }];
  }
  if (log.topics[0] === TRANSFER_BATCH_TOPIC) {
    let ids: bigint[];
    let values: bigint[];
    const words = wordArrays(log.data);
    if (words) [ids, values] = words;
    else {
      try {
        const decoded = abi.decode(["uint256[]", "uint256[]"], log.data);
        ids = [...decoded[0]] as bigint[];
        values = [...decoded[1]] as bigint[];
      } catch {
        return [];
      }
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
