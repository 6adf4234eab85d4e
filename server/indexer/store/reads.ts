import { arrayLiteral } from "../../db/arrays";
import type { Queryable } from "../../db/database";
import type { TransferRow } from "../transfers";
import type { ChangeKind } from "./changes";

/**
 * What the rest of the service reads from the index. Only the store names the index tables: the data routes, the
 * token route, the live event feed and the local setup call these functions. Each page statement reads the network's
 * cursor (the block the index is complete to, `X-Indexed-Block`) with the items, so both come from one snapshot: it
 * starts from the cursor row, joined with the network's id in the compact tables (n.id, NULL when they hold nothing of
 * it yet, which matches no row). No cursor row means the network's index has not started, and a read answers
 * `undefined`. A statement about one contract also tells, in the same snapshot, whether the index of that contract
 * misses ConsecutiveTransfer ranges it did not expand (nft_skipped_ranges, skipped.ts): `incomplete`, computed once
 * per statement (it names parameters only), so an answer needs no statement of its own to say so. Asked (`spam`), a
 * page statement reads the stored spam flags (nft_spam_flags, spam.ts) beside its items in the same way: of its one
 * contract, or of each item's, so that `?spam=exclude` costs no statement either (NULL when not asked or unclassified).
 * The pages every client reads (inventory, holders, the histories) go as prepared statements: planning a statement
 * of several arms costs more than running it for a page of 100.
 */

/**
 * One page of the index: the block it is complete to (read in the same statement as the items), the items, and, when
 * more follow, the sort key of the last item (what the next page starts after).
 */
export interface IndexPage<T> {
  indexed: number;
  items: T[];
  next?: string[];
  /** Present (true) when the page is of one contract whose index misses ranges it did not expand (`X-Index-Complete: false`). */
  incomplete?: true;
}

/** A page of one contract, with the contract's stored spam flag when it was asked for (`spam: true` when flagged). */
export type ContractPage<T> = IndexPage<T> & { spam?: true };

/**
 * The page a page statement's rows make; the statement asked for `limit + 1` items to learn whether more follow. No
 * row at all: the network has no cursor row. A row whose item columns are null is the LEFT JOIN's row of an empty
 * page (`item` gives null).
 */
export function pageOf<R extends { indexed: string; incomplete?: boolean }, T>(
  rows: R[],
  limit: number,
  item: (row: R) => T | null,
  key: (item: T) => string[],
): IndexPage<T> | undefined {
  if (rows.length === 0) return undefined;
  const found = rows.map(item).filter((i): i is T => i !== null);
  const items = found.slice(0, limit);
  return {
    indexed: Number(rows[0].indexed),
    items,
    next: found.length > limit ? key(items[items.length - 1]) : undefined,
    ...(rows[0].incomplete ? { incomplete: true } : {}),
  };
}

/**
 * The row of a page statement that lists its items in one text: `items`, the items each written so that it holds no
 * separator (null for an empty page), in the order the aggregate's input came: the page's own (its rows merged from
 * ordered index scans and cut), which SQL does not promise, so listedPage checks it (`order`). An ORDER BY in the
 * aggregate made PostgreSQL sort rows that were in order already: a tenth to a sixth of a page statement's CPU. A page
 * of 100 is then one row for the driver, not 101 rows of five to eight fields each: parsing those rows cost the service
 * more than the rest of the request. `incomplete` and `spam` where the statement reads them.
 */
export interface ListedPageRow {
  indexed: string;
  items: string | null;
  incomplete?: boolean;
  spam?: boolean | null;
}

/**
 * The page `row` lists (a statement asked for `limit + 1` items to learn whether more follow; no row at all: the
 * network has no cursor row): its items split at `separator` and each read by `item`, in the page's `order` (items
 * that came otherwise are sorted, before the page is cut), with the contract's spam flag and incompleteness the row
 * carries.
 */
