import type { Queryable } from "../../db/database";
import type { SkippedRange } from "../transfers";

/**
 * The ConsecutiveTransfer ranges the indexer did not expand (nft_skipped_ranges): a contract with one is not fully
 * indexed, and the answers about it say so (each page statement about one contract reads it, reads.ts). Written in the indexer's range transaction; a reorg removes the ranges
 * of the blocks it undoes (rollBack) and a reset all of a network's.
 */
export async function recordSkipped(tx: Queryable, network: string, ranges: SkippedRange[]): Promise<void> {
  if (ranges.length === 0) return;
  // $1 network, then a column each: $2 block, $3 log index, $4 transaction hash, $5 contract, $6 first id, $7 last id,
  // $8 sender, $9 receiver
  await tx.query(
    `INSERT INTO nft_skipped_ranges (network, block_number, log_index, tx_hash, contract, from_token_id, to_token_id, from_address, to_address)
     SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::numeric[], $7::numeric[], $8::text[], $9::text[])`,
    [
      network,
      ranges.map((r) => r.blockNumber),
      ranges.map((r) => r.logIndex),
      ranges.map((r) => r.txHash),
      ranges.map((r) => r.contract),
      ranges.map((r) => r.fromTokenId.toString()),
      ranges.map((r) => r.toTokenId.toString()),
      ranges.map((r) => r.from),
      ranges.map((r) => r.to),
    ],
  );
}

/** Forgets the skipped ranges above block `ancestor` (a reorg undid them). */
export async function rollBackSkipped(tx: Queryable, network: string, ancestor: number): Promise<void> {
  // $1 network, $2 the ancestor's block
  await tx.query("DELETE FROM nft_skipped_ranges WHERE network = $1 AND block_number > $2", [network, ancestor]);
}
