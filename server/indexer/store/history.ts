import type { Queryable } from "../../db/database";
import { byDecimal, listedPage, type IndexPage, type ListedPageRow } from "./reads";

/**
 * The transfer histories: an address's and a token's, ERC-721 and ERC-1155 transfers newest first in one list. Each
 * statement reads the network's cursor with the page, from one snapshot (reads.ts says why).
 *
 * How both statements work. Each arm selects one table's transfers that match, newest first and limited, walking its
 * own narrow index backwards from the key; the arms are merged and cut to one page, and only the page's rows are
 * written out, each as its wire form's JSON text ({@link HistoryItem}), and listed in one text, a line each: its key,
 * whether its addresses are checksummed (t/f), its contract and the contract's flag (`-` where not asked) and its JSON,
 * separated by spaces (none of them holds a space or a line break). The page is then one row for the driver (reads.ts,
 * `listedPage`). The lines come in the order the plan gives them, the merged arms' (newest first), each row's lookups
 * joined to it as it comes: one aggregate over the rows, with no GROUP BY and no ORDER BY in it, because each made
 * PostgreSQL sort the page's rows, JSON included (about a tenth of the statement's CPU). SQL does not promise that
 * order, so the store checks it and sorts a page that comes otherwise (`newestFirst`). Both tables have one layout
 * (ids, the hash's bytes); an ERC-721 row has no amount (NULL). The address the page is of ($2) is looked up once,
 * joined (k.id: a value of the outer row the arms are run with, where a scalar subquery would be planned again, and
 * run, in every arm that names it); a row's other addresses are one dictionary lookup each, from the key's index alone
 * (it carries the address and its EIP-55 form, which the page writes as it is: 0266_address_checksums); a lookup a row
 * costs less than one a distinct address of the page unless the page names only a few (docs/reference/indexer.md). Both
 * are sent as prepared statements: planning the arms costs more than running them for a page of 100. batch_index is the
 * id's position in its log in both tables (0 for a Transfer or a TransferSingle, the offset in a ConsecutiveTransfer
 * range, the position in a TransferBatch): it orders and pages the ids of one log, and the wire shows it for ERC-1155
 * only (transferItem).
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
 * read each transfer's contract and its spam flag.
 */
const OWNER_HISTORY_SQL = `SELECT min(p.indexed) AS indexed,
    string_agg(p.block_number || ' ' || p.log_index || ' ' || p.batch_index || ' ' || CASE WHEN p.checksummed THEN 't' ELSE 'f' END
      || ' ' || coalesce(p.contract, '-') || ' ' || CASE p.spam WHEN true THEN 't' WHEN false THEN 'f' ELSE '-' END || ' ' || p.json,
      E'\\n') AS items
  FROM (SELECT c.block_number AS indexed, t.block_number, t.log_index, t.batch_index,
      CASE WHEN $7::boolean THEN '0x' || encode(ca.address, 'hex') END AS contract,
      CASE WHEN $7::boolean THEN (SELECT flag FROM nft_spam_flags WHERE network_id = n.id AND contract = ca.address) END AS spam,
      '{"block":' || t.block_number || ',"time":' || coalesce(t.block_time::text, 'null')
        || ',"tx":"0x' || encode(t.tx_hash, 'hex') || '","logIndex":' || t.log_index
        || CASE WHEN t.amount IS NULL THEN '' ELSE ',"batchIndex":' || t.batch_index END
        || ',"from":"' || CASE WHEN t.from_id = k.id THEN coalesce(k.eip55, lower($2)) ELSE fa.form END
        || '","to":"' || CASE WHEN t.to_id = k.id THEN coalesce(k.eip55, lower($2)) ELSE ta.form END
        || '","contract":"' || ca.form || '","id":' || t.token_id
        || CASE WHEN t.amount IS NULL THEN '' ELSE ',"value":' || t.amount END || '}' AS json,
      CASE WHEN t.from_id = k.id THEN k.eip55 IS NOT NULL ELSE fa.kept END
        AND CASE WHEN t.to_id = k.id THEN k.eip55 IS NOT NULL ELSE ta.kept END AND ca.kept AS checksummed
    FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
    LEFT JOIN nft_addresses k ON k.address = (SELECT decode(substr($2, 3), 'hex'))
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
    LEFT JOIN LATERAL (SELECT a.address, coalesce(a.eip55, '0x' || encode(a.address, 'hex')) AS form, a.eip55 IS NOT NULL AS kept
      FROM nft_addresses a WHERE a.id = t.contract_id) ca ON true
    -- Each lookup gives two columns, so it is a join, not a scalar subquery. LIMIT 1 keeps the planner from pulling it up
    -- into a plain join, where the test of the page's own address would be checked after the lookup, not before it.
    LEFT JOIN LATERAL (SELECT coalesce(a.eip55, '0x' || encode(a.address, 'hex')) AS form, a.eip55 IS NOT NULL AS kept
      FROM nft_addresses a WHERE a.id = t.from_id AND t.from_id <> k.id LIMIT 1) fa ON true
    LEFT JOIN LATERAL (SELECT coalesce(a.eip55, '0x' || encode(a.address, 'hex')) AS form, a.eip55 IS NOT NULL AS kept
      FROM nft_addresses a WHERE a.id = t.to_id AND t.to_id <> k.id LIMIT 1) ta ON true
    WHERE c.network = $1) p
  HAVING count(*) > 0`;

