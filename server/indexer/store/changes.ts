import type { Queryable } from "../../db/database";
import type { MetadataMark } from "../transfers";
import { addressIds, networkId } from "./ids";

/** The channel the indexer's commits notify (payload: the network) and live subscribers listen on. */
export const CHANGES_CHANNEL = "nft_changes";

/** Arbitrary constant: the transaction lock that makes change ids commit in the order they were drawn. */
const CHANGES_LOCK = 7_301_955_210;

/**
 * How long the change log keeps rows (a subscriber away for longer resumes with a gap event), unless a hold keeps
 * them longer (`holdChanges`).
 */
export const CHANGES_RETENTION = "1 day";

export type ChangeKind = "transfer" | "removed";

/**
 * Appends the transfers of both standards in blocks `firstBlock` to `lastBlock` to the change log, and notifies
 * listeners at its commit: kind "transfer", those the caller's transaction wrote, in the order they happened; kind
 * "removed", those a rollback is about to delete, newest first (the reverse of that order). Each block is written once,
 * in the transaction that moves the cursor past it, so the tables hold exactly these transfers; they are copied as they
 * lie, ids and bytes, rather than sent to the database again. An ERC-721 row gets no batch index, as it has no amount:
 * the wire shows an id's position in its log for ERC-1155 only.
 * Writers of different networks append under one transaction lock: without it a later id could commit before an
 * earlier one and a reader that moved past it would never see the earlier row.
 */
export async function appendTransfers(
  tx: Queryable,
  range: { network: string; networkId: number; kind: ChangeKind; firstBlock: number; lastBlock: number },
): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGES_LOCK]);
  // $1 network id, $2 kind, $3 first block, $4 last block, $5 1 (oldest first) or -1 (newest first).
  // Ids are drawn in the order rows are inserted: the ORDER BY gives subscribers the order of the kind.
  const { rowCount } = await tx.query(
    `INSERT INTO nft_changes (network_id, kind, block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount)
     SELECT $1, $2, block_number, block_time, tx_hash, log_index, CASE WHEN amount IS NULL THEN NULL ELSE batch_index END,
       contract_id, token_id, from_id, to_id, amount
     FROM (
       SELECT block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, NULL::numeric AS amount
       FROM nft_transfers WHERE network_id = $1 AND block_number BETWEEN $3 AND $4
       UNION ALL
       SELECT block_number, block_time, tx_hash, log_index, batch_index, contract_id, token_id, from_id, to_id, amount
       FROM nft_1155_transfers WHERE network_id = $1 AND block_number BETWEEN $3 AND $4
     ) t ORDER BY $5::int * block_number, $5::int * log_index, $5::int * batch_index`,
    [range.networkId, range.kind, range.firstBlock, range.lastBlock, range.kind === "removed" ? -1 : 1],
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

/**
 * Records, before a rollback logs what it undoes, that the blocks of `network` above `ancestor` (-1: all of them, the
 * index starting over) are undone, and the head its index had reached: a reader that waits for confirmations tells
 * from these whether a change was undone before it was deep enough (docs/reference/webhooks.md#confirmations).
 */
export async function appendRollback(tx: Queryable, network: string, ancestor: number): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGES_LOCK]);
  // $1 network, $2 the ancestor's block. Under the lock no other writer appends: the rollback's own rows come after max(id).
  await tx.query(
    `INSERT INTO nft_change_rollbacks (network_id, change_id, ancestor_block, head_block)
     SELECT n.id, (SELECT coalesce(max(id), 0) FROM nft_changes), $2, coalesce(c.block_number, $2)
     FROM indexer_networks n LEFT JOIN indexer_cursors c ON c.network = n.name WHERE n.name = $1`,
    [network, ancestor],
  );
}

/** Records that a network's index started over (its chain was replaced): subscribers reload what they show. */
export async function appendReset(tx: Queryable, network: string): Promise<void> {
  const net = await networkId(tx, network);
  await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGES_LOCK]);
  // $1 network id
  await tx.query("INSERT INTO nft_changes (network_id, kind) VALUES ($1, 'reset')", [net]);
  await notifyAndPrune(tx, network);
}

/**
 * Keeps every change after `afterId` in the log, however old, until the holder moves its hold on (or drops it with
 * null): a reader with a durable position (a webhook subscription) reads what it has not delivered even after the
 * log's day. The holder bounds how far back it holds.
 */
export async function holdChanges(db: Queryable, holder: string, afterId: bigint | null): Promise<void> {
  if (afterId === null) {
    // $1 holder
    await db.query("DELETE FROM nft_change_holds WHERE holder = $1", [holder]);
    return;
  }
  // $1 holder, $2 keep every change after this id
  await db.query(
    `INSERT INTO nft_change_holds (holder, after_id) VALUES ($1, $2)
     ON CONFLICT (holder) DO UPDATE SET after_id = excluded.after_id`,
    [holder, afterId.toString()],
  );
}

async function notifyAndPrune(tx: Queryable, network: string): Promise<void> {
  await tx.query(
    `DELETE FROM nft_changes WHERE created_at < now() - interval '${CHANGES_RETENTION}'
       AND id <= (SELECT coalesce(min(after_id), 9223372036854775807) FROM nft_change_holds)`,
  );
  // A rollback is read with the changes logged before it: it goes once they have.
  await tx.query("DELETE FROM nft_change_rollbacks WHERE change_id < (SELECT min(id) FROM nft_changes)");
  // $1 channel, $2 network
  await tx.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, network]);
}
