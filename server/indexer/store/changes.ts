import { arrayLiteral } from "../../db/arrays";
import type { Queryable } from "../../db/database";
import type { ChangedTransfer, MetadataMark } from "../transfers";
import { addressIds, bytes, networkId, networkIdOf } from "./ids";

/** The channel the indexer's commits notify (payload: the network) and live subscribers listen on. */
export const CHANGES_CHANNEL = "nft_changes";

/** Arbitrary constant: the transaction lock that makes change ids commit in the order they were drawn. */
const CHANGES_LOCK = 7_301_955_210;

/** How long the change log keeps rows (a subscriber away for longer resumes with a gap event). */
export const CHANGES_RETENTION = "1 day";

export type ChangeKind = "transfer" | "removed";

/**
 * The columns of a transfer in the change log, in the order a rows query for `appendTransferRows` gives them: the
 * compact layout's (addresses as ids of nft_addresses, the transaction hash as bytes), as nft_transfers holds them.
 */
export const CHANGE_COLUMNS = "block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount";

/**
 * Appends transfers to the change log, in the caller's transaction, and notifies listeners at its commit.
 * Writers of different networks append under one transaction lock: without it a later id could commit before an
 * earlier one and a reader that moved past it would never see the earlier row.
 */
export async function appendChanges(tx: Queryable, network: string, kind: ChangeKind, transfers: ChangedTransfer[]): Promise<void> {
  if (transfers.length === 0) return;
  const sorted = [...transfers].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex || batchIndex(a) - batchIndex(b));
  // Removals are announced newest first: the reverse of the order the transfers happened in.
  if (kind === "removed") sorted.reverse();
  const ids = await addressIds(
    tx,
    sorted.flatMap((t) => [t.contract, t.from, t.to]),
  );
  const id = (address: string) => ids.get(address)!;
  await appendTransferRows(
    tx,
    network,
    kind,
    `SELECT block_number, block_time, ${bytes("tx_hash")} AS tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount, n
     FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::int[], $7::int[], $8::int[], $9::numeric[], $10::int[], $11::int[], $12::numeric[])
     WITH ORDINALITY AS c(${CHANGE_COLUMNS}, n)`,
    "n",
    [
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
}

/**
 * Appends the transfers `rows` selects (CHANGE_COLUMNS and the columns of `orderBy`; `$1` is the network, which has
 * its id already, and `$2` the kind, its own parameters come after) to the change log, in the caller's transaction,
 * and notifies listeners at its commit. The rows may be read from tables the transaction just wrote, so that a range's
 * transfers are not sent to the database a second time.
 */
export async function appendTransferRows(
  tx: Queryable,
  network: string,
  kind: ChangeKind,
  rows: string,
  orderBy: string,
  params: readonly unknown[],
): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGES_LOCK]);
  // Ids are drawn in the order rows are inserted: the ORDER BY gives subscribers the order the transfers happened in.
  const { rowCount } = await tx.query(
    `INSERT INTO nft_changes (network_id, kind, ${CHANGE_COLUMNS})
     SELECT ${networkIdOf("$1")}, $2, ${CHANGE_COLUMNS} FROM (${rows}) c ORDER BY ${orderBy}`,
    [network, kind, ...params],
  );
  if (rowCount > 0) await notifyAndPrune(tx, network);
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
  await tx.query(
    `INSERT INTO nft_changes (network_id, kind, block_number, block_time, tx_hash, log_index, contract_id, token_id, to_token_id)
     SELECT $1, 'metadata', block_number, block_time, ${bytes("tx_hash")}, log_index, contract_id, token_id, to_token_id
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
  await tx.query("INSERT INTO nft_changes (network_id, kind) VALUES ($1, 'reset')", [net]);
  await notifyAndPrune(tx, network);
}

async function notifyAndPrune(tx: Queryable, network: string): Promise<void> {
  await tx.query(`DELETE FROM nft_changes WHERE created_at < now() - interval '${CHANGES_RETENTION}'`);
  await tx.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, network]);
}

/** The position of the id in its log: in a TransferBatch, or in a ConsecutiveTransfer's range. */
const batchIndex = (t: ChangedTransfer) => ("batchIndex" in t ? t.batchIndex : (t.rangeIndex ?? 0));