/**
 * One token's transfers, of the table of its contract's standard, and whether the index of its contract is
 * incomplete (reads.ts). The contract is the one the page is of: only the sender and the receiver are looked up.
 * $1 network, $2 contract, $3 block, $4 log index, $5 batch index (the key: rows before it), $6 limit, $7 token id,
 * $8 whether to read the contract and its spam flag.
 */
const TOKEN_HISTORY_SQL = `SELECT min(p.indexed) AS indexed, bool_or(p.incomplete) AS incomplete,
    string_agg(p.block_number || ' ' || p.log_index || ' ' || p.batch_index || ' ' || CASE WHEN p.checksummed THEN 't' ELSE 'f' END
      || ' ' || coalesce(p.contract, '-') || ' ' || CASE p.spam WHEN true THEN 't' WHEN false THEN 'f' ELSE '-' END || ' ' || p.json,
      E'\\n') AS items
  FROM (SELECT c.block_number AS indexed, t.block_number, t.log_index, t.batch_index,
      CASE WHEN $8::boolean THEN lower($2) END AS contract,
      CASE WHEN $8::boolean THEN (SELECT flag FROM nft_spam_flags WHERE network_id = n.id AND contract = (SELECT decode(substr($2, 3), 'hex'))) END AS spam,
      '{"block":' || t.block_number || ',"time":' || coalesce(t.block_time::text, 'null')
        || ',"tx":"0x' || encode(t.tx_hash, 'hex') || '","logIndex":' || t.log_index
        || CASE WHEN t.amount IS NULL THEN '' ELSE ',"batchIndex":' || t.batch_index END
        || ',"from":"' || fa.form || '","to":"' || ta.form || '","contract":"' || coalesce(k.eip55, lower($2)) || '","id":' || t.token_id
        || CASE WHEN t.amount IS NULL THEN '' ELSE ',"value":' || t.amount END || '}' AS json,
      fa.kept AND ta.kept AND k.eip55 IS NOT NULL AS checksummed,
      EXISTS (SELECT 1 FROM nft_skipped_ranges WHERE network = $1 AND contract = lower($2)) AS incomplete
    FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
    LEFT JOIN nft_addresses k ON k.address = (SELECT decode(substr($2, 3), 'hex'))
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
    LEFT JOIN LATERAL (SELECT coalesce(a.eip55, '0x' || encode(a.address, 'hex')) AS form, a.eip55 IS NOT NULL AS kept
      FROM nft_addresses a WHERE a.id = t.from_id) fa ON true
    LEFT JOIN LATERAL (SELECT coalesce(a.eip55, '0x' || encode(a.address, 'hex')) AS form, a.eip55 IS NOT NULL AS kept
      FROM nft_addresses a WHERE a.id = t.to_id) ta ON true
    WHERE c.network = $1) p
  HAVING count(*) > 0`;

