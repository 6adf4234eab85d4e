import type { Queryable } from "../../db/database";
import type { TransferRow } from "../transfers";
import { pageOf, type IndexPage } from "./reads";

/**
 * The transfer histories: an address's and a token's, ERC-721 and ERC-1155 transfers newest first in one list.
 * Each statement reads the network's cursor with the page, from one snapshot (reads.ts says why).
 *
 * How both statements work. Each arm selects one table's transfers that match, newest first and limited, walking its
 * own narrow index backwards from the key; the arms are merged and cut to one page, and only the page's rows are
 * turned back into hex. Both tables have one layout (ids, the hash's bytes); an ERC-721 row has no amount (NULL). The
 * address the page is of ($2) is looked up once, joined (k.id: a value of the outer row the arms are run with, where
 * a scalar subquery would be planned again, and run, in every arm that names it); a row's other addresses are one
 * dictionary lookup each, from the key's index alone (it carries the address and its EIP-55 form, which the page
 * hands to the wire as it is: 0266_address_checksums). Both are sent as prepared statements:
 * planning the arms costs more than running them for a page of 100. batch_index is the id's position in its log in both tables (0 for a
 * Transfer or a TransferSingle, the offset in a ConsecutiveTransfer range, the position in a TransferBatch): it orders
 * and pages the ids of one log, and the wire shows it for ERC-1155 only (transferItem).
 */

/**
 * Largest values a history key can carry into the bigint / integer columns it is compared with (block number, log
 * index, batch index). Without a key, a history page starts at them: the newest transfer first.
 */
export const HISTORY_KEY_MAX: readonly [bigint, bigint, bigint] = [2n ** 63n - 1n, 2n ** 31n - 1n, 2n ** 31n - 1n];

/** Whose transfers: an address's, as sender or receiver, or one token's (lower case; the id in decimal). */
export type HistoryOf = { owner: string } | { contract: string; tokenId: string };

/**
 * An address's transfers, sent, then received (a transfer to oneself is listed once, as sent), of each table. Every
 * row names the address as its sender or its receiver: only the other side is looked up.
 * $1 network, $2 address, $3 block, $4 log index, $5 batch index (the key: rows before it), $6 limit, $7 whether to
 * read each transfer's contract's spam flag.
 */
const OWNER_HISTORY_SQL = `SELECT c.block_number AS indexed, t.block_number, t.log_index, t.batch_index, t.block_time,
    '0x' || encode(t.tx_hash, 'hex') AS tx_hash,
    ca.contract, ca.contract_eip55,
    CASE WHEN $7::boolean THEN (SELECT flag FROM nft_spam_flags WHERE network_id = n.id AND contract = ca.address) END AS spam,
    t.token_id,
    CASE WHEN t.from_id = k.id THEN lower($2) ELSE fa.address END AS from_address,
    CASE WHEN t.from_id = k.id THEN k.eip55 ELSE fa.eip55 END AS from_eip55,
    CASE WHEN t.to_id = k.id THEN lower($2) ELSE ta.address END AS to_address,
    CASE WHEN t.to_id = k.id THEN k.eip55 ELSE ta.eip55 END AS to_eip55,
    t.amount
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  LEFT JOIN nft_addresses k ON k.address = decode(substr($2, 3), 'hex')
  LEFT JOIN LATERAL (
    (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, NULL::numeric AS amount
     FROM nft_transfers
     WHERE network_id = n.id AND from_id = k.id AND (block_number, log_index, batch_index) < ($3, $4, $5)
     ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
    UNION ALL
    (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, NULL
     FROM nft_transfers
     WHERE network_id = n.id AND to_id = k.id AND from_id <> k.id AND (block_number, log_index, batch_index) < ($3, $4, $5)
     ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
    UNION ALL
    (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, amount
     FROM nft_1155_transfers
     WHERE network_id = n.id AND from_id = k.id AND (block_number, log_index, batch_index) < ($3, $4, $5)
     ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
    UNION ALL
    (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, amount
     FROM nft_1155_transfers
     WHERE network_id = n.id AND to_id = k.id AND from_id <> k.id AND (block_number, log_index, batch_index) < ($3, $4, $5)
     ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
    ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6
  ) t ON true
  -- The contract's bytes too: its spam flag is keyed by them.
  LEFT JOIN LATERAL (SELECT a.address, '0x' || encode(a.address, 'hex') AS contract, a.eip55 AS contract_eip55 FROM nft_addresses a WHERE a.id = t.contract_id) ca ON true
  -- Each lookup gives two columns, so it is a join, not a scalar subquery. LIMIT 1 keeps the planner from pulling it up
  -- into a plain join, where the test of the page's own address would be checked after the lookup, not before it.
  LEFT JOIN LATERAL (SELECT '0x' || encode(a.address, 'hex') AS address, a.eip55 FROM nft_addresses a WHERE a.id = t.from_id AND t.from_id <> k.id LIMIT 1) fa ON true
  LEFT JOIN LATERAL (SELECT '0x' || encode(a.address, 'hex') AS address, a.eip55 FROM nft_addresses a WHERE a.id = t.to_id AND t.to_id <> k.id LIMIT 1) ta ON true
  WHERE c.network = $1
  ORDER BY t.block_number DESC, t.log_index DESC, t.batch_index DESC`;