export function listedPage<T>(
  row: ListedPageRow | undefined,
  list: { limit: number; separator: string; item: (text: string) => T; key: (item: T) => string[]; order: (a: T, b: T) => number },
): ContractPage<T> | undefined {
  if (!row) return undefined;
  const { limit, separator, item, key, order } = list;
  // A page in order already costs the sort a comparison per item: it finds one run (the listed-pages test holds it).
  const items = row.items === null ? [] : row.items.split(separator).map(item).sort(order);
  const page = items.slice(0, limit);
  return {
    indexed: Number(row.indexed),
    items: page,
    next: items.length > limit ? key(page[page.length - 1]) : undefined,
    ...(row.incomplete ? { incomplete: true } : {}),
    ...(row.spam ? { spam: true } : {}),
  };
}

/** The order of two texts by their code units: of two addresses of one case (the store's lower-case hex), their bytes'. */
const byText = (a: string, b: string): number => (a === b ? 0 : a < b ? -1 : 1);

/** The order of two canonical decimals (no sign, no leading zero), as the values they write: a longer one is larger. */
export function byDecimal(a: string, b: string): number {
  return a.length - b.length || byText(a, b);
}

/** A token of an inventory page: its id and, for ERC-1155, the owner's balance (the database's canonical decimals). */
export interface InventoryItem {
  tokenId: string;
  balance: string | null;
}

/**
 * ERC-721 owners and ERC-1155 balances in one id order (a contract is one or the other), listed in one text: `id` for
 * an ERC-721 token, `id:balance` for an ERC-1155 one.
 * $1 network, $2 owner, $3 contract, $4 after this token id, $5 limit, $6 whether to read the contract's spam flag.
 */
const INVENTORY_SQL = `SELECT c.block_number AS indexed, o.items,
    EXISTS (SELECT 1 FROM nft_skipped_ranges WHERE network = $1 AND contract = $3) AS incomplete,
    CASE WHEN $6::boolean THEN (SELECT flag FROM nft_spam_flags WHERE network_id = n.id AND contract = (SELECT decode(substr($3, 3), 'hex'))) END AS spam
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  LEFT JOIN LATERAL (
    SELECT string_agg(t.token_id || coalesce(':' || t.balance, ''), ',') AS items
    FROM (
      (SELECT token_id, NULL::numeric AS balance FROM nft_owners
       WHERE network_id = n.id
         AND owner_id = (SELECT id FROM nft_addresses WHERE address = (SELECT decode(substr($2, 3), 'hex')))
         AND contract_id = (SELECT id FROM nft_addresses WHERE address = (SELECT decode(substr($3, 3), 'hex')))
         AND token_id > $4
       ORDER BY token_id LIMIT $5)
      UNION ALL
      (SELECT token_id, balance FROM nft_balances
       WHERE network_id = n.id AND owner = (SELECT decode(substr($2, 3), 'hex')) AND contract = (SELECT decode(substr($3, 3), 'hex'))
         AND token_id > $4 AND balance > 0
       ORDER BY token_id LIMIT $5)
      ORDER BY token_id LIMIT $5
    ) t
  ) o ON true
  WHERE c.network = $1`;

/** The tokens of `contract` held by `owner` (lower case), in id order after `after`; `spam`: read the contract's flag too. */
export async function inventoryPage(
  db: Queryable,
  query: { network: string; owner: string; contract: string; after?: string; limit: number; spam?: boolean },
): Promise<ContractPage<InventoryItem> | undefined> {
  const { network, owner, contract, after = "-1", limit, spam = false } = query;
  const { rows } = await db.query<ListedPageRow>(INVENTORY_SQL, [network, owner, contract, after, limit + 1, spam], { prepare: true });
  // `id` for an ERC-721 token, `id:balance` for an ERC-1155 one, cut at the colon: `split` made an array per item, and
  // reading a page of 100 cost about four times as much.
  return listedPage(rows[0], {
    limit,
    separator: ",",
    item: (text) => {
      const colon = text.indexOf(":");
      return colon < 0 ? { tokenId: text, balance: null } : { tokenId: text.slice(0, colon), balance: text.slice(colon + 1) };
    },
    key: (i) => [i.tokenId],
    order: (a, b) => byDecimal(a.tokenId, b.tokenId),
  });
}

/**
 * From the holdings: one row per contract held. $1 network, $2 owner, $3 after this contract, $4 limit, $5 whether to
 * read each contract's spam flag.
 */
