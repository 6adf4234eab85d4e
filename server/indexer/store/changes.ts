import { arrayLiteral } from "../../db/arrays";
import type { Queryable } from "../../db/database";
import type { ChangedTransfer, MetadataMark } from "../transfers";
import { addressIds, networkId } from "./ids";

/** The channel the indexer's commits notify (payload: the network) and live subscribers listen on. */
export const CHANGES_CHANNEL = "nft_changes";

/** Arbitrary constant: the transaction lock that makes change ids commit in the order they were drawn. */
const CHANGES_LOCK = 7_301_955_210;

/** How long the change log keeps rows (a subscriber away for longer resumes with a gap event). */
export const CHANGES_RETENTION = "1 day";

export type ChangeKind = "transfer" | "removed";

/**
 * Appends transfers to the change log, in the caller's transaction, and notifies listeners at its commit.
 * Writers of different networks append under one transaction lock: without it a later id could commit before an
 * earlier one and a reader that moved past it would never see the earlier row.
 */
export async function appendChanges(
  tx: Queryable,
  changes: { network: string; kind: ChangeKind; transfers: ChangedTransfer[] },
): Promise<void> {
  const { network, kind, transfers } = changes;
  if (transfers.length === 0) return;
  const sorted = [...transfers].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex || batchIndex(a) - batchIndex(b));
  // Removals are announced newest first: the reverse of the order the transfers happened in.
  if (kind === "removed") sorted.reverse();
  const ids = await addressIds(
    tx,
    sorted.flatMap((t) => [t.contract, t.from, t.to]),
  );
  const id = (address: string) => ids.get(address)!;
  await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGES_LOCK]);
  // $1 network, $2 kind, then a column each, in the order given: $3 block, $4 block time, $5 transaction hash (hex),
  // $6 log index, $7 batch index, $8 contract id, $9 token id, $10 sender id, $11 receiver id, $12 amount.
  // Ids are drawn in the order rows are inserted: the ORDER BY gives subscribers the order the transfers happened in.
  const { rowCount } = await tx.query(
    `INSERT INTO nft_changes (network_id, kind, block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount)
     SELECT (SELECT id FROM indexer_networks WHERE name = $1), $2,
       block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount
     FROM (
       SELECT block_number, block_time, decode(substr(tx_hash, 3), 'hex') AS tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount, n
       FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::int[], $7::int[], $8::int[], $9::numeric[], $10::int[], $11::int[], $12::numeric[])
       WITH ORDINALITY AS c(block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount, n)
     ) c ORDER BY n`,
    [
      network,
      kind,
      arrayLiteral(sorted.map((t) => t.blockNumber)),
      arrayLiteral(sorted.map((t) => t.blockTime)),
      arrayLiteral(sorted.map((t) => t.txHash)),
      arrayLiteral(sorted.map((t) => t.logIndex)),
      arrayLiteral(sorted.map((t) => ("batchIndex" in t ? t.batchIndex : null))),
      arrayLiteral(sorted.map((t) => id(t.contract))),
      arrayLiteral(sorted.map((t) => t.tokenId)),
      arrayLiteral(sorted.map((t) => id(t.from))),
      arrayLiteral(sorted.map((t) => id(t.to))),
      arrayLiteral(sorted.map((t) => ("amount" in t ? t.amount : null))),
    ],
  );
  if (rowCount > 0) await notifyAndPrune(tx, network);
}

/**
 * Appends the transfers of both standards the caller's transaction wrote in blocks `firstBlock` to `lastBlock` to the
 * change log, and notifies listeners at its commit. Each block is written once, in the transaction that moves the
 * cursor past it, so these are the transfers of the range being written; they are read back from the tables rather
 * than sent to the database a second time. ERC-721 rows are copied as they lie in nft_transfers (with no batch index,
 * as they have no amount); ERC-1155 addresses are found in the dictionary, where the writer added them first.
 */
