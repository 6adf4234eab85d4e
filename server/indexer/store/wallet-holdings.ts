import type { Queryable } from "../../db/database";
import { DELEGATION_KINDS, type DelegationKind } from "../delegations";

/** A collection asked about: a contract on a network, optionally only some of its token ids (decimal strings). */
export interface CollectionQuery {
  network: string;
  /** Lower-case hex. */
  contract: string;
  tokenIds?: string[];
}

/** What one owner holds of one collection, as the index says at `indexed`. */
export interface CollectionHolding {
  /** The block the network's index is complete to, read in the same statement; null before its index started. */
  indexed: number | null;
  /** ERC-721 tokens plus ERC-1155 units held (of the ids asked, when ids were asked), canonical decimals. */
  count: string;
  /** The ids held (of those asked), in id order, at most `maxIds`. */
  ids: string[];
  /** Whether more ids are held than `ids` lists. */
  more: boolean;
  /** Whether the index of the contract misses ConsecutiveTransfer ranges it did not expand (skipped.ts). */
  incomplete: boolean;
}

/** What a vault that delegated to the owner holds of a collection, as far as its delegations cover it. */
export interface VaultHolding extends Omit<CollectionHolding, "indexed" | "incomplete"> {
  /** Lower case. */
  vault: string;
  /** The widest of its delegations that cover the collection. */
  via: DelegationKind;
}

/** A collection's holdings: the owner's own, and with delegations asked, those of the vaults that delegated to it. */
export interface OwnerHolding extends CollectionHolding {
  vaults: VaultHolding[];
}

/** The delegations counted: those of full rights, and with `rights` (32 bytes of hex) those of these rights too. */
export interface DelegationQuery {
  rights: string | null;
}

/** Full rights, as the registry writes them. */
export const FULL_RIGHTS = `0x${"00".repeat(32)}`;

/**
 * What `owner` holds of each collection, in one statement whatever their number, so that a refresh or userinfo reads it
 * in one round trip (a login reads it as DELEGATED_HOLDINGS_SQL does, in the statement that redeems its challenge:
 * server/auth/login-statement.ts, which only reads these tables). Each collection's count comes from nft_holdings (one row), or with ids from nft_owners and nft_balances by
 * their keys; its ids from the owner's inventory indexes; its cursor from indexer_cursors in the same snapshot.
 * $1 owner, $2 the collections as a JSON array of {i, network, contract, ids} (ids: comma-separated decimals, or null
 * for all), $3 the most ids listed per collection plus one. The collections go in as JSON rather than as arrays: the
 * planner estimates jsonb_to_recordset's rows alike with and without their values, so that the prepared statement
 * settles on its generic plan instead of being planned again at each login (planning cost more than running it). Each
 * contract is decoded once, in `q` (materialized, so that the planner does not fold it back into the lookups), and the
 * owner once, in a subquery of its own: written in the lookups, decode() ran again for every row of a small table the
 * generic plan scans whole (server/indexer/store/README.md).
 */
const HOLDINGS_SQL = `WITH q AS MATERIALIZED (
    SELECT q.*, decode(substr(q.contract, 3), 'hex') AS contract_key
    FROM jsonb_to_recordset($2::jsonb) AS q(i integer, network text, contract text, ids text)
  )
  SELECT q.i, c.block_number AS indexed,
    CASE WHEN q.ids IS NULL THEN
      COALESCE((SELECT h.count FROM nft_holdings h
        WHERE h.network_id = n.id AND h.contract = q.contract_key AND h.owner = (SELECT decode(substr($1, 3), 'hex'))), 0)
    ELSE
      (SELECT count(*) FROM nft_owners o
        WHERE o.network_id = n.id AND o.contract_id = ca.id AND o.owner_id = oa.id AND o.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
      + COALESCE((SELECT sum(b.balance) FROM nft_balances b
        WHERE b.network_id = n.id AND b.contract = q.contract_key AND b.owner = (SELECT decode(substr($1, 3), 'hex'))
          AND b.token_id = ANY (string_to_array(q.ids, ',')::numeric[]) AND b.balance > 0), 0)
    END::text AS count,
    ARRAY(
      (SELECT o.token_id FROM nft_owners o
        WHERE o.network_id = n.id AND o.owner_id = oa.id AND o.contract_id = ca.id
          AND (q.ids IS NULL OR o.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
        ORDER BY o.token_id LIMIT $3)
      UNION ALL
      (SELECT b.token_id FROM nft_balances b
        WHERE b.network_id = n.id AND b.owner = (SELECT decode(substr($1, 3), 'hex')) AND b.contract = q.contract_key
          AND b.balance > 0 AND (q.ids IS NULL OR b.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
        ORDER BY b.token_id LIMIT $3)
      ORDER BY 1 LIMIT $3
    )::text[] AS ids,
    EXISTS (SELECT 1 FROM nft_skipped_ranges s WHERE s.network = q.network AND s.contract = q.contract) AS incomplete
  FROM q
    LEFT JOIN indexer_cursors c ON c.network = q.network
    LEFT JOIN indexer_networks n ON n.name = q.network
    LEFT JOIN nft_addresses ca ON ca.address = q.contract_key
    LEFT JOIN nft_addresses oa ON oa.address = (SELECT decode(substr($1, 3), 'hex'))
  ORDER BY q.i`;

