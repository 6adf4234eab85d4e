import type { Queryable } from "../../db/database";
import type { TransferRow } from "../transfers";
import type { ChangeKind } from "./changes";
import {
  CONTRACTS_SQL,
  HOLDER_COUNT_SQL,
  HOLDERS_SQL,
  INVENTORY_SQL,
  OWNER_HISTORY_SQL,
  TOKEN_HISTORY_SQL,
  TOKEN_HOLDERS_SQL,
  TOKEN_SQL,
} from "./queries";
import { addressId, hex, networkIdOf } from "./ids";

/**
 * What the rest of the service reads from the index. Only the store names the index tables: the data routes, the
 * token route, the live event feed and the local setup call these functions. A read that finds no cursor row for
 * its network answers `undefined` (the index of that network has not started).
 */

/** The block the index of a network is complete to, with its hash. */
export interface Cursor {
  block: number;
  hash: string;
}

export async function readCursor(db: Queryable, network: string): Promise<Cursor | undefined> {
  const { rows } = await db.query<{ block_number: string; block_hash: string }>(
    "SELECT block_number, block_hash FROM indexer_cursors WHERE network = $1",
    [network],
  );
  return rows[0] ? { block: Number(rows[0].block_number), hash: rows[0].block_hash } : undefined;
}

/**
 * One page of the index: the block it is complete to (read in the same statement as the items), the items, and, when
 * more follow, the sort key of the last item (what the next page starts after).
 */
export interface IndexPage<T> {
  indexed: number;
  items: T[];
  next?: string[];
}

/**
 * Runs one page statement, which asks for `limit + 1` items to learn whether more follow. No row at all: the network
 * has no cursor row. A row whose item columns are null is the LEFT JOIN's row of an empty page (`item` gives null).
 */
async function readPage<R extends { indexed: string }, T>(
  db: Queryable,
  sql: string,
  params: unknown[],
  limit: number,
  item: (row: R) => T | null,
  key: (item: T) => string[],
): Promise<IndexPage<T> | undefined> {
  const { rows } = await db.query<R>(sql, params);
  if (rows.length === 0) return undefined;
  const found = rows.map(item).filter((i): i is T => i !== null);
  const items = found.slice(0, limit);
  return { indexed: Number(rows[0].indexed), items, next: found.length > limit ? key(items[items.length - 1]) : undefined };
}

/** A token of an inventory page: its id and, for ERC-1155, the owner's balance (the database's canonical decimals). */
export interface InventoryItem {
  tokenId: string;
  balance: string | null;
}

/**
 * The tokens of `contract` held by `owner` (lower case), in id order after `after`: ERC-721 owners and ERC-1155
 * balances in one order (a contract is one or the other).
 */
export function inventoryPage(
  db: Queryable,
  query: { network: string; owner: string; contract: string; after?: string; limit: number },
): Promise<IndexPage<InventoryItem> | undefined> {
  const { network, owner, contract, after = "-1", limit } = query;
  return readPage<{ indexed: string; token_id: string | null; balance: string | null }, InventoryItem>(
    db,
    INVENTORY_SQL,
    [network, owner, contract, after, limit + 1],
    limit,
    (r) => (r.token_id === null ? null : { tokenId: r.token_id, balance: r.balance }),
    (i) => [i.tokenId],
  );
}

/** The contracts `owner` (lower case) holds tokens of, each once (lower case), in address order after `after`. */
export function contractsPage(
  db: Queryable,
  query: { network: string; owner: string; after?: string; limit: number },
): Promise<IndexPage<string> | undefined> {
  const { network, owner, after = "", limit } = query;
  return readPage<{ indexed: string; contract: string | null }, string>(
    db,
    CONTRACTS_SQL,
    [network, owner, after, limit + 1],
    limit,
    (r) => r.contract,
    (contract) => [contract],
  );
}

