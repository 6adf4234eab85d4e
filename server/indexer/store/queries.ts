import { addressId, bytes, hex } from "./ids";

/**
 * The SQL of the page reads (reads.ts), one statement per answer: each reads the network's cursor (the block the
 * index is complete to, `X-Indexed-Block`) with the items, so both come from one snapshot. No cursor row means the
 * network's index has not started.
 */

/**
 * The cursor row of a network with the network's id (n.id) in the compact tables (nft_transfers, nft_owners): NULL
 * when they hold nothing of it yet, which matches no row.
 */
const CURSOR = "indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network";

/** $1 network, $2 owner, $3 contract, $4 after this token id, $5 limit. */
export const INVENTORY_SQL = `SELECT c.block_number AS indexed, o.token_id, o.balance FROM ${CURSOR}
  LEFT JOIN LATERAL (
    (SELECT token_id, NULL::numeric AS balance FROM nft_owners
     WHERE network_id = n.id AND owner_id = ${addressId("$2")} AND contract_id = ${addressId("$3")} AND token_id > $4
     ORDER BY token_id LIMIT $5)
    UNION ALL
    (SELECT token_id, balance FROM nft_balances
     WHERE network = c.network AND owner = $2 AND contract = $3 AND token_id > $4 AND balance > 0 ORDER BY token_id LIMIT $5)
    ORDER BY token_id LIMIT $5
  ) o ON true
  WHERE c.network = $1`;

/** $1 network, $2 owner, $3 after this contract, $4 limit (from the holdings: one row per contract held). */
export const CONTRACTS_SQL = `SELECT c.block_number AS indexed, ${hex("h.contract")} AS contract FROM ${CURSOR}
  LEFT JOIN LATERAL (
    SELECT contract FROM nft_holdings WHERE network_id = n.id AND owner = ${bytes("$2")} AND contract > ${bytes("$3")}
    ORDER BY contract LIMIT $4
  ) h ON true
  WHERE c.network = $1`;

/** $1 network, $2 contract, $3 after this owner, $4 limit. */
export const HOLDERS_SQL = `SELECT c.block_number AS indexed, ${hex("h.owner")} AS owner, h.count FROM ${CURSOR}
  LEFT JOIN LATERAL (
    SELECT owner, count FROM nft_holdings WHERE network_id = n.id AND contract = ${bytes("$2")} AND owner > ${bytes("$3")}
    ORDER BY owner LIMIT $4
  ) h ON true
  WHERE c.network = $1`;

/** As HOLDERS_SQL, of one token: $5 token id. */
export const TOKEN_HOLDERS_SQL = `SELECT c.block_number AS indexed, h.owner, h.count FROM ${CURSOR}
  LEFT JOIN LATERAL (
    (SELECT ${hex("a.address")} AS owner, 1::numeric AS count FROM nft_owners o JOIN nft_addresses a ON a.id = o.owner_id
     WHERE o.network_id = n.id AND o.contract_id = ${addressId("$2")} AND o.token_id = $5 AND ${hex("a.address")} > $3)
    UNION ALL
    (SELECT owner, balance FROM nft_balances WHERE network = c.network AND contract = $2 AND token_id = $5 AND owner > $3 AND balance > 0
     ORDER BY owner LIMIT $4)
    ORDER BY owner LIMIT $4
  ) h ON true
  WHERE c.network = $1`;

/** $1 network, $2 contract. */
export const HOLDER_COUNT_SQL = `SELECT c.block_number AS indexed, h.holders FROM ${CURSOR}
  LEFT JOIN nft_holder_counts h ON h.network_id = n.id AND h.contract = ${bytes("$2")}
  WHERE c.network = $1`;

// An ERC-721 row's batch_index is the id's offset in a ConsecutiveTransfer range (0 for a Transfer): it orders and
// pages the ids of one log, and the wire leaves it out (transferItem).
const ORDER = "block_number DESC, log_index DESC, batch_index DESC";
const NEWEST = `ORDER BY ${ORDER} LIMIT $6`;
// Before the cursor ($3 block, $4 log index, $5 batch index).
const BEFORE = "(block_number, log_index, batch_index) < ($3, $4, $5)";

// Each arm gives an ERC-721 row's ids and hash bytes, or an ERC-1155 row's hex text, in the other's NULL columns: the
// page is merged and cut first, and only its rows are turned back into hex (named).
const ARM_721 = `block_number, log_index, batch_index, block_time, tx_hash AS tx_bytes, NULL::text AS tx_hash, contract_id, NULL::text AS contract,
    token_id, from_id, NULL::text AS from_address, to_id, NULL::text AS to_address, NULL::numeric AS amount`;