/**
 * A transfer of a history page: its wire form, its key, and when asked (`spam`), its contract (lower-case hex) and the
 * contract's stored spam flag (else null, as both are when not asked).
 */
export interface HistoryItem {
  /**
   * The transfer's JSON text as the history routes give it (TransferItem, written as its writer writes it): the
   * statement writes it, from the values PostgreSQL already prints as text (its canonical decimals, the EIP-55 forms the
   * dictionary keeps), so that a page of 100 is not parsed into some 1,400 fields to be written out again.
   */
  json: string;
  /**
   * Whether every address of `json` is in its EIP-55 form: false where the dictionary keeps none yet (an address stored
   * before 0266_address_checksums that the indexer's pass has not reached), which `json` gives in lower case.
   */
  checksummed: boolean;
  block_number: string;
  log_index: number;
  batch_index: number;
  contract: string | null;
  spam: boolean | null;
}

/** Transfers newest first (block, log index, batch index) before the key `before`; `spam`: with their contracts' flags. */
export async function historyPage(
  db: Queryable,
  query: { network: string; of: HistoryOf; before?: [string, string, string]; limit: number; spam?: boolean },
): Promise<IndexPage<HistoryItem> | undefined> {
  const { network, of, before = HISTORY_KEY_MAX.map(String), limit, spam = false } = query;
  const [block, log, batch] = before;
  const { rows } =
    "owner" in of
      ? await db.query<ListedPageRow>(OWNER_HISTORY_SQL, [network, of.owner, block, log, batch, limit + 1, spam], { prepare: true })
      : await db.query<ListedPageRow>(TOKEN_HISTORY_SQL, [network, of.contract, block, log, batch, limit + 1, of.tokenId, spam], {
          prepare: true,
        });
  return listedPage(rows[0], {
    limit,
    separator: "\n",
    item: historyItem,
    key: (t) => [t.block_number, String(t.log_index), String(t.batch_index)],
    order: newestFirst,
  });
}

/** A history's order: block, log index, batch index, each descending. */
export function newestFirst(a: HistoryItem, b: HistoryItem): number {
  return byDecimal(b.block_number, a.block_number) || b.log_index - a.log_index || b.batch_index - a.batch_index;
}

/**
 * The transfer a line of a page's `items` lists: its key, whether it is checksummed, its contract and flag, its JSON
 * text. Each field is cut at its space, with no list of the fields made on the way (a page reads 100 lines).
 */
function historyItem(line: string): HistoryItem {
  const blockEnd = line.indexOf(" ");
  const logEnd = line.indexOf(" ", blockEnd + 1);
  const batchEnd = line.indexOf(" ", logEnd + 1);
  const checksummedEnd = line.indexOf(" ", batchEnd + 1);
  const contractEnd = line.indexOf(" ", checksummedEnd + 1);
  const spamEnd = line.indexOf(" ", contractEnd + 1);
  const contract = line.slice(checksummedEnd + 1, contractEnd);
  const spam = line.slice(contractEnd + 1, spamEnd);
  return {
    json: line.slice(spamEnd + 1),
    checksummed: line.slice(batchEnd + 1, checksummedEnd) === "t",
    block_number: line.slice(0, blockEnd),
    log_index: Number(line.slice(blockEnd + 1, logEnd)),
    batch_index: Number(line.slice(logEnd + 1, batchEnd)),
    contract: contract === "-" ? null : contract,
    spam: spam === "-" ? null : spam === "t",
  };
}
