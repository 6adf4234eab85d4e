import type { Queryable } from "../server/db/database";
import { readMigrations, type Migration } from "../server/db/migrate";
import { transferItem } from "../server/data/history";
import { toJson } from "../server/http/wire";
import { historyPage, type HistoryOf } from "../server/indexer/store/history";
import { contractsPage, holderCount, holdersPage, inventoryPage, tokenHolding, type IndexPage } from "../server/indexer/store/reads";
import type { TransferRow } from "../server/indexer/transfers";

/**
 * An index in the layout before the compact tables (migrations 0260, 0261, 0264): addresses and hashes as hex text, the
 * network's name in every row. For the tests and the bench of the migration that moves it: written by SQL as the
 * indexer of that layout wrote it, read back with plain SQL over those tables, and compared with what the service
 * reads after the migration.
 */

/** The migrations before the compact layout. */
export const migrationsBeforeCompact = (): Migration[] => readMigrations().filter((m) => m.version < 260);

export const LEGACY_NETWORKS = ["mainnet", "polygon"];
const ZERO = "0x0000000000000000000000000000000000000000";
/** Synthetic addresses as the tables held them: a kind digit (1 contract, 2 owner, 3 ERC-1155 contract) and a number. */
export const legacyAddress = (kind: 1 | 2 | 3, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;

export interface LegacyShape {
  /** ERC-721 tokens; each has three transfers (a mint and two transfers; every 17th token's last one burns it). */
  tokens: number;
  contracts: number;
  owners: number;
  /** ERC-1155 mints beyond the 120 transfers every index has, for the bench of their move (none when absent). */
  transfers1155?: number;
}

/**
 * Writes a legacy index of `shape` into a database migrated up to the compact layout (migrationsBeforeCompact):
 * ERC-721 transfers over two networks (mints as ConsecutiveTransfer ranges of four ids sharing a log, some ids above
 * 2^200, block times missing on the first blocks), their owners, ERC-1155 transfers (batches, moves between owners,
 * burns) and balances, the holdings and holder counts recounted from them, and each network's cursor.
 */
export async function fillLegacyIndex(db: Queryable, shape: LegacyShape): Promise<void> {
  const { tokens: T, contracts: C, owners: O } = shape;
  await db.query(`CREATE FUNCTION pg_temp.legacy_address(kind int, n bigint) RETURNS text IMMUTABLE LANGUAGE sql
    AS $$ SELECT '0x' || kind || lpad(to_hex(n), 39, '0') $$`);
  // Token i: contract i mod C, id ⌊i / C⌋ (plus 2^200 for every 97th), on network i mod 2. Transfer s = k·T + i.
  await db.query(
    `INSERT INTO nft_transfers (network, block_number, log_index, batch_index, block_hash, tx_hash, contract, token_id, from_address, to_address, block_time)
     SELECT CASE WHEN i % 2 = 0 THEN 'mainnet' ELSE 'polygon' END, s / 100,
       CASE WHEN k = 0 THEN (s % 100) / 4 ELSE s % 100 END, CASE WHEN k = 0 THEN s % 4 ELSE 0 END,
       '0x' || lpad(to_hex(s / 100), 64, '0'), '0x' || lpad(to_hex(CASE WHEN k = 0 THEN s / 4 ELSE s END), 64, 'a'),
       pg_temp.legacy_address(1, i % ${C}), i / ${C} + CASE WHEN i % 97 = 0 THEN 2::numeric ^ 200 ELSE 0 END,
       CASE WHEN k = 0 THEN '${ZERO}' ELSE pg_temp.legacy_address(2, (i * 40503 + 17 + (k - 1) * 7919) % ${O}) END,
       CASE WHEN k = 2 AND i % 17 = 0 THEN '${ZERO}' ELSE pg_temp.legacy_address(2, (i * 40503 + 17 + k * 7919) % ${O}) END,
       CASE WHEN s / 100 < 10 THEN NULL ELSE 1600000000 + (s / 100) * 12 END
     FROM generate_series(0::bigint, ${3 * T - 1}::bigint) s, LATERAL (SELECT s % ${T} AS i, s / ${T} AS k) x`,
  );
  await db.query(
    `INSERT INTO nft_owners (network, contract, token_id, owner, block_number, log_index)
     SELECT DISTINCT ON (network, contract, token_id) network, contract, token_id, to_address, block_number, log_index
     FROM nft_transfers ORDER BY network, contract, token_id, block_number DESC, log_index DESC`,
  );
  await db.query(`DELETE FROM nft_owners WHERE owner = '${ZERO}'`);
  // ERC-1155: 120 ids moved by TransferBatch logs of three (batch_index their position), six a block, on both networks
  // and two contracts: 60 mints (n + 1 units of id n mod 5, or 2^200 + 4), then 60 moves of one unit each of what the
  // mint 60 before gave, every 7th a burn. The first block has no time.
  await db.query(
    `INSERT INTO nft_1155_transfers (network, block_number, log_index, batch_index, block_hash, tx_hash, contract, token_id, from_address, to_address, amount, block_time)
     SELECT CASE WHEN b % 2 = 0 THEN 'mainnet' ELSE 'polygon' END, ${Math.ceil((3 * T) / 100)} + b, (n % 6) / 3, n % 3,
       '0x' || lpad(to_hex(b), 64, 'b'), '0x' || lpad(to_hex(n / 3), 64, 'c'),
       pg_temp.legacy_address(3, n % 2), n % 5 + CASE WHEN n % 5 = 4 THEN 2::numeric ^ 200 ELSE 0 END,
       CASE WHEN n < 60 THEN '${ZERO}' ELSE pg_temp.legacy_address(2, ((n - 60) * 31) % ${O}) END,
       CASE WHEN n < 60 THEN pg_temp.legacy_address(2, (n * 31) % ${O}) WHEN n % 7 = 0 THEN '${ZERO}'
         ELSE pg_temp.legacy_address(2, (n * 53 + 7) % ${O}) END,
       CASE WHEN n < 60 THEN n + 1 ELSE 1 END, CASE WHEN b = 0 THEN NULL ELSE 1700000000 + b END
     FROM generate_series(0, 119) n, LATERAL (SELECT n / 6 AS b) x`,
  );
  if (shape.transfers1155) {
    // Mints of one unit of id n mod 1000 of one of four more contracts, 100 a block after the blocks above.
    await db.query(
      `INSERT INTO nft_1155_transfers (network, block_number, log_index, batch_index, block_hash, tx_hash, contract, token_id, from_address, to_address, amount, block_time)
       SELECT CASE WHEN n % 2 = 0 THEN 'mainnet' ELSE 'polygon' END, ${Math.ceil((3 * T) / 100) + 20} + n / 100, n % 100, 0,
         '0x' || lpad(to_hex(n / 100), 64, 'd'), '0x' || lpad(to_hex(n), 64, 'e'), pg_temp.legacy_address(3, 2 + n % 4), n % 1000,
         '${ZERO}', pg_temp.legacy_address(2, (n * 7919) % ${O}), 1, 1700000000 + n / 100
       FROM generate_series(0::bigint, ${shape.transfers1155 - 1}::bigint) n`,
    );
  }
  await db.query(
    `INSERT INTO nft_balances (network, contract, token_id, owner, balance)
     SELECT network, contract, token_id, owner, sum(delta) FROM (
       SELECT network, contract, token_id, to_address AS owner, amount AS delta FROM nft_1155_transfers
       UNION ALL SELECT network, contract, token_id, from_address, -amount FROM nft_1155_transfers
     ) d WHERE owner <> '${ZERO}' GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0`,
  );
  await db.query(
    `INSERT INTO nft_holdings (network, contract, owner, count)
     SELECT network, contract, owner, sum(n) FROM (
       SELECT network, contract, owner, count(*)::numeric AS n FROM nft_owners GROUP BY 1, 2, 3
       UNION ALL SELECT network, contract, owner, sum(balance) FROM nft_balances GROUP BY 1, 2, 3
     ) held GROUP BY 1, 2, 3`,
  );
  await db.query(
    `INSERT INTO nft_holder_counts (network, contract, holders) SELECT network, contract, count(*) FROM nft_holdings GROUP BY 1, 2`,
  );
  await db.query(
    `INSERT INTO indexer_cursors (network, block_number, block_hash)
     SELECT network, max(block_number) + 5, '0x' || lpad(to_hex(max(block_number) + 5), 64, '0') FROM (
       SELECT network, block_number FROM nft_transfers UNION ALL SELECT network, block_number FROM nft_1155_transfers
     ) b GROUP BY network`,
  );
}

/** The keys the comparison reads: owners (the zero address among them), tokens (burned and large ids among them), contracts. */
export function legacySample(shape: LegacyShape, count: number) {
  const owners = [ZERO, ...Array.from({ length: count }, (_, n) => legacyAddress(2, (n * 7_654_321) % shape.owners))];
  const tokens = Array.from({ length: count }, (_, n) => {
    const i = n === 0 ? 0 : n === 1 ? 17 : (n * 1_234_567) % shape.tokens;
    return {
      network: LEGACY_NETWORKS[i % 2],
      contract: legacyAddress(1, i % shape.contracts),
      tokenId: (BigInt(Math.floor(i / shape.contracts)) + (i % 97 === 0 ? 2n ** 200n : 0n)).toString(),
    };
  });
  // Every ERC-1155 id: on each network, of each contract, the small ids and the large one.
  for (const network of LEGACY_NETWORKS)
    for (const contract of [legacyAddress(3, 0), legacyAddress(3, 1)])
      for (const tokenId of ["0", "1", "2", "3", (2n ** 200n + 4n).toString()]) tokens.push({ network, contract, tokenId });
  const contracts = [
    ...Array.from({ length: Math.min(count, shape.contracts) }, (_, c) => legacyAddress(1, c)),
    legacyAddress(3, 0),
    legacyAddress(3, 1),
  ];
  return { owners, tokens, contracts };
}

const HISTORY_COLUMNS = `block_number, log_index, batch_index, block_time, tx_hash, contract, token_id, from_address, to_address`;
const NEWEST = "ORDER BY block_number DESC, log_index DESC, batch_index DESC";

/** What every read of the sample answers, read with plain SQL over the legacy tables. */
export async function legacyReads(db: Queryable, sample: ReturnType<typeof legacySample>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const rows = async (sql: string, params: unknown[]) => (await db.query(sql, params)).rows;
  /** A history's rows as the wire writes them, the addresses in lower case as the old tables hold them. */
  const transfers = async (sql: string, params: unknown[]) =>
    (await db.query<TransferRow>(sql, params)).rows.map((row) => toJson(transferItem(row, (address) => address)));
  for (const network of LEGACY_NETWORKS) {
    for (const owner of sample.owners) {
      out[`history ${network} ${owner}`] = await transfers(
        `SELECT ${HISTORY_COLUMNS}, NULL::numeric AS amount FROM nft_transfers WHERE network = $1 AND (from_address = $2 OR to_address = $2)
         UNION ALL SELECT ${HISTORY_COLUMNS}, amount FROM nft_1155_transfers WHERE network = $1 AND (from_address = $2 OR to_address = $2)
         ${NEWEST}`,
        [network, owner],
      );
      out[`contracts ${network} ${owner}`] = (
        await rows("SELECT contract FROM nft_holdings WHERE network = $1 AND owner = $2 ORDER BY contract", [network, owner])
      ).map((r) => r.contract);
      for (const contract of sample.contracts) {
        out[`inventory ${network} ${owner} ${contract}`] = await rows(
          `SELECT token_id, NULL::numeric AS balance FROM nft_owners WHERE network = $1 AND owner = $2 AND contract = $3
           UNION ALL SELECT token_id, balance FROM nft_balances WHERE network = $1 AND owner = $2 AND contract = $3 ORDER BY token_id`,
          [network, owner, contract],
        );
      }
    }
    for (const contract of sample.contracts) {
      out[`holders ${network} ${contract}`] = await rows(
        "SELECT owner, count FROM nft_holdings WHERE network = $1 AND contract = $2 ORDER BY owner",
        [network, contract],
      );
      out[`holder count ${network} ${contract}`] = Number(
        (await rows("SELECT holders FROM nft_holder_counts WHERE network = $1 AND contract = $2", [network, contract]))[0]?.holders ?? 0,
      );
    }
  }
  for (const { network, contract, tokenId } of sample.tokens) {
    const token = [network, contract, tokenId];
    out[`token history ${network} ${contract} ${tokenId}`] = await transfers(
      `SELECT ${HISTORY_COLUMNS}, NULL::numeric AS amount FROM nft_transfers WHERE network = $1 AND contract = $2 AND token_id = $3
       UNION ALL SELECT ${HISTORY_COLUMNS}, amount FROM nft_1155_transfers WHERE network = $1 AND contract = $2 AND token_id = $3 ${NEWEST}`,
      token,
    );
    const owner = (await rows("SELECT owner FROM nft_owners WHERE network = $1 AND contract = $2 AND token_id = $3", token))[0]?.owner;
    const balances = await rows(
      `SELECT owner, balance::text AS balance FROM nft_balances WHERE network = $1 AND contract = $2 AND token_id = $3 AND balance > 0
       ORDER BY nft_balances.balance DESC, owner`,
      token,
    );
    out[`token ${network} ${contract} ${tokenId}`] = owner ?? (balances.length > 0 ? balances : null);
    out[`token holders ${network} ${contract} ${tokenId}`] = await rows(
      `SELECT owner, 1::numeric AS count FROM nft_owners WHERE network = $1 AND contract = $2 AND token_id = $3
       UNION ALL SELECT owner, balance FROM nft_balances WHERE network = $1 AND contract = $2 AND token_id = $3 AND balance > 0
       ORDER BY owner`,
      token,
    );
  }
  return out;
}

/** Every page of a paged read, `limit` items a page, the items in order. */
async function allPages<T>(read: (after: string[] | undefined) => Promise<IndexPage<T> | undefined>): Promise<T[]> {
  const items: T[] = [];
  let after: string[] | undefined;
  for (;;) {
    const page = await read(after);
    if (!page) throw new Error("the network's cursor is gone");
    items.push(...page.items);
    if (!page.next) return items;
    after = page.next;
  }
}

/** The same reads as legacyReads, through the service's own reads of the index (paged `limit` items at a time). */
export async function serviceReads(db: Queryable, sample: ReturnType<typeof legacySample>, limit = 7): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  // A page's transfers as the wire writes them, the addresses in lower case: the migrations move them without their
  // EIP-55 forms, which the route checksums (as the legacy side does not).
  const history = async (network: string, of: HistoryOf) =>
    (await allPages((after) => historyPage(db, { network, of, before: after as [string, string, string] | undefined, limit }))).map(
      (item) => item.json.replace(/"0x[0-9a-fA-F]{40}"/g, (address) => address.toLowerCase()),
    );
  for (const network of LEGACY_NETWORKS) {
    for (const owner of sample.owners) {
      out[`history ${network} ${owner}`] = await history(network, { owner });
      out[`contracts ${network} ${owner}`] = (
        await allPages((after) => contractsPage(db, { network, owner, after: after?.[0], limit }))
      ).map((c) => c.contract);
      for (const contract of sample.contracts) {
        out[`inventory ${network} ${owner} ${contract}`] = (
          await allPages((after) => inventoryPage(db, { network, owner, contract, after: after?.[0], limit }))
        ).map((i) => ({ token_id: i.tokenId, balance: i.balance }));
      }
    }
    for (const contract of sample.contracts) {
      out[`holders ${network} ${contract}`] = (
        await allPages((after) => holdersPage(db, { network, contract, after: after?.[0], limit }))
      ).map((h) => ({ owner: h.owner, count: h.count }));
      out[`holder count ${network} ${contract}`] = (await holderCount(db, network, contract))?.holders ?? 0;
    }
  }
  for (const { network, contract, tokenId } of sample.tokens) {
    out[`token history ${network} ${contract} ${tokenId}`] = await history(network, { contract, tokenId });
    const { holding } = await tokenHolding(db, network, contract, BigInt(tokenId));
    out[`token ${network} ${contract} ${tokenId}`] = !holding ? null : holding.standard === "erc721" ? holding.owner : holding.balances;
    out[`token holders ${network} ${contract} ${tokenId}`] = (
      await allPages((after) => holdersPage(db, { network, contract, tokenId, after: after?.[0], limit }))
    ).map((h) => ({ owner: h.owner, count: h.count }));
  }
  return out;
}