const ARM_1155 = `block_number, log_index, batch_index, block_time, NULL::bytea, tx_hash, NULL::int, contract,
    token_id, NULL::int, from_address, NULL::int, to_address, amount`;

/** ERC-721 transfers matching `where`, newest first and limited, read from the narrow index `where` selects. */
const erc721 = (where: string) => `SELECT ${ARM_721} FROM nft_transfers WHERE network_id = n.id AND ${where} AND ${BEFORE} ${NEWEST}`;
/** ERC-1155 transfers matching `where`, likewise. */
const erc1155 = (where: string) =>
  `SELECT ${ARM_1155} FROM nft_1155_transfers WHERE network = c.network AND ${where} AND ${BEFORE} ${NEWEST}`;

/** A row's address columns that may hold the one the page is of (`$2`, whose id k.id is looked up once per page). */
type Given = Array<"contract" | "from" | "to">;

/**
 * The address a row names by id in `id` (an ERC-1155 row's hex text in `text`): `$2` where it is the given address,
 * else one dictionary lookup from the key's index alone (it carries the address).
 */
const named = (id: string, text: string, given: boolean) => {
  const lookup = `coalesce((SELECT ${hex("a.address")} FROM nft_addresses a WHERE a.id = ${id}), ${text})`;
  return given ? `CASE WHEN ${id} = k.id THEN lower($2) ELSE ${lookup} END` : lookup;
};

/** Newest-first selections, each limited and walking its own index backwards, merged and cut to one page. */
const newestFirst = (
  arms: string[],
  given: Given,
) => `SELECT c.block_number AS indexed, t.block_number, t.log_index, t.batch_index, t.block_time,
    coalesce(${hex("t.tx_bytes")}, t.tx_hash) AS tx_hash, ${named("t.contract_id", "t.contract", given.includes("contract"))} AS contract, t.token_id,
    ${named("t.from_id", "t.from_address", given.includes("from"))} AS from_address,
    ${named("t.to_id", "t.to_address", given.includes("to"))} AS to_address, t.amount
  FROM ${CURSOR}
  CROSS JOIN LATERAL (SELECT ${addressId("$2")} AS id) k
  LEFT JOIN LATERAL (
    ${arms.map((arm) => `(${arm})`).join("\n    UNION ALL ")}
    ${NEWEST}
  ) t ON true
  WHERE c.network = $1
  ORDER BY t.block_number DESC, t.log_index DESC, t.batch_index DESC`;

/**
 * Transfers from or to an address: $1 network, $2 address, $3–$5 before this (block, log index, batch index), $6
 * limit. Sent, then received (a transfer to oneself is listed once, as sent). Every ERC-721 row names the address
 * as its sender or its receiver: only the other side is looked up.
 */
export const OWNER_HISTORY_SQL = newestFirst(
  [
    erc721("from_id = k.id"),
    erc721("to_id = k.id AND from_id <> k.id"),
    erc1155("from_address = $2"),
    erc1155("to_address = $2 AND from_address <> $2"),
  ],
  ["from", "to"],
);

/** Transfers of one token: $2 contract, $7 token id, the rest as OWNER_HISTORY_SQL. */
export const TOKEN_HISTORY_SQL = newestFirst(
  [erc721("contract_id = k.id AND token_id = $7"), erc1155("contract = $2 AND token_id = $7")],
  ["contract"],
);

/** Most holders read for a token (ERC-1155 ids can have many; the largest balances come first). */
export const MAX_BALANCES = 100;

/** A token's owner (ERC-721) or its largest balances (ERC-1155): $1 network, $2 contract, $3 token id. */
export const TOKEN_SQL = `SELECT c.block_number AS indexed,
  (SELECT ${hex("a.address")} FROM nft_owners o JOIN nft_addresses a ON a.id = o.owner_id
   WHERE o.network_id = n.id AND o.contract_id = ${addressId("$2")} AND o.token_id = $3) AS owner,
  (SELECT json_agg(json_build_object('owner', b.owner, 'balance', b.balance::text) ORDER BY b.balance DESC, b.owner)
   FROM (SELECT owner, balance FROM nft_balances WHERE network = c.network AND contract = $2 AND token_id = $3 AND balance > 0
         ORDER BY balance DESC, owner LIMIT ${MAX_BALANCES}) b) AS balances
  FROM ${CURSOR} WHERE c.network = $1`;
