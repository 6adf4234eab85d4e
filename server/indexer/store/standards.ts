import type { Queryable } from "../../db/database";
import type { Transfer, Transfer1155 } from "../transfers";

/**
 * One standard per contract (docs/reference/indexer.md): a contract that announces moves with both ERC-721 (Transfer,
 * ConsecutiveTransfer) and ERC-1155 (TransferSingle, TransferBatch) events is read as the standard of its first
 * event the index holds, and its events of the other standard are left out, so each token is listed, counted and
 * held once. A contract of which the index already holds both (indexed before this rule) is read as ERC-721. A reorg
 * that undoes a contract's first event undoes every later one with it, so the rule holds after a rollback too.
 */
export async function oneStandardPerContract(
  tx: Queryable,
  network: string,
  transfers: Transfer[],
  transfers1155: Transfer1155[],
): Promise<{ transfers: Transfer[]; transfers1155: Transfer1155[] }> {
  if (transfers.length === 0 && transfers1155.length === 0) return { transfers, transfers1155 };
  // A range's transfers repeat few contracts: each is asked once, with no list of the transfers copied to find them.
  const seen = new Set<string>();
  for (const t of transfers) seen.add(t.contract);
  for (const t of transfers1155) seen.add(t.contract);
  const contracts = [...seen];
  // $1 network, $2 contracts
  const { rows } = await tx.query<{ contract: string; erc721: boolean; erc1155: boolean }>(
    `SELECT k.contract,
       EXISTS (SELECT 1 FROM nft_transfers t
         WHERE t.network_id = (SELECT id FROM indexer_networks WHERE name = $1)
           AND t.contract_id = (SELECT id FROM nft_addresses WHERE address = decode(substr(k.contract, 3), 'hex'))) AS erc721,
       EXISTS (SELECT 1 FROM nft_1155_transfers t
         WHERE t.network_id = (SELECT id FROM indexer_networks WHERE name = $1)
           AND t.contract_id = (SELECT id FROM nft_addresses WHERE address = decode(substr(k.contract, 3), 'hex'))) AS erc1155
     FROM unnest($2::text[]) AS k(contract)`,
    [network, contracts],
  );
  // For a contract the index holds nothing of: its first event in this range (both lists are in log order).
  const first1155 = new Map<string, Transfer1155>();
  for (const t of transfers1155) if (!first1155.has(t.contract)) first1155.set(t.contract, t);
  const first721 = new Map<string, Transfer>();
  // Only the contracts with ERC-1155 events in the range compare their first events of both standards.
  if (first1155.size > 0) for (const t of transfers) if (!first721.has(t.contract)) first721.set(t.contract, t);
  const before = (x: Transfer, y: Transfer | undefined) =>
    y === undefined || x.blockNumber < y.blockNumber || (x.blockNumber === y.blockNumber && x.logIndex < y.logIndex);
  const erc1155 = new Set(
    rows
      .filter(
        (r) => !r.erc721 && (r.erc1155 || (first1155.has(r.contract) && before(first1155.get(r.contract)!, first721.get(r.contract)))),
      )
      .map((r) => r.contract),
  );
  // Most ranges hold one standard per contract already: their lists are kept as they are.
  return {
    transfers: erc1155.size === 0 ? transfers : transfers.filter((t) => !erc1155.has(t.contract)),
    transfers1155: erc1155.size === contracts.length ? transfers1155 : transfers1155.filter((t) => erc1155.has(t.contract)),
  };
}