const CONTRACTS_SQL = `SELECT c.block_number AS indexed, '0x' || encode(h.contract, 'hex') AS contract,
    CASE WHEN $5::boolean THEN (SELECT flag FROM nft_spam_flags f WHERE f.network_id = n.id AND f.contract = h.contract) END AS spam
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  LEFT JOIN LATERAL (
    SELECT contract FROM nft_holdings
    WHERE network_id = n.id AND owner = decode(substr($2, 3), 'hex') AND contract > decode(substr($3, 3), 'hex')
    ORDER BY contract LIMIT $4
  ) h ON true
  WHERE c.network = $1`;

/** A contract an owner holds tokens of (lower case), with its stored spam flag when asked (else null). */
export interface HeldContract {
  contract: string;
  spam: boolean | null;
}

/** The contracts `owner` (lower case) holds tokens of, each once, in address order after `after`; `spam`: with their flags. */
export async function contractsPage(
  db: Queryable,
  query: { network: string; owner: string; after?: string; limit: number; spam?: boolean },
): Promise<IndexPage<HeldContract> | undefined> {
  const { network, owner, after = "", limit, spam = false } = query;
  const { rows } = await db.query<{ indexed: string; contract: string | null; spam: boolean | null }>(CONTRACTS_SQL, [
    network,
    owner,
    after,
    limit + 1,
    spam,
  ]);
  return pageOf(
    rows,
    limit,
    // The flags are the items', not the page's.
    (r) => (r.contract === null ? null : { contract: r.contract, spam: r.spam }),
    (held) => [held.contract],
  );
}

/** A holder (lower case) with what it holds: ERC-721 tokens or ERC-1155 units (the database's canonical decimals). */
export interface HolderItem {
  owner: string;
  count: string;
}

/**
 * From the holdings, listed in one text: `0x<owner>:<count>` each.
 * $1 network, $2 contract, $3 after this owner, $4 limit, $5 whether to read the contract's spam flag.
 * The limit is read in a subquery of its own, as the addresses are: a plan that sees its value costs less than the
 * generic one once a contract has thousands of holders, so PostgreSQL planned the statement again at every execution
 * (at more than the page's reading costs); unseen, both plans cost the same and the generic one is kept.
 */
const HOLDERS_SQL = `SELECT c.block_number AS indexed, h.items,
    EXISTS (SELECT 1 FROM nft_skipped_ranges WHERE network = $1 AND contract = $2) AS incomplete,
    CASE WHEN $5::boolean THEN (SELECT flag FROM nft_spam_flags WHERE network_id = n.id AND contract = (SELECT decode(substr($2, 3), 'hex'))) END AS spam
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  LEFT JOIN LATERAL (
    SELECT string_agg('0x' || encode(t.owner, 'hex') || ':' || t.count, ',') AS items
    FROM (
      SELECT owner, count FROM nft_holdings
      WHERE network_id = n.id AND contract = (SELECT decode(substr($2, 3), 'hex')) AND owner > (SELECT decode(substr($3, 3), 'hex'))
      ORDER BY owner LIMIT (SELECT $4::int)
    ) t
  ) h ON true
  WHERE c.network = $1`;

/**
 * ERC-721 owner and ERC-1155 balances of one token in one address order (of their bytes, which sort as their hex),
 * listed in one text as the holders of a contract are.
 * $1 network, $2 contract, $3 after this owner, $4 limit, $5 token id, $6 whether to read the contract's spam flag.
 */