export async function appendWrittenTransfers(
  tx: Queryable,
  range: { network: string; networkId: number; firstBlock: number; lastBlock: number },
): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGES_LOCK]);
  // $1 network, $2 kind ('transfer'), $3 network id, $4 first block, $5 last block.
  // `position`, the id's place in its log, orders the ids of one log as they were written.
  const { rowCount } = await tx.query(
    `INSERT INTO nft_changes (network_id, kind, block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount)
     SELECT (SELECT id FROM indexer_networks WHERE name = $1), $2,
       block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount
     FROM (
       SELECT block_number, block_time, tx_hash, log_index, NULL::int AS batch_index, contract_id, token_id, from_id, to_id,
         NULL::numeric AS amount, batch_index AS position
       FROM nft_transfers WHERE network_id = $3 AND block_number BETWEEN $4 AND $5
       UNION ALL
       SELECT t.block_number, t.block_time, decode(substr(t.tx_hash, 3), 'hex'), t.log_index, t.batch_index, c.id, t.token_id, f.id, r.id,
         t.amount, t.batch_index
       FROM nft_1155_transfers t
       JOIN nft_addresses c ON c.address = decode(substr(t.contract, 3), 'hex')
       JOIN nft_addresses f ON f.address = decode(substr(t.from_address, 3), 'hex')
       JOIN nft_addresses r ON r.address = decode(substr(t.to_address, 3), 'hex')
       WHERE t.network = $1 AND t.block_number BETWEEN $4 AND $5
     ) c ORDER BY block_number, log_index, position`,
    [range.network, "transfer", range.networkId, range.firstBlock, range.lastBlock],
  );
  if (rowCount > 0) await notifyAndPrune(tx, range.network);
}

/**
 * Appends metadata changes to the change log (kind "metadata": token_id and to_token_id the inclusive range), in the
 * caller's transaction, one row per log whatever its range: a whole-collection update is one event.
 */
export async function appendMetadataChanges(tx: Queryable, network: string, marks: MetadataMark[]): Promise<void> {
  if (marks.length === 0) return;
  const net = await networkId(tx, network);
  const ids = await addressIds(
    tx,
    marks.map((m) => m.contract),
  );
  await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGES_LOCK]);
  const sorted = [...marks].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  // $1 network id, then a column each, in the order given: $2 block, $3 block time, $4 transaction hash (hex), $5 log
  // index, $6 contract id, $7 first token id, $8 last token id
  await tx.query(
    `INSERT INTO nft_changes (network_id, kind, block_number, block_time, tx_hash, log_index, contract_id, token_id, to_token_id)
     SELECT $1, 'metadata', block_number, block_time, decode(substr(tx_hash, 3), 'hex'), log_index, contract_id, token_id, to_token_id
     FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::int[], $6::int[], $7::numeric[], $8::numeric[])
     WITH ORDINALITY AS c(block_number, block_time, tx_hash, log_index, contract_id, token_id, to_token_id, n)
     ORDER BY n`,
    [
      net,
      sorted.map((m) => m.blockNumber),
      sorted.map((m) => m.blockTime ?? null),
      sorted.map((m) => m.txHash),
      sorted.map((m) => m.logIndex),
      sorted.map((m) => ids.get(m.contract)!),
      sorted.map((m) => m.fromTokenId.toString()),
      sorted.map((m) => m.toTokenId.toString()),
    ],
  );
  await notifyAndPrune(tx, network);
}

/** Records that a network's index started over (its chain was replaced): subscribers reload what they show. */
export async function appendReset(tx: Queryable, network: string): Promise<void> {
  const net = await networkId(tx, network);
  await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGES_LOCK]);
  // $1 network id
  await tx.query("INSERT INTO nft_changes (network_id, kind) VALUES ($1, 'reset')", [net]);
  await notifyAndPrune(tx, network);
}

async function notifyAndPrune(tx: Queryable, network: string): Promise<void> {
  await tx.query(`DELETE FROM nft_changes WHERE created_at < now() - interval '${CHANGES_RETENTION}'`);
  // $1 channel, $2 network
  await tx.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, network]);
}

/** The position of the id in its log: in a TransferBatch, or in a ConsecutiveTransfer's range. */
const batchIndex = (t: ChangedTransfer) => ("batchIndex" in t ? t.batchIndex : (t.rangeIndex ?? 0));