/**
 * HOLDINGS_SQL with delegations: in the same statement, the holdings of each vault whose enabled delegate.xyz
 * delegation to the owner (nft_delegations, its newest log) covers the collection, read as the owner's are. A vault
 * with a whole-wallet or contract delegation counts as the owner does; one with token delegations only counts the
 * ERC-721 tokens it delegated (of the ids asked). A statement of its own, not HOLDINGS_SQL with the delegations
 * switched off by a parameter: that form cost a read without delegation more database time (a larger plan to start
 * and run), measured with pgbench beside this one. $1 to $3 as HOLDINGS_SQL's, $4 the rights counted beside full
 * ones (32 bytes of hex), $5 the most delegations read (the oldest first). Rows: the owner's own first (vault null),
 * then each vault's, per collection.
 */
const DELEGATED_HOLDINGS_SQL = `WITH q AS MATERIALIZED (
    SELECT q.*, decode(substr(q.contract, 3), 'hex') AS contract_key
    FROM jsonb_to_recordset($2::jsonb) AS q(i integer, network text, contract text, ids text)
  ),
  granted AS (
    SELECT l.network_id, l.vault, l.kind, l.contract, l.token_id FROM (
      SELECT DISTINCT ON (d.network_id, d.vault, d.kind, d.contract, d.token_id, d.rights)
        d.network_id, d.vault, d.kind, d.contract, d.token_id, d.enable, d.block_number, d.log_index
      FROM nft_delegations d
      WHERE d.network_id IN (SELECT n.id FROM indexer_networks n WHERE n.name IN (SELECT network FROM q))
        AND d.delegate = (SELECT decode(substr($1, 3), 'hex')) AND d.vault <> (SELECT decode(substr($1, 3), 'hex'))
        AND d.rights IN (decode(repeat('00', 32), 'hex'), (SELECT decode(substr($4, 3), 'hex')))
      ORDER BY d.network_id, d.vault, d.kind, d.contract, d.token_id, d.rights, d.block_number DESC, d.log_index DESC
    ) l
    WHERE l.enable
    ORDER BY l.block_number, l.log_index
    LIMIT $5
  ),
  holders AS (
    SELECT q.i, NULL::bytea AS vault, NULL::smallint AS via, q.ids, false AS tokens_only FROM q
    UNION ALL
    SELECT q.i, g.vault, min(g.kind),
      CASE WHEN min(g.kind) < 3 THEN q.ids ELSE string_agg(g.token_id::text, ',' ORDER BY g.token_id)
        FILTER (WHERE q.ids IS NULL OR g.token_id = ANY (string_to_array(q.ids, ',')::numeric[])) END,
      min(g.kind) = 3
    FROM q JOIN indexer_networks n ON n.name = q.network
      JOIN granted g ON g.network_id = n.id AND (g.kind = 1 OR g.contract = q.contract_key)
    GROUP BY q.i, q.ids, g.vault
    HAVING min(g.kind) < 3 OR count(*) FILTER (WHERE q.ids IS NULL OR g.token_id = ANY (string_to_array(q.ids, ',')::numeric[])) > 0
  )
  SELECT o.i, '0x' || encode(o.vault, 'hex') AS vault, o.via, c.block_number AS indexed,
    CASE WHEN o.ids IS NULL THEN
      COALESCE((SELECT h.count FROM nft_holdings h
        WHERE h.network_id = n.id AND h.contract = q.contract_key AND h.owner = w.address), 0)
    ELSE
      (SELECT count(*) FROM nft_owners x
        WHERE x.network_id = n.id AND x.contract_id = ca.id AND x.owner_id = oa.id AND x.token_id = ANY (string_to_array(o.ids, ',')::numeric[]))
      + COALESCE((SELECT sum(b.balance) FROM nft_balances b
        WHERE NOT o.tokens_only AND b.network_id = n.id AND b.contract = q.contract_key AND b.owner = w.address
          AND b.token_id = ANY (string_to_array(o.ids, ',')::numeric[]) AND b.balance > 0), 0)
    END::text AS count,
    ARRAY(
      (SELECT x.token_id FROM nft_owners x
        WHERE x.network_id = n.id AND x.owner_id = oa.id AND x.contract_id = ca.id
          AND (o.ids IS NULL OR x.token_id = ANY (string_to_array(o.ids, ',')::numeric[]))
        ORDER BY x.token_id LIMIT $3)
      UNION ALL
      (SELECT b.token_id FROM nft_balances b
        WHERE NOT o.tokens_only AND b.network_id = n.id AND b.owner = w.address AND b.contract = q.contract_key
          AND b.balance > 0 AND (o.ids IS NULL OR b.token_id = ANY (string_to_array(o.ids, ',')::numeric[]))
        ORDER BY b.token_id LIMIT $3)
      ORDER BY 1 LIMIT $3
    )::text[] AS ids,
    EXISTS (SELECT 1 FROM nft_skipped_ranges s WHERE s.network = q.network AND s.contract = q.contract) AS incomplete,
    (SELECT count(*) FROM granted) >= $5 AS more_delegations
  FROM holders o JOIN q ON q.i = o.i
    CROSS JOIN LATERAL (SELECT COALESCE(o.vault, (SELECT decode(substr($1, 3), 'hex'))) AS address) w
    LEFT JOIN indexer_cursors c ON c.network = q.network
    LEFT JOIN indexer_networks n ON n.name = q.network
    LEFT JOIN nft_addresses ca ON ca.address = q.contract_key
    LEFT JOIN nft_addresses oa ON oa.address = w.address
  ORDER BY o.i, o.vault NULLS FIRST`;