/** A holder (lower case) with what it holds: ERC-721 tokens or ERC-1155 units (the database's canonical decimals). */
export interface HolderItem {
  owner: string;
  count: string;
}

/** The holders of `contract` (or, with `tokenId`, of one token), in address order after `after`. */
export function holdersPage(
  db: Queryable,
  query: { network: string; contract: string; tokenId?: string; after?: string; limit: number },
): Promise<IndexPage<HolderItem> | undefined> {
  const { network, contract, tokenId, after = "", limit } = query;
  return readPage<{ indexed: string; owner: string | null; count: string | null }, HolderItem>(
    db,
    tokenId === undefined ? HOLDERS_SQL : TOKEN_HOLDERS_SQL,
    tokenId === undefined ? [network, contract, after, limit + 1] : [network, contract, after, limit + 1, tokenId],
    limit,
    (r) => (r.owner === null ? null : { owner: r.owner, count: r.count! }),
    (h) => [h.owner],
  );
}

/** How many owners hold tokens of `contract`: one row the indexer keeps as it writes. */
export async function holderCount(
  db: Queryable,
  network: string,
  contract: string,
): Promise<{ indexed: number; holders: number } | undefined> {
  const { rows } = await db.query<{ indexed: string; holders: string | null }>(HOLDER_COUNT_SQL, [network, contract]);
  if (rows.length === 0) return undefined;
  return { indexed: Number(rows[0].indexed), holders: Number(rows[0].holders ?? 0) };
}

/**
 * Largest values a history key can carry into the bigint / integer columns it is compared with (block number, log
 * index, batch index). Without a key, a history page starts at them: the newest transfer first.
 */
export const HISTORY_KEY_MAX: readonly [bigint, bigint, bigint] = [2n ** 63n - 1n, 2n ** 31n - 1n, 2n ** 31n - 1n];

/** Whose transfers: an address's, as sender or receiver, or one token's (lower case; the id in decimal). */
export type HistoryOf = { owner: string } | { contract: string; tokenId: string };

/**
 * Transfers newest first (block, log index, batch index) before the key `before`: ERC-721 and ERC-1155 transfers in
 * one list.
 */
export function historyPage(
  db: Queryable,
  query: { network: string; of: HistoryOf; before?: [string, string, string]; limit: number },
): Promise<IndexPage<TransferRow> | undefined> {
  const { network, of, before = HISTORY_KEY_MAX.map(String), limit } = query;
  const [block, log, batch] = before;
  const params =
    "owner" in of ? [network, of.owner, block, log, batch, limit + 1] : [network, of.contract, block, log, batch, limit + 1, of.tokenId];
  return readPage<{ indexed: string } & { [K in keyof TransferRow]: TransferRow[K] | null }, TransferRow>(
    db,
    "owner" in of ? OWNER_HISTORY_SQL : TOKEN_HISTORY_SQL,
    params,
    limit,
    (r) => (r.block_number === null ? null : (r as TransferRow)),
    (t) => [t.block_number, String(t.log_index), String(t.batch_index ?? 0)],
  );
}

/** Who holds a token, from the index: its owner (ERC-721) or its holders' balances (ERC-1155). */
export type Holding = { standard: "erc721"; owner: string } | { standard: "erc1155"; balances: Array<{ owner: string; balance: string }> };

/**
 * The block the index of `network` is complete to (null before it started) and the token's holding in the same
 * statement (undefined when the index has no such token: never minted, burned, or a contract not indexed).
 */
export async function tokenHolding(
  db: Queryable,
  network: string,
  contract: string,
  id: bigint,
): Promise<{ indexed: number | null; holding?: Holding }> {
  const { rows } = await db.query<{ indexed: string; owner: string | null; balances: Array<{ owner: string; balance: string }> | null }>(
    TOKEN_SQL,
    [network, contract, id.toString()],
  );
  if (rows.length === 0) return { indexed: null };
  const { indexed, owner, balances } = rows[0];
  if (owner !== null) return { indexed: Number(indexed), holding: { standard: "erc721", owner } };
  if (balances && balances.length > 0) return { indexed: Number(indexed), holding: { standard: "erc1155", balances } };
  return { indexed: Number(indexed) };
}

