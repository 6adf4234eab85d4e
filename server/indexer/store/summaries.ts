import { arrayLiteral } from "../../db/arrays";
import type { Queryable } from "../../db/database";
import { ZERO_ADDRESS, type Transfer, type Transfer1155 } from "../transfers";
import type { SpamVerdict } from "./spam";

/**
 * One row per indexed contract (nft_contract_summaries): its standard, the first and latest block with one of its
 * transfers, how many transfers and how much supply the index holds (ERC-721 tokens, ERC-1155 units minted less those
 * burned). Moved in the indexer's range transaction with the transfers it sums; a rollback sums the contracts it
 * touched again from what is left, and a reset forgets the network's rows.
 */

interface Summary {
  standard: "erc721" | "erc1155";
  first: number;
  last: number;
  transfers: number;
  supply: bigint;
  /** Transfers that are neither a mint nor a burn. */
  moved: number;
  /** The distinct recipients of each transaction's mints (a transaction lies in one block, so in one range). */
  mintedTo: Map<string, Set<string>>;
}

/** Adds a range's transfers (one standard per contract, as writeRange keeps them) to their contracts' summaries. */
export async function addToSummaries(tx: Queryable, net: number, transfers: Transfer[], transfers1155: Transfer1155[]): Promise<void> {
  const summaries = new Map<string, Summary>();
  const add = (t: Transfer, standard: Summary["standard"], amount: bigint) => {
    let s = summaries.get(t.contract);
    if (!s)
      summaries.set(
        t.contract,
        (s = { standard, first: t.blockNumber, last: t.blockNumber, transfers: 0, supply: 0n, moved: 0, mintedTo: new Map() }),
      );
    if (t.blockNumber < s.first) s.first = t.blockNumber;
    if (t.blockNumber > s.last) s.last = t.blockNumber;
    s.transfers++;
    if (t.from === ZERO_ADDRESS) {
      s.supply += amount;
      let recipients = s.mintedTo.get(t.txHash);
      if (!recipients) s.mintedTo.set(t.txHash, (recipients = new Set()));
      recipients.add(t.to);
    }
    if (t.to === ZERO_ADDRESS) s.supply -= amount;
    if (t.from !== ZERO_ADDRESS && t.to !== ZERO_ADDRESS) s.moved++;
  };
  const mostMintedTo = (s: Summary) => [...s.mintedTo.values()].reduce((most, recipients) => Math.max(most, recipients.size), 0);
  for (const t of transfers) add(t, "erc721", 1n);
  for (const t of transfers1155) add(t, "erc1155", t.amount);
  if (summaries.size === 0) return;
  const rows = [...summaries];
  // $1 network id, then a column each: $2 contracts (hex), $3 standards, $4 first blocks, $5 last blocks, $6 transfers,
  // $7 supply deltas, $8 transfers moved, $9 most distinct recipients of one transaction's mints
  await tx.query(
    `INSERT INTO nft_contract_summaries AS s (network_id, contract, standard, first_block, last_block, transfers, supply, moved, most_minted_to)
     SELECT $1, decode(substr(contract, 3), 'hex'), standard, first_block, last_block, transfers, supply, moved, most_minted_to
     FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::numeric[], $8::bigint[], $9::bigint[])
       AS k(contract, standard, first_block, last_block, transfers, supply, moved, most_minted_to)
     ON CONFLICT (network_id, contract) DO UPDATE SET
       first_block = least(s.first_block, excluded.first_block), last_block = greatest(s.last_block, excluded.last_block),
       transfers = s.transfers + excluded.transfers, supply = s.supply + excluded.supply, moved = s.moved + excluded.moved,
       most_minted_to = greatest(s.most_minted_to, excluded.most_minted_to)`,
    [
      net,
      arrayLiteral(rows.map(([contract]) => contract)),
      rows.map(([, s]) => s.standard),
      arrayLiteral(rows.map(([, s]) => s.first)),
      arrayLiteral(rows.map(([, s]) => s.last)),
      arrayLiteral(rows.map(([, s]) => s.transfers)),
      arrayLiteral(rows.map(([, s]) => s.supply)),
      arrayLiteral(rows.map(([, s]) => s.moved)),
      arrayLiteral(rows.map(([, s]) => mostMintedTo(s))),
    ],
  );
}

/**
 * Sums again, from the transfers left, the summaries of the contracts with transfers above block `ancestor` (called
 * before a rollback deletes them, it returns the function that finishes the job after). A contract left with no
 * transfer loses its row. Costs a scan of those contracts' transfers: a reorg is rare and touches few contracts.
 */
