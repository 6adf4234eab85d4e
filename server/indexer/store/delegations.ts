import type { Queryable } from "../../db/database";
import { DELEGATION_KINDS, type DelegationEvent } from "../delegations";

/**
 * The delegate registry's delegations (nft_delegations): one row per DelegateAll, DelegateContract or DelegateERC721
 * log, so that a delegation's state is its newest row and a reorg only deletes rows. Written in the indexer's range
 * transaction; a reorg removes the rows of the blocks it undoes (rollBack) and a reset all of a network's. Read with the
 * holdings of a login (server/auth/login-statement.ts) and of a refresh (wallet-holdings.ts).
 */
export async function recordDelegations(tx: Queryable, networkId: number, delegations: DelegationEvent[]): Promise<void> {
  if (delegations.length === 0) return;
  // $1 network id, then a column each: $2 block, $3 log index, $4 kind, $5 vault, $6 delegate, $7 contract ('0x' for
  // none), $8 token id, $9 rights, $10 enable
  await tx.query(
    `INSERT INTO nft_delegations (network_id, block_number, log_index, kind, vault, delegate, contract, token_id, rights, enable)
     SELECT $1, d.block_number, d.log_index, d.kind, decode(substr(d.vault, 3), 'hex'), decode(substr(d.delegate, 3), 'hex'),
       decode(substr(d.contract, 3), 'hex'), d.token_id, decode(substr(d.rights, 3), 'hex'), d.enable
     FROM unnest($2::bigint[], $3::int[], $4::smallint[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::text[], $10::boolean[])
       AS d(block_number, log_index, kind, vault, delegate, contract, token_id, rights, enable)`,
    [
      networkId,
      delegations.map((d) => d.blockNumber),
      delegations.map((d) => d.logIndex),
      delegations.map((d) => DELEGATION_KINDS[d.kind]),
      delegations.map((d) => d.vault),
      delegations.map((d) => d.delegate),
      delegations.map((d) => d.contract ?? "0x"),
      delegations.map((d) => (d.tokenId ?? 0n).toString()),
      delegations.map((d) => d.rights),
      delegations.map((d) => d.enable),
    ],
  );
}

/** Forgets the delegations above block `ancestor` (a reorg undid them): the newest row left is each one's state again. */
export async function rollBackDelegations(tx: Queryable, networkId: number, ancestor: number): Promise<void> {
  // $1 network id, $2 the ancestor's block
  await tx.query("DELETE FROM nft_delegations WHERE network_id = $1 AND block_number > $2", [networkId, ancestor]);
}