const VIA: Record<number, DelegationKind> = Object.fromEntries(
  Object.entries(DELEGATION_KINDS).map(([kind, value]) => [value, kind as DelegationKind]),
);

/**
 * What `owner` (lower case) holds of each of `collections`, in their order, read in one statement; with `delegation`,
 * also what the vaults that delegated to it hold, at most `maxDelegations` delegations read (`delegationsComplete`
 * false when that many were read: there may be more).
 */
export async function walletHoldings(
  db: Queryable,
  input: { owner: string; collections: CollectionQuery[]; maxIds: number; delegation: DelegationQuery | null; maxDelegations: number },
): Promise<WalletHoldings> {
  const { owner, collections, maxIds, delegation, maxDelegations } = input;
  if (collections.length === 0) return { holdings: [], delegationsComplete: true };
  const asked = collectionsParameter(collections);
  const { rows } = delegation
    ? await db.query<HoldingRow>(DELEGATED_HOLDINGS_SQL, [owner, asked, maxIds + 1, delegation.rights ?? FULL_RIGHTS, maxDelegations], {
        prepare: true,
      })
    : await db.query<HoldingRow>(HOLDINGS_SQL, [owner, asked, maxIds + 1], { prepare: true });
  return holdingsOfRows(rows, maxIds);
}

/** What a wallet holds of the collections asked, in their order, and whether every delegation to it was read. */
export interface WalletHoldings {
  holdings: OwnerHolding[];
  delegationsComplete: boolean;
}

/**
 * The collections asked, as the holdings statements take them ($2: a JSON array of {i, network, contract, ids}). Also
 * for the login's statement that reads them where it redeems the challenge (server/auth/login-statement.ts).
 */
export function collectionsParameter(collections: CollectionQuery[]): string {
  return JSON.stringify(
    collections.map((c, i) => ({ i, network: c.network, contract: c.contract, ids: c.tokenIds ? c.tokenIds.join(",") : null })),
  );
}

/**
 * The holdings of the rows a holdings statement returned, in the order it returns them (the owner's own row of each
 * collection before its vaults'); `maxIds` as asked (the statement lists one more).
 */
export function holdingsOfRows(rows: HoldingRow[], maxIds: number): WalletHoldings {
  const holdings: OwnerHolding[] = [];
  for (const row of rows) {
    const held = { count: row.count, ids: row.ids.slice(0, maxIds), more: row.ids.length > maxIds };
    if (!row.vault)
      holdings[row.i] = { indexed: row.indexed === null ? null : Number(row.indexed), ...held, incomplete: row.incomplete, vaults: [] };
    else holdings[row.i].vaults.push({ vault: row.vault, via: VIA[row.via!], ...held });
  }
  return { holdings, delegationsComplete: !rows.some((row) => row.more_delegations) };
}

/** A row of either statement; `vault`, `via` and `more_delegations` only with delegations. */
export interface HoldingRow {
  i: number;
  vault?: string | null;
  via?: number | null;
  /** A bigint: a string as a row's column, a number as a member of JSON. */
  indexed: string | number | null;
  count: string;
  ids: string[];
  incomplete: boolean;
  more_delegations?: boolean;
}