export async function rollBackSummaries(tx: Queryable, net: number, ancestor: number): Promise<() => Promise<void>> {
  // $1 network id, $2 the ancestor's block
  const { rows } = await tx.query<{ contract_id: number }>(
    `SELECT DISTINCT contract_id FROM nft_transfers WHERE network_id = $1 AND block_number > $2
     UNION SELECT DISTINCT contract_id FROM nft_1155_transfers WHERE network_id = $1 AND block_number > $2`,
    [net, ancestor],
  );
  const ids = arrayLiteral(rows.map((r) => r.contract_id));
  return async () => {
    if (rows.length === 0) return;
    // $1 network id, $2 contract ids
    await tx.query(
      `DELETE FROM nft_contract_summaries s USING nft_addresses a
       WHERE s.network_id = $1 AND a.id = ANY ($2::int[]) AND s.contract = a.address`,
      [net, ids],
    );
    // $1 network id, $2 contract ids, $3 the zero address
    await tx.query(
      `WITH t AS (
         SELECT 'erc721' AS standard, contract_id, block_number, tx_hash, from_id, to_id, 1::numeric AS amount
         FROM nft_transfers WHERE network_id = $1 AND contract_id = ANY ($2::int[])
         UNION ALL
         SELECT 'erc1155', contract_id, block_number, tx_hash, from_id, to_id, amount
         FROM nft_1155_transfers WHERE network_id = $1 AND contract_id = ANY ($2::int[])
       ), z AS (SELECT (SELECT id FROM nft_addresses WHERE address = decode(substr($3, 3), 'hex')) AS id),
       minted AS (
         SELECT contract_id, max(n) AS most FROM (
           SELECT t.contract_id, count(DISTINCT t.to_id) AS n FROM t, z WHERE t.from_id = z.id GROUP BY t.contract_id, t.tx_hash
         ) per_tx GROUP BY contract_id
       )
       INSERT INTO nft_contract_summaries (network_id, contract, standard, first_block, last_block, transfers, supply, moved, most_minted_to)
       SELECT $1, a.address, t.standard, min(t.block_number), max(t.block_number), count(*),
         sum(CASE WHEN t.from_id = z.id THEN t.amount ELSE 0 END) - sum(CASE WHEN t.to_id = z.id THEN t.amount ELSE 0 END),
         sum(CASE WHEN t.from_id <> z.id AND t.to_id <> z.id THEN 1 ELSE 0 END), coalesce(max(m.most), 0)
       FROM t CROSS JOIN z JOIN nft_addresses a ON a.id = t.contract_id LEFT JOIN minted m ON m.contract_id = t.contract_id
       GROUP BY a.address, t.standard`,
      [net, ids, ZERO_ADDRESS],
    );
  };
}

/** A contract's summary as the index holds it (lower-case hex contract; supply as the database's decimals). */
export interface ContractSummary {
  contract: string;
  standard: "erc721" | "erc1155";
  firstBlock: number;
  lastBlock: number;
  transfers: number;
  supply: string;
  holders: number;
  incomplete: boolean;
  /** Transfers that are neither a mint nor a burn. */
  moved: number;
  /** The most distinct addresses one transaction minted to. */
  mostMintedTo: number;
  /** The classifier's verdict, undefined before it classified the contract. */
  spam?: SpamVerdict;
}

/** A row of a statement that reads a contract's summary (also the one of an owner's page with details, in collections/). */
export interface SummaryRow {
  indexed: string;
  contract: string | null;
  standard: "erc721" | "erc1155";
  first_block: string;
  last_block: string;
  transfers: string;
  supply: string;
  holders: string | null;
  incomplete: boolean;
  moved: string;
  most_minted_to: string;
  spam_flag: boolean | null;
  spam_reasons: string[] | null;
}

/** A summary from its row. */
export const summaryOfRow = (r: SummaryRow): ContractSummary => ({
  contract: r.contract!,
  standard: r.standard,
  firstBlock: Number(r.first_block),
  lastBlock: Number(r.last_block),
  transfers: Number(r.transfers),
  supply: r.supply,
  holders: Number(r.holders ?? 0),
  incomplete: r.incomplete,
  moved: Number(r.moved),
  mostMintedTo: Number(r.most_minted_to),
  spam: r.spam_flag === null ? undefined : { flag: r.spam_flag, reasons: r.spam_reasons! },
});

/**
 * The summaries of `contracts` (lower-case hex) with the network's cursor, in one statement: the summary row, the
 * holder count and whether the contract has ConsecutiveTransfer ranges not expanded. Contracts the index holds
 * nothing of are left out. Undefined before the network's index started.
 * $1 network, $2 contracts (hex).
 */
const SUMMARIES_SQL = `SELECT c.block_number AS indexed, '0x' || encode(s.contract, 'hex') AS contract, s.standard,
    s.first_block, s.last_block, s.transfers, s.supply::text AS supply, s.moved, s.most_minted_to, h.holders,
    f.flag AS spam_flag, f.reasons AS spam_reasons,
    EXISTS (SELECT 1 FROM nft_skipped_ranges r WHERE r.network = $1 AND r.contract = '0x' || encode(s.contract, 'hex')) AS incomplete
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  LEFT JOIN nft_contract_summaries s ON s.network_id = n.id AND s.contract = ANY (SELECT decode(substr(k, 3), 'hex') FROM unnest($2::text[]) k)
  LEFT JOIN nft_holder_counts h ON h.network_id = n.id AND h.contract = s.contract
  LEFT JOIN nft_spam_flags f ON f.network_id = n.id AND f.contract = s.contract
  WHERE c.network = $1`;

/** The index's summaries of some contracts, by lower-case contract, with the block the index is complete to. */
export async function contractSummaries(
  db: Queryable,
  network: string,
  contracts: readonly string[],
): Promise<{ indexed: number; summaries: Map<string, ContractSummary> } | undefined> {
  const { rows } = await db.query<SummaryRow>(SUMMARIES_SQL, [network, arrayLiteral(contracts)]);
  if (rows.length === 0) return undefined;
  return {
    indexed: Number(rows[0].indexed),
    summaries: new Map(rows.filter((r) => r.contract !== null).map((r) => [r.contract!, summaryOfRow(r)])),
  };
}