const TOKEN_HOLDERS_SQL = `SELECT c.block_number AS indexed, h.items,
    EXISTS (SELECT 1 FROM nft_skipped_ranges WHERE network = $1 AND contract = $2) AS incomplete,
    CASE WHEN $6::boolean THEN (SELECT flag FROM nft_spam_flags WHERE network_id = n.id AND contract = (SELECT decode(substr($2, 3), 'hex'))) END AS spam
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  LEFT JOIN LATERAL (
    SELECT string_agg('0x' || encode(t.owner, 'hex') || ':' || t.count, ',') AS items
    FROM (
      (SELECT a.address AS owner, 1::numeric AS count FROM nft_owners o JOIN nft_addresses a ON a.id = o.owner_id
       WHERE o.network_id = n.id
         AND o.contract_id = (SELECT id FROM nft_addresses WHERE address = (SELECT decode(substr($2, 3), 'hex')))
         AND o.token_id = $5 AND a.address > (SELECT decode(substr($3, 3), 'hex')))
      UNION ALL
      (SELECT owner, balance FROM nft_balances
       WHERE network_id = n.id AND contract = (SELECT decode(substr($2, 3), 'hex')) AND token_id = $5
         AND owner > (SELECT decode(substr($3, 3), 'hex')) AND balance > 0
       ORDER BY owner LIMIT $4)
      ORDER BY owner LIMIT $4
    ) t
  ) h ON true
  WHERE c.network = $1`;

/**
 * The holders of `contract` (or, with `tokenId`, of one token), in address order after `after`; `spam`: read the
 * contract's flag too.
 */
export async function holdersPage(
  db: Queryable,
  query: { network: string; contract: string; tokenId?: string; after?: string; limit: number; spam?: boolean },
): Promise<ContractPage<HolderItem> | undefined> {
  const { network, contract, tokenId, after = "", limit, spam = false } = query;
  const { rows } =
    tokenId === undefined
      ? await db.query<ListedPageRow>(HOLDERS_SQL, [network, contract, after, limit + 1, spam], { prepare: true })
      : await db.query<ListedPageRow>(TOKEN_HOLDERS_SQL, [network, contract, after, limit + 1, tokenId, spam], { prepare: true });
  return listedPage(rows[0], {
    limit,
    separator: ",",
    // `0x<owner>:<count>`, cut at the colon with no array made (as an inventory's items).
    item: (text) => {
      const colon = text.indexOf(":");
      return { owner: text.slice(0, colon), count: text.slice(colon + 1) };
    },
    key: (h) => [h.owner],
    order: (a, b) => byText(a.owner, b.owner),
  });
}

/** $1 network, $2 contract. */
const HOLDER_COUNT_SQL = `SELECT c.block_number AS indexed, h.holders,
    EXISTS (SELECT 1 FROM nft_skipped_ranges WHERE network = $1 AND contract = $2) AS incomplete
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  LEFT JOIN nft_holder_counts h ON h.network_id = n.id AND h.contract = (SELECT decode(substr($2, 3), 'hex'))
  WHERE c.network = $1`;

/** How many owners hold tokens of `contract`: one row the indexer keeps as it writes. */
export async function holderCount(
  db: Queryable,
  network: string,
  contract: string,
): Promise<{ indexed: number; holders: number; incomplete?: true } | undefined> {
  const { rows } = await db.query<{ indexed: string; holders: string | null; incomplete: boolean }>(HOLDER_COUNT_SQL, [network, contract], {
    prepare: true,
  });
  if (rows.length === 0) return undefined;
  const { indexed, holders, incomplete } = rows[0];
  return { indexed: Number(indexed), holders: Number(holders ?? 0), ...(incomplete ? { incomplete: true as const } : {}) };
}

/** Who holds a token, from the index: its owner (ERC-721) or its holders' balances (ERC-1155). */
export type Holding = { standard: "erc721"; owner: string } | { standard: "erc1155"; balances: Array<{ owner: string; balance: string }> };

/** Most holders read for a token (ERC-1155 ids can have many; the largest balances come first). */
export const MAX_BALANCES = 100;