/** Whether the index holds ERC-721 transfers of `contract` (lower case): the contract is an ERC-721 it indexes. */
export async function indexesErc721(db: Queryable, network: string, contract: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM nft_transfers WHERE network_id = ${networkIdOf("$1")} AND contract_id = ${addressId("$2")} LIMIT 1`,
    [network, contract],
  );
  return rows.length > 0;
}

/** One row of the change log: a transfer written or removed by a reorg, or a network's index starting over. */
export interface ChangeRow extends TransferRow {
  id: string;
  network: string;
  kind: ChangeKind | "reset" | "metadata";
  /** Of a "metadata" change: the last id of its range (token_id is the first). */
  to_token_id: string | null;
}

/** Most change-log rows one read returns (a reader that gets this many reads again after the last). */
export const CHANGES_PAGE = 1_000;
/** The change log's rows as the API reads them (network names, hex addresses and hashes), from `c` and its joins in CHANGES. */
const COLUMNS = `c.id, n.name AS network, c.kind, c.block_number, c.log_index, c.batch_index, c.block_time, ${hex("c.tx_hash")} AS tx_hash,
  ${hex("ca.address")} AS contract, c.token_id, c.to_token_id, ${hex("fa.address")} AS from_address, ${hex("ta.address")} AS to_address, c.amount`;
/** The change log with the names of its ids (a reset or a metadata change has no sender or receiver). */
const CHANGES = `nft_changes c JOIN indexer_networks n ON n.id = c.network_id
  LEFT JOIN nft_addresses ca ON ca.id = c.contract_id
  LEFT JOIN nft_addresses fa ON fa.id = c.from_id
  LEFT JOIN nft_addresses ta ON ta.id = c.to_id`;

/** The id of the newest change (0 when the log is empty): a reader starting now reads after it. */
export async function lastChangeId(db: Queryable): Promise<bigint> {
  const { rows } = await db.query<{ last: string | null }>("SELECT max(id)::text AS last FROM nft_changes");
  return BigInt(rows[0].last ?? 0);
}

/** Up to {@link CHANGES_PAGE} changes after id `after`, in id order. */
export async function changesAfter(db: Queryable, after: bigint): Promise<ChangeRow[]> {
  const { rows } = await db.query<ChangeRow>(`SELECT ${COLUMNS} FROM ${CHANGES} WHERE c.id > $1 ORDER BY c.id LIMIT ${CHANGES_PAGE}`, [
    after.toString(),
  ]);
  return rows;
}

/**
 * As {@link changesAfter}, up to id `upTo`, `limit` at most, and of one network only: its resets, and its transfers
 * whose sender or receiver is `owner` and whose contract is `contract` (lower case; either left out matches all).
 */
export async function networkChangesAfter(
  db: Queryable,
  after: bigint,
  upTo: bigint,
  filter: { network: string; owner?: string; contract?: string },
  limit = CHANGES_PAGE,
): Promise<ChangeRow[]> {
  const { rows } = await db.query<ChangeRow>(
    `SELECT ${COLUMNS} FROM ${CHANGES}
           WHERE c.id > $1 AND c.id <= $2 AND c.network_id = ${networkIdOf("$3")}
             AND (c.kind = 'reset' OR (($4::text IS NULL OR c.from_id = ${addressId("$4")} OR c.to_id = ${addressId("$4")})
               AND ($5::text IS NULL OR c.contract_id = ${addressId("$5")})))
           ORDER BY c.id LIMIT $6`,
    [after.toString(), upTo.toString(), filter.network, filter.owner ?? null, filter.contract ?? null, Math.min(limit, CHANGES_PAGE)],
  );
  return rows;
}
