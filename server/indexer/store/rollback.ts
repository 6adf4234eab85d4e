import type { Queryable } from "../../db/database";
import { ZERO_ADDRESS } from "../transfers";
import { rollBackBlocks, type Cursor } from "./blocks";
import { appendReset, appendRollback, appendTransfers } from "./changes";
import { rollBackDelegations } from "./delegations";
import { adjustHoldings, HoldingSums } from "./holdings";
import { networkId } from "./ids";
import { rollBackMarks } from "./marks";
import { rollBackSkipped } from "./skipped";
import { rollBackSummaries } from "./summaries";
import { addToBalances } from "./writes";

/**
 * Undoes everything above `ancestor` (a block both the index and the chain agree on): its transfers go, and each
 * token they touched gets back the owner its last remaining transfer gave it.
 */
export async function rollBack(tx: Queryable, network: string, ancestor: Cursor): Promise<void> {
  const net = await networkId(tx, network);
  // $1 network id, $2 the ancestor's block
  await tx.query(
    `CREATE TEMP TABLE rolled_back ON COMMIT DROP AS
     SELECT DISTINCT contract_id, token_id FROM nft_transfers WHERE network_id = $1 AND block_number > $2`,
    [net, ancestor.block],
  );
  const sumAgain = await rollBackSummaries(tx, net, ancestor.block);
  await appendRollback(tx, network, ancestor.block);
  await appendTransfers(tx, {
    network,
    networkId: net,
    kind: "removed",
    firstBlock: ancestor.block + 1,
    lastBlock: Number.MAX_SAFE_INTEGER,
  });
  // $1 network id, $2 the ancestor's block
  await tx.query("DELETE FROM nft_transfers WHERE network_id = $1 AND block_number > $2", [net, ancestor.block]);
  // $1 network id
  const { rows: left } = await tx.query<{ contract: string; owner: string }>(
    `WITH gone AS (
       DELETE FROM nft_owners o USING rolled_back r WHERE o.network_id = $1 AND o.contract_id = r.contract_id AND o.token_id = r.token_id
       RETURNING o.contract_id, o.owner_id
     )
     SELECT '0x' || encode(c.address, 'hex') AS contract, '0x' || encode(w.address, 'hex') AS owner
     FROM gone JOIN nft_addresses c ON c.id = gone.contract_id JOIN nft_addresses w ON w.id = gone.owner_id`,
    [net],
  );
  // $1 network id, $2 the zero address
  const { rows: restored } = await tx.query<{ contract: string; owner: string }>(
    `WITH back AS (
       INSERT INTO nft_owners (network_id, contract_id, token_id, owner_id)
       SELECT $1, contract_id, token_id, to_id FROM (
         SELECT DISTINCT ON (t.contract_id, t.token_id) t.contract_id, t.token_id, t.to_id
         FROM nft_transfers t JOIN rolled_back r ON t.contract_id = r.contract_id AND t.token_id = r.token_id
         WHERE t.network_id = $1
         ORDER BY t.contract_id, t.token_id, t.block_number DESC, t.log_index DESC, t.batch_index DESC
       ) last WHERE to_id <> (SELECT id FROM nft_addresses WHERE address = decode(substr($2, 3), 'hex'))
       RETURNING contract_id, owner_id
     )
     SELECT '0x' || encode(c.address, 'hex') AS contract, '0x' || encode(w.address, 'hex') AS owner
     FROM back JOIN nft_addresses c ON c.id = back.contract_id JOIN nft_addresses w ON w.id = back.owner_id`,
    [net, ZERO_ADDRESS],
  );
  const holdings = new HoldingSums();
  for (const r of left) holdings.add(r.contract, r.owner, -1n);
  for (const r of restored) holdings.add(r.contract, r.owner, 1n);
  await adjustHoldings(tx, { networkId: net, sums: holdings });
  // ERC-1155 balances are sums: undoing a transfer is subtracting it from its receiver and giving it back to its sender.
  // $1 network id, $2 the ancestor's block, $3 the zero address
  const { rows: undone } = await tx.query<{ contract: string; token_id: string; owner: string; delta: string }>(
    `SELECT '0x' || encode(c.address, 'hex') AS contract, d.token_id, '0x' || encode(w.address, 'hex') AS owner, d.delta::text AS delta
     FROM (
       SELECT t.contract_id, t.token_id, m.owner_id, sum(m.delta) AS delta
       FROM nft_1155_transfers t CROSS JOIN LATERAL (VALUES (t.to_id, -t.amount), (t.from_id, t.amount)) AS m(owner_id, delta)
       WHERE t.network_id = $1 AND t.block_number > $2
       GROUP BY t.contract_id, t.token_id, m.owner_id HAVING sum(m.delta) <> 0
     ) d JOIN nft_addresses c ON c.id = d.contract_id JOIN nft_addresses w ON w.id = d.owner_id
     WHERE w.address <> decode(substr($3, 3), 'hex')`,
    [net, ancestor.block, ZERO_ADDRESS],
  );
  if (undone.length > 0)
    await addToBalances(tx, {
      networkId: net,
      deltas: undone.map((r) => ({ contract: r.contract, tokenId: r.token_id, owner: r.owner, delta: r.delta })),
    });
  // $1 network id, $2 the ancestor's block
  await tx.query("DELETE FROM nft_1155_transfers WHERE network_id = $1 AND block_number > $2", [net, ancestor.block]);
  await sumAgain();
  await rollBackSkipped(tx, network, ancestor.block);
  await rollBackMarks(tx, network, ancestor.block);
  await rollBackDelegations(tx, net, ancestor.block);
  await rollBackBlocks(tx, network, ancestor);
}

/** Forgets a network's index entirely (its chain was replaced: no block the index kept is on the chain). */
export async function resetNetwork(tx: Queryable, network: string): Promise<void> {
  await appendRollback(tx, network, -1);
  // The tables that name the network by its id (indexer_networks): each, $1 network.
  for (const statement of [
    "DELETE FROM nft_transfers WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
    "DELETE FROM nft_1155_transfers WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
    "DELETE FROM nft_owners WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
    "DELETE FROM nft_balances WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
    "DELETE FROM nft_holdings WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
    "DELETE FROM nft_holder_counts WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
    "DELETE FROM nft_contract_summaries WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
    "DELETE FROM nft_spam_flags WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
    "DELETE FROM nft_delegations WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)",
  ]) {
    await tx.query(statement, [network]);
  }
  // The tables that name it by its name: each, $1 network.
  for (const statement of [
    "DELETE FROM nft_skipped_ranges WHERE network = $1",
    "DELETE FROM nft_metadata_updates WHERE network = $1",
    "DELETE FROM indexer_blocks WHERE network = $1",
    "DELETE FROM indexer_cursors WHERE network = $1",
  ]) {
    await tx.query(statement, [network]);
  }
  await appendReset(tx, network);
}