/** A token's owner (ERC-721) or its largest balances (ERC-1155). $1 network, $2 contract, $3 token id. */
const TOKEN_SQL = `SELECT c.block_number AS indexed,
  (SELECT '0x' || encode(a.address, 'hex') FROM nft_owners o JOIN nft_addresses a ON a.id = o.owner_id
   WHERE o.network_id = n.id
     AND o.contract_id = (SELECT id FROM nft_addresses WHERE address = (SELECT decode(substr($2, 3), 'hex')))
     AND o.token_id = $3) AS owner,
  (SELECT json_agg(json_build_object('owner', '0x' || encode(b.owner, 'hex'), 'balance', b.balance::text) ORDER BY b.balance DESC, b.owner)
   FROM (SELECT owner, balance FROM nft_balances
         WHERE network_id = n.id AND contract = (SELECT decode(substr($2, 3), 'hex')) AND token_id = $3 AND balance > 0
         ORDER BY balance DESC, owner LIMIT ${MAX_BALANCES}) b) AS balances,
  EXISTS (SELECT 1 FROM nft_skipped_ranges WHERE network = $1 AND contract = $2) AS incomplete
  FROM indexer_cursors c LEFT JOIN indexer_networks n ON n.name = c.network
  WHERE c.network = $1`;

/**
 * The block the index of `network` is complete to (null before it started) and the token's holding in the same
 * statement (undefined when the index has no such token: never minted, burned, or a contract not indexed), and
 * whether the index of its contract is incomplete.
 */
export async function tokenHolding(
  db: Queryable,
  network: string,
  contract: string,
  id: bigint,
): Promise<{ indexed: number | null; holding?: Holding; incomplete?: true }> {
  const { rows } = await db.query<{
    indexed: string;
    owner: string | null;
    balances: Array<{ owner: string; balance: string }> | null;
    incomplete: boolean;
  }>(TOKEN_SQL, [network, contract, id.toString()], { prepare: true });
  if (rows.length === 0) return { indexed: null };
  const { indexed, owner, balances } = rows[0];
  const incomplete = rows[0].incomplete ? { incomplete: true as const } : {};
  if (owner !== null) return { indexed: Number(indexed), holding: { standard: "erc721", owner }, ...incomplete };
  if (balances && balances.length > 0) return { indexed: Number(indexed), holding: { standard: "erc1155", balances }, ...incomplete };
  return { indexed: Number(indexed), ...incomplete };
}