/**
 * One token's transfers, of the table of its contract's standard, and whether the index of its contract is
 * incomplete (reads.ts). The contract is the one the page is of: only the sender and the receiver are looked up.
 * $1 network, $2 contract, $3 block, $4 log index, $5 batch index (the key: rows before it), $6 limit, $7 token id,
 * $8 whether to read the contract's spam flag.
 */
const TOKEN_HISTORY_SQL = `SELECT c.block_number AS indexed, t.block_number, t.log_index, t.batch_index, t.block_time,
    '0x' || encode(t.tx_hash, 'hex') AS tx_hash,
    CASE WHEN t.contract_id = k.id THEN lower($2) END AS contract,
    CASE WHEN t.contract_id = k.id THEN k.eip55 END AS contract_eip55,
    t.token_id,
    fa.address AS from_address, fa.eip55 AS from_eip55,
    ta.address AS to_address, ta.eip55 AS to_eip55,
    t.amount,
    EXISTS (SELECT 1 FROM nft_skipped_ranges WHERE network = $1 AND contract = lower($2)) AS incomplete,
    CASE WHEN $8::boolean THEN (SELECT flag FROM nft_spam_flags WHERE network_id = n.id AND contract = decode(substr($2, 3), 'hex')) END AS spam
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  LEFT JOIN nft_addresses k ON k.address = decode(substr($2, 3), 'hex')
  LEFT JOIN LATERAL (
    (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, NULL::numeric AS amount
     FROM nft_transfers
     WHERE network_id = n.id AND contract_id = k.id AND token_id = $7 AND (block_number, log_index, batch_index) < ($3, $4, $5)
     ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
    UNION ALL
    (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, amount
     FROM nft_1155_transfers
     WHERE network_id = n.id AND contract_id = k.id AND token_id = $7 AND (block_number, log_index, batch_index) < ($3, $4, $5)
     ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
    ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6
  ) t ON true
  LEFT JOIN LATERAL (SELECT '0x' || encode(a.address, 'hex') AS address, a.eip55 FROM nft_addresses a WHERE a.id = t.from_id) fa ON true
  LEFT JOIN LATERAL (SELECT '0x' || encode(a.address, 'hex') AS address, a.eip55 FROM nft_addresses a WHERE a.id = t.to_id) ta ON true
  WHERE c.network = $1
  ORDER BY t.block_number DESC, t.log_index DESC, t.batch_index DESC`;

/**
 * A transfer of a history page, with its contract's stored spam flag when asked (else null) and the EIP-55 forms of
 * its addresses the dictionary keeps (null for one written before 0266_address_checksums: the wire's checksum is
 * computed for it).
 */
export type HistoryItem = TransferRow & Checksummed & { spam: boolean | null };

/** The EIP-55 forms the dictionary keeps of a transfer's addresses, where it has them. */
export interface Checksummed {
  contract_eip55: string | null;
  from_eip55: string | null;
  to_eip55: string | null;
}

/** Transfers newest first (block, log index, batch index) before the key `before`; `spam`: with their contracts' flags. */
export async function historyPage(
  db: Queryable,
  query: { network: string; of: HistoryOf; before?: [string, string, string]; limit: number; spam?: boolean },
): Promise<IndexPage<HistoryItem> | undefined> {
  const { network, of, before = HISTORY_KEY_MAX.map(String), limit, spam = false } = query;
  const [block, log, batch] = before;
  type Row = { indexed: string; incomplete?: boolean; spam: boolean | null } & {
    [K in keyof (TransferRow & Checksummed)]: (TransferRow & Checksummed)[K] | null;
  };
  const { rows } =
    "owner" in of
      ? await db.query<Row>(OWNER_HISTORY_SQL, [network, of.owner, block, log, batch, limit + 1, spam], { prepare: true })
      : await db.query<Row>(TOKEN_HISTORY_SQL, [network, of.contract, block, log, batch, limit + 1, of.tokenId, spam], { prepare: true });
  return pageOf(
    rows,
    limit,
    // The row itself, not a copy without the page's own columns (the cursor, completeness): the wire form names its fields.
    (r) => (r.block_number === null ? null : (r as HistoryItem)),
    (t) => [t.block_number, String(t.log_index), String(t.batch_index ?? 0)],
  );
}
