import type { Queryable } from "../../db/database";
import { listedPage, type IndexPage, type ListedPageRow } from "./reads";

/**
 * The transfer histories: an address's and a token's, ERC-721 and ERC-1155 transfers newest first in one list.
 * Each statement reads the network's cursor with the page, from one snapshot (reads.ts says why).
 *
 * How both statements work. Each arm selects one table's transfers that match, newest first and limited, walking its
 * own narrow index backwards from the key; the arms are merged and cut to one page (`page`). The addresses the page
 * names are then looked up in the dictionary once each (`names`: one scan of its key for all of them, from the key
 * alone: it carries the address and its EIP-55 form, which the page writes as it is, 0266_address_checksums) and joined
 * to the rows by hash. A page names few addresses many times (an owner's every row, a contract on most of them): a
 * lookup per row and per address cost the statement more than its rows did. Only the page's rows are written out, each
 * as its wire form's JSON text ({@link HistoryItem}), and listed in one text, a line each, newest first: its key,
 * whether its addresses are checksummed (t/f), its contract and the contract's flag (`-` where not asked) and its JSON,
 * separated by spaces (none of them holds a space or a line break). The page is then one row for the driver (reads.ts,
 * `listedPage`). Both tables have one layout (ids, the hash's bytes); an ERC-721 row has no amount (NULL). The address
 * the page is of ($2) is decoded and found once, in `cur`, with the network's id and cursor. Both are sent as prepared
 * statements: planning them costs more than running them for a page of 100. batch_index is the id's position in its log
 * in both tables (0 for a Transfer or a TransferSingle, the offset in a ConsecutiveTransfer range, the position in a
 * TransferBatch): it orders and pages the ids of one log, and the wire shows it for ERC-1155 only (transferItem).
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
 * row names the address as its sender or its receiver; it is looked up once with the page's other addresses.
 * $1 network, $2 address, $3 block, $4 log index, $5 batch index (the key: rows before it), $6 limit, $7 whether to
 * read each transfer's contract and its spam flag.
 */
const OWNER_HISTORY_SQL = `WITH cur AS (
    SELECT c.block_number AS indexed, n.id AS network_id, k.id AS address_id
    FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
    LEFT JOIN nft_addresses k ON k.address = (SELECT decode(substr($2, 3), 'hex'))
    WHERE c.network = $1
  ), page AS MATERIALIZED (
    SELECT t.* FROM cur, LATERAL (
      (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, NULL::numeric AS amount
       FROM nft_transfers
       WHERE network_id = cur.network_id AND from_id = cur.address_id AND (block_number, log_index, batch_index) < ($3, $4, $5)
       ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
      UNION ALL
      (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, NULL
       FROM nft_transfers
       WHERE network_id = cur.network_id AND to_id = cur.address_id AND from_id <> cur.address_id
         AND (block_number, log_index, batch_index) < ($3, $4, $5)
       ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
      UNION ALL
      (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, amount
       FROM nft_1155_transfers
       WHERE network_id = cur.network_id AND from_id = cur.address_id AND (block_number, log_index, batch_index) < ($3, $4, $5)
       ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
      UNION ALL
      (SELECT block_number, log_index, batch_index, block_time, tx_hash, contract_id, token_id, from_id, to_id, amount
       FROM nft_1155_transfers
       WHERE network_id = cur.network_id AND to_id = cur.address_id AND from_id <> cur.address_id
         AND (block_number, log_index, batch_index) < ($3, $4, $5)
       ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
      ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6
    ) t
  ), names AS MATERIALIZED (
    -- The contract's bytes too: its spam flag is keyed by them.
    SELECT a.id, a.address, coalesce(a.eip55, '0x' || encode(a.address, 'hex')) AS form, a.eip55 IS NOT NULL AS kept
    FROM nft_addresses a WHERE a.id = ANY (ARRAY(SELECT unnest(ARRAY[contract_id, from_id, to_id]) FROM page))
  )
  SELECT cur.indexed,
    string_agg(t.block_number || ' ' || t.log_index || ' ' || t.batch_index || ' ' || CASE WHEN fa.kept AND ta.kept AND ca.kept THEN 't' ELSE 'f' END
      || ' ' || CASE WHEN $7::boolean THEN '0x' || encode(ca.address, 'hex') ELSE '-' END
      || ' ' || CASE WHEN $7::boolean THEN
           CASE (SELECT flag FROM nft_spam_flags WHERE network_id = cur.network_id AND contract = ca.address) WHEN true THEN 't' WHEN false THEN 'f' ELSE '-' END
         ELSE '-' END
      || ' {"block":' || t.block_number || ',"time":' || coalesce(t.block_time::text, 'null')
      || ',"tx":"0x' || encode(t.tx_hash, 'hex') || '","logIndex":' || t.log_index
      || CASE WHEN t.amount IS NULL THEN '' ELSE ',"batchIndex":' || t.batch_index END
      || ',"from":"' || fa.form || '","to":"' || ta.form || '","contract":"' || ca.form || '","id":' || t.token_id
      || CASE WHEN t.amount IS NULL THEN '' ELSE ',"value":' || t.amount END || '}',
      E'\\n' ORDER BY t.block_number DESC, t.log_index DESC, t.batch_index DESC) AS items
  FROM cur LEFT JOIN (page t JOIN names ca ON ca.id = t.contract_id JOIN names fa ON fa.id = t.from_id JOIN names ta ON ta.id = t.to_id) ON true
  GROUP BY cur.indexed`;