/** Whether the index holds ERC-721 transfers of `contract` (lower case): the contract is an ERC-721 it indexes. */
export async function indexesErc721(db: Queryable, network: string, contract: string): Promise<boolean> {
  // $1 network, $2 contract
  const { rows } = await db.query(
    `SELECT 1 FROM nft_transfers
     WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)
       AND contract_id = (SELECT id FROM nft_addresses WHERE address = decode(substr($2, 3), 'hex'))
     LIMIT 1`,
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

/** The id of the newest change (0 when the log is empty): a reader starting now reads after it. */
export async function lastChangeId(db: Queryable): Promise<bigint> {
  const { rows } = await db.query<{ last: string | null }>("SELECT max(id)::text AS last FROM nft_changes");
  return BigInt(rows[0].last ?? 0);
}

/**
 * The id of the newest change and the block each network's index has reached, read together: the log up to that id
 * is exactly what the index holds up to those blocks (both are written in one transaction).
 */
export async function changeLogHeads(db: Queryable): Promise<{ last: bigint; heads: Map<string, number> }> {
  const { rows } = await db.query<{ last: string | null; networks: string[] | null; blocks: string[] | null }>(
    `SELECT (SELECT max(id) FROM nft_changes)::text AS last,
       (SELECT array_agg(network ORDER BY network) FROM indexer_cursors) AS networks,
       (SELECT array_agg(block_number::text ORDER BY network) FROM indexer_cursors) AS blocks`,
  );
  const { last, networks, blocks } = rows[0];
  return { last: BigInt(last ?? 0), heads: new Map((networks ?? []).map((network, i) => [network, Number(blocks![i])])) };
}

/** A rollback as the change log records it: blocks above `ancestor` undone (-1: all), the index at `head` before it. */
export interface ChangeRollback {
  /** The newest change logged before it. */
  changeId: bigint;
  ancestor: number;
  head: number;
}

/** The rollbacks of a network the change log keeps, in the order they happened, the newest `limit` at most. */
export async function changeRollbacks(db: Queryable, network: string, limit = 1_000): Promise<ChangeRollback[]> {
  // $1 network, $2 limit
  const { rows } = await db.query<{ change_id: string; ancestor_block: string; head_block: string }>(
    `SELECT change_id::text, ancestor_block::text, head_block::text FROM (
       SELECT id, change_id, ancestor_block, head_block FROM nft_change_rollbacks
       WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1) ORDER BY id DESC LIMIT $2) r
     ORDER BY id`,
    [network, limit],
  );
  return rows.map((r) => ({ changeId: BigInt(r.change_id), ancestor: Number(r.ancestor_block), head: Number(r.head_block) }));
}

/**
 * Where the change log stands: the id before its oldest change (a reader positioned there reads everything it keeps)
 * and when that change was logged, and the id of the newest change logged before `time` (null when none is kept).
 */
export async function changeLogPositions(
  db: Queryable,
  time: Date,
): Promise<{ before: bigint; oldestAt: Date | null; beforeTime: bigint | null }> {
  // $1 time
  const { rows } = await db.query<{ oldest: string | null; oldest_at: Date | null; before_time: string | null }>(
    `SELECT (SELECT min(id) FROM nft_changes)::text AS oldest,
       (SELECT created_at FROM nft_changes ORDER BY id LIMIT 1) AS oldest_at,
       (SELECT max(id) FROM nft_changes WHERE created_at < $1)::text AS before_time`,
    [time],
  );
  const { oldest, oldest_at, before_time } = rows[0];
  return {
    before: oldest === null ? await lastChangeId(db) : BigInt(oldest) - 1n,
    oldestAt: oldest_at,
    beforeTime: before_time === null ? null : BigInt(before_time),
  };
}

/**
 * When the first change after each of `ids` was logged (null when none follows): how long a reader positioned at an
 * id has left something unread.
 */
export async function firstChangeTimesAfter(db: Queryable, ids: readonly bigint[]): Promise<Array<Date | null>> {
  if (ids.length === 0) return [];
  // $1 ids
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT (SELECT created_at FROM nft_changes WHERE id > p.id ORDER BY id LIMIT 1) AS at
     FROM unnest($1::bigint[]) WITH ORDINALITY AS p(id, n) ORDER BY p.n`,
    [arrayLiteral(ids)],
  );
  return rows.map((row) => row.at);
}

/**
 * Up to {@link CHANGES_PAGE} changes after id `after`, in id order, as the API reads them (network names, hex
 * addresses and hashes; a reset or a metadata change has no sender or receiver).
 */
export async function changesAfter(db: Queryable, after: bigint): Promise<ChangeRow[]> {
  // $1 after this id
  const { rows } = await db.query<ChangeRow>(
    `SELECT c.id, n.name AS network, c.kind, c.block_number, c.log_index, c.batch_index, c.block_time, '0x' || encode(c.tx_hash, 'hex') AS tx_hash,
       '0x' || encode(ca.address, 'hex') AS contract, c.token_id, c.to_token_id,
       '0x' || encode(fa.address, 'hex') AS from_address, '0x' || encode(ta.address, 'hex') AS to_address, c.amount
     FROM nft_changes c JOIN indexer_networks n ON n.id = c.network_id
       LEFT JOIN nft_addresses ca ON ca.id = c.contract_id
       LEFT JOIN nft_addresses fa ON fa.id = c.from_id
       LEFT JOIN nft_addresses ta ON ta.id = c.to_id
     WHERE c.id > $1 ORDER BY c.id LIMIT ${CHANGES_PAGE}`,
    [after.toString()],
  );
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
  // $1 after this id, $2 up to this id, $3 network, $4 owner or null, $5 contract or null, $6 limit
  const { rows } = await db.query<ChangeRow>(
    `SELECT c.id, n.name AS network, c.kind, c.block_number, c.log_index, c.batch_index, c.block_time, '0x' || encode(c.tx_hash, 'hex') AS tx_hash,
       '0x' || encode(ca.address, 'hex') AS contract, c.token_id, c.to_token_id,
       '0x' || encode(fa.address, 'hex') AS from_address, '0x' || encode(ta.address, 'hex') AS to_address, c.amount
     FROM nft_changes c JOIN indexer_networks n ON n.id = c.network_id
       LEFT JOIN nft_addresses ca ON ca.id = c.contract_id
       LEFT JOIN nft_addresses fa ON fa.id = c.from_id
       LEFT JOIN nft_addresses ta ON ta.id = c.to_id
     WHERE c.id > $1 AND c.id <= $2 AND c.network_id = (SELECT id FROM indexer_networks WHERE name = $3)
       AND (c.kind = 'reset' OR (($4::text IS NULL
         OR c.from_id = (SELECT id FROM nft_addresses WHERE address = decode(substr($4, 3), 'hex'))
         OR c.to_id = (SELECT id FROM nft_addresses WHERE address = decode(substr($4, 3), 'hex')))
         AND ($5::text IS NULL OR c.contract_id = (SELECT id FROM nft_addresses WHERE address = decode(substr($5, 3), 'hex')))))
     ORDER BY c.id LIMIT $6`,
    [after.toString(), upTo.toString(), filter.network, filter.owner ?? null, filter.contract ?? null, Math.min(limit, CHANGES_PAGE)],
  );
  return rows;
}

/** Which changes of one network a reader wants: every list left out (or empty) matches all. */
export interface ChangeSelection {
  network: string;
  /** Lower case; a transfer matches when its sender or receiver is one of them (a metadata change names none). */
  owners?: readonly string[];
  /** Lower case. */
  contracts?: readonly string[];
  /** The kinds wanted; resets are otherwise always wanted, whatever the owners and contracts. */
  kinds?: readonly ChangeRow["kind"][];
}

/**
 * As {@link networkChangesAfter}, for lists of owners and contracts and the kinds wanted: what a webhook subscription
 * reads (the event stream's one owner and one contract keep their own statement, which its backlog reads are tuned to).
 */
export async function selectedChangesAfter(
  db: Queryable,
  after: bigint,
  upTo: bigint,
  selection: ChangeSelection,
  limit = CHANGES_PAGE,
): Promise<ChangeRow[]> {
  const list = (values?: readonly string[]) => (values && values.length > 0 ? arrayLiteral(values) : null);
  // $1 after this id, $2 up to this id, $3 network, $4 owners or null, $5 contracts or null, $6 limit, $7 kinds or null
  const { rows } = await db.query<ChangeRow>(
    `SELECT c.id, n.name AS network, c.kind, c.block_number, c.log_index, c.batch_index, c.block_time, '0x' || encode(c.tx_hash, 'hex') AS tx_hash,
       '0x' || encode(ca.address, 'hex') AS contract, c.token_id, c.to_token_id,
       '0x' || encode(fa.address, 'hex') AS from_address, '0x' || encode(ta.address, 'hex') AS to_address, c.amount
     FROM nft_changes c JOIN indexer_networks n ON n.id = c.network_id
       LEFT JOIN nft_addresses ca ON ca.id = c.contract_id
       LEFT JOIN nft_addresses fa ON fa.id = c.from_id
       LEFT JOIN nft_addresses ta ON ta.id = c.to_id
     WHERE c.id > $1 AND c.id <= $2 AND c.network_id = (SELECT id FROM indexer_networks WHERE name = $3)
       AND ($7::text[] IS NULL OR c.kind = ANY($7::text[]))
       AND (c.kind = 'reset' OR (($4::text[] IS NULL
         OR c.from_id IN (SELECT id FROM nft_addresses WHERE address IN (SELECT decode(substr(a, 3), 'hex') FROM unnest($4::text[]) a))
         OR c.to_id IN (SELECT id FROM nft_addresses WHERE address IN (SELECT decode(substr(a, 3), 'hex') FROM unnest($4::text[]) a)))
         AND ($5::text[] IS NULL
           OR c.contract_id IN (SELECT id FROM nft_addresses WHERE address IN (SELECT decode(substr(a, 3), 'hex') FROM unnest($5::text[]) a)))))
     ORDER BY c.id LIMIT $6`,
    [
      after.toString(),
      upTo.toString(),
      selection.network,
      list(selection.owners),
      list(selection.contracts),
      Math.min(limit, CHANGES_PAGE),
      selection.kinds && selection.kinds.length > 0 ? `{${selection.kinds.join(",")}}` : null,
    ],
  );
  return rows;
}