/**
 * Writes ERC-721 transfers into the legacy tables as the indexer of that layout did for one range, with their owners,
 * the holdings recounted, the recent block hashes and the cursor at `cursor`: a legacy index of a real chain, for
 * the test that the indexer goes on from it after the migration.
 */
export async function writeLegacyRange(
  db: Queryable,
  network: string,
  transfers: Array<{
    blockNumber: number;
    blockHash: string;
    logIndex: number;
    rangeIndex?: number;
    txHash: string;
    contract: string;
    tokenId: bigint;
    from: string;
    to: string;
  }>,
  blocks: Array<{ block: number; hash: string }>,
  cursor: { block: number; hash: string },
): Promise<void> {
  for (const t of transfers) {
    await db.query(
      `INSERT INTO nft_transfers (network, block_number, log_index, batch_index, block_hash, tx_hash, contract, token_id, from_address, to_address)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [network, t.blockNumber, t.logIndex, t.rangeIndex ?? 0, t.blockHash, t.txHash, t.contract, t.tokenId.toString(), t.from, t.to],
    );
  }
  await db.query(
    `INSERT INTO nft_owners (network, contract, token_id, owner, block_number, log_index)
     SELECT network, contract, token_id, to_address, block_number, log_index FROM (
       SELECT DISTINCT ON (contract, token_id) * FROM nft_transfers WHERE network = $1
       ORDER BY contract, token_id, block_number DESC, log_index DESC, batch_index DESC
     ) last WHERE to_address <> $2`,
    [network, ZERO],
  );
  await db.query(
    `INSERT INTO nft_holdings (network, contract, owner, count)
     SELECT network, contract, owner, count(*) FROM nft_owners WHERE network = $1 GROUP BY 1, 2, 3`,
    [network],
  );
  await db.query(
    `INSERT INTO nft_holder_counts (network, contract, holders) SELECT network, contract, count(*) FROM nft_holdings WHERE network = $1 GROUP BY 1, 2`,
    [network],
  );
  for (const b of blocks)
    await db.query("INSERT INTO indexer_blocks (network, number, hash) VALUES ($1, $2, $3)", [network, b.block, b.hash]);
  await db.query("INSERT INTO indexer_cursors (network, block_number, block_hash) VALUES ($1, $2, $3)", [
    network,
    cursor.block,
    cursor.hash,
  ]);
}