/**
 * One token's transfers, of the table of its contract's standard, and whether the index of its contract is
 * incomplete (reads.ts). The contract is the one the page is of: only the senders and the receivers are looked up.
 * $1 network, $2 contract, $3 block, $4 log index, $5 batch index (the key: rows before it), $6 limit, $7 token id,
 * $8 whether to read the contract and its spam flag.
 */
const TOKEN_HISTORY_SQL = `WITH cur AS (
    SELECT c.block_number AS indexed, n.id AS network_id, k.id AS contract_id,
      coalesce(k.eip55, lower($2)) AS contract_form, k.eip55 IS NOT NULL AS contract_kept,
      CASE WHEN $8::boolean THEN
        CASE (SELECT flag FROM nft_spam_flags WHERE network_id = n.id AND contract = (SELECT decode(substr($2, 3), 'hex')))
          WHEN true THEN 't' WHEN false THEN 'f' ELSE '-' END
      ELSE '-' END AS spam
    FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
    LEFT JOIN nft_addresses k ON k.address = (SELECT decode(substr($2, 3), 'hex'))
    WHERE c.network = $1
  ), page AS MATERIALIZED (
    SELECT t.* FROM cur, LATERAL (
      (SELECT block_number, log_index, batch_index, block_time, tx_hash, token_id, from_id, to_id, NULL::numeric AS amount
       FROM nft_transfers
       WHERE network_id = cur.network_id AND contract_id = cur.contract_id AND token_id = $7 AND (block_number, log_index, batch_index) < ($3, $4, $5)
       ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
      UNION ALL
      (SELECT block_number, log_index, batch_index, block_time, tx_hash, token_id, from_id, to_id, amount
       FROM nft_1155_transfers
       WHERE network_id = cur.network_id AND contract_id = cur.contract_id AND token_id = $7 AND (block_number, log_index, batch_index) < ($3, $4, $5)
       ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6)
      ORDER BY block_number DESC, log_index DESC, batch_index DESC LIMIT $6
    ) t
  ), names AS MATERIALIZED (
    SELECT a.id, coalesce(a.eip55, '0x' || encode(a.address, 'hex')) AS form, a.eip55 IS NOT NULL AS kept
    FROM nft_addresses a WHERE a.id = ANY (ARRAY(SELECT unnest(ARRAY[from_id, to_id]) FROM page))
  )
  SELECT cur.indexed, EXISTS (SELECT 1 FROM nft_skipped_ranges WHERE network = $1 AND contract = lower($2)) AS incomplete,
    (SELECT string_agg(t.block_number || ' ' || t.log_index || ' ' || t.batch_index || ' '
        || CASE WHEN fa.kept AND ta.kept AND cur.contract_kept THEN 't' ELSE 'f' END
        || ' ' || CASE WHEN $8::boolean THEN lower($2) ELSE '-' END || ' ' || cur.spam
        || ' {"block":' || t.block_number || ',"time":' || coalesce(t.block_time::text, 'null')
        || ',"tx":"0x' || encode(t.tx_hash, 'hex') || '","logIndex":' || t.log_index
        || CASE WHEN t.amount IS NULL THEN '' ELSE ',"batchIndex":' || t.batch_index END
        || ',"from":"' || fa.form || '","to":"' || ta.form || '","contract":"' || cur.contract_form || '","id":' || t.token_id
        || CASE WHEN t.amount IS NULL THEN '' ELSE ',"value":' || t.amount END || '}',
        E'\\n' ORDER BY t.block_number DESC, t.log_index DESC, t.batch_index DESC)
      FROM page t JOIN names fa ON fa.id = t.from_id JOIN names ta ON ta.id = t.to_id) AS items
  FROM cur`;

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
  });
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
