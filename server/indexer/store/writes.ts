import { arrayLiteral } from "../../db/arrays";
import { BinaryRows } from "../../db/binary-copy";
import type { Queryable } from "../../db/database";
import {
  ZERO_ADDRESS,
  type ChangedTransfer,
  type MetadataMark,
  type SkippedRange,
  type Transfer,
  type Transfer1155,
  type TransferRow,
} from "../transfers";
import { appendChanges, appendMetadataChanges, appendReset, appendTransferRows } from "./changes";
import { adjustHoldings, HoldingSums } from "./holdings";
import { addressesOf, addressId, addressIds, bytes, hex, networkId, networkIdOf } from "./ids";
import type { Cursor } from "./reads";
import { recordMarks, rollBackMarks } from "./marks";
import { recordSkipped, rollBackSkipped } from "./skipped";
import { oneStandardPerContract } from "./standards";

/** How many recent block hashes are kept per network to find a common ancestor after a reorg. */
export const REORG_WINDOW = 512;

/**
 * Writes the transfers of one range and moves the cursor to the range's last block; the caller runs it in one
 * transaction, so a crash leaves either the whole range or none of it. `live` ranges (near the head) also go to
 * the change log that live subscribers read; a cold sync of old blocks does not flood it. `skipped`: the
 * ConsecutiveTransfer ranges of the range that were not expanded. A contract's events of a second standard are
 * left out (oneStandardPerContract). `marks`: the metadata changes of the range (stale marks for the metadata cache).
 */
export async function writeRange(
  tx: Queryable,
  network: string,
  transfers: Transfer[],
  last: Cursor,
  hashes: Cursor[],
  transfers1155: Transfer1155[] = [],
  live = false,
  skipped: SkippedRange[] = [],
  marks: MetadataMark[] = [],
): Promise<void> {
  await recordMarks(tx, network, marks);
  ({ transfers, transfers1155 } = await oneStandardPerContract(tx, network, transfers, transfers1155));
  const net = transfers.length + transfers1155.length > 0 ? await networkId(tx, network) : 0;
  if (transfers1155.length > 0) await write1155(tx, network, net, transfers1155);
  await recordSkipped(tx, network, skipped);
  if (transfers.length > 0) await write721(tx, net, transfers);
  await tx.query(
    `INSERT INTO indexer_blocks (network, number, hash) SELECT $1, * FROM unnest($2::bigint[], $3::text[])
     ON CONFLICT (network, number) DO UPDATE SET hash = EXCLUDED.hash`,
    [network, hashes.map((h) => h.block), hashes.map((h) => h.hash)],
  );
  await tx.query("DELETE FROM indexer_blocks WHERE network = $1 AND number < $2", [network, last.block - REORG_WINDOW]);
  if (live && transfers.length + transfers1155.length > 0) {
    // The change log names addresses by their ids, which ERC-1155 ones may not have yet.
    if (transfers1155.length > 0)
      await addressIds(
        tx,
        transfers1155.flatMap((t) => [t.contract, t.from, t.to]),
      );
    const blocks = blockSpan(transfers, transfers1155);
    await appendTransferRows(tx, network, "transfer", WRITTEN_TRANSFERS, "block_number, log_index, position", [
      net,
      blocks.first,
      blocks.last,
    ]);
  }
  if (live) await appendMetadataChanges(tx, network, marks);
  await tx.query(
    `INSERT INTO indexer_cursors (network, block_number, block_hash, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (network) DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, updated_at = now()`,
    [network, last.block, last.hash],
  );
}

/**
 * The transfers of both standards written in blocks $4 to $5 of network $1 (id $3), as the change log's columns, to
 * order by block, log and `position` (the id's place in its log). Each block is written once, in the transaction that
 * moves the cursor past it: these are the transfers of the range being written. ERC-721 rows are copied as they lie
 * in nft_transfers; ERC-1155 addresses are found in the dictionary (writeRange adds them first).
 * An ERC-721 row has no batch index in the change log, as it has no amount.
 */
const WRITTEN_TRANSFERS = `
  SELECT block_number, block_time, tx_hash, log_index, NULL::int AS batch_index, contract_id, token_id, from_id, to_id,
    NULL::numeric AS amount, batch_index AS position
  FROM nft_transfers WHERE network_id = $3 AND block_number BETWEEN $4 AND $5
  UNION ALL
  SELECT t.block_number, t.block_time, ${bytes("t.tx_hash")}, t.log_index, t.batch_index, c.id, t.token_id, f.id, r.id, t.amount, t.batch_index
  FROM nft_1155_transfers t
  JOIN nft_addresses c ON c.address = ${bytes("t.contract")}
  JOIN nft_addresses f ON f.address = ${bytes("t.from_address")}
  JOIN nft_addresses r ON r.address = ${bytes("t.to_address")}
  WHERE t.network = $1 AND t.block_number BETWEEN $4 AND $5`;

/** The first and last block of the transfers of a range (of which there is at least one). */
function blockSpan(...lists: Array<Array<{ blockNumber: number }>>): { first: number; last: number } {
  let first = Infinity;
  let last = -Infinity;
  for (const list of lists) {
    for (const { blockNumber } of list) {
      if (blockNumber < first) first = blockNumber;
      if (blockNumber > last) last = blockNumber;
    }
  }
  return { first, last };
}

/** The columns of nft_transfers the indexer writes, in the order of its binary rows. */
const TRANSFER_COLUMNS = [
  "block_number",
  "block_time",
  "log_index",
  "batch_index",
  "contract_id",
  "from_id",
  "to_id",
  "network_id",
  "tx_hash",
  "token_id",
];

/**
 * ERC-721: the transfers, and each token's owner after the last of its transfers in the range (a burn deletes it),
 * with the holdings they move. Addresses and the network are stored as ids (ids.ts).
 */
async function write721(tx: Queryable, net: number, transfers: Transfer[]): Promise<void> {
  const addresses = new Set<string>();
  for (const t of transfers) addresses.add(t.contract).add(t.from).add(t.to);
  const ids = await addressIds(tx, addresses);
  const id = (address: string) => ids.get(address)!;
  // Binary rows: the database stores each value as it comes, with no text to parse.
  const rows = new BinaryRows(TRANSFER_COLUMNS.length, transfers.length * 128);
  for (const t of transfers) {
    rows
      .row()
      .int8(t.blockNumber)
      .int8(t.blockTime)
      .int4(t.logIndex)
      .int4(t.rangeIndex ?? 0)
      .int4(id(t.contract))
      .int4(id(t.from))
      .int4(id(t.to))
      .int2(net)
      .bytes(t.txHash)
      .numeric(t.tokenId);
  }
  // Sent at once; the statements after it are made while the database loads it (one connection runs them in order).
  const inserted = tx.copyBinary("nft_transfers", TRANSFER_COLUMNS, rows.done());
  // The last transfer of each token in the range decides its owner (one row per token per statement). A token whose
  // first transfer in the range is a mint has no owner row yet, by the standard, and gets one: it is not looked up
  // (most tokens of a cold sync are minted in it), and the unique key of nft_owners tells when a contract broke the
  // standard. One minted and burned in the range gets no row, so nothing would tell: it is looked up.
  const latest = new TokenMap<{ last: Transfer; minted: boolean }>();
  for (const t of transfers) {
    const contract = id(t.contract);
    const token = latest.get(contract, t.tokenId);
    if (token) token.last = t;
    else latest.set(contract, t.tokenId, { last: t, minted: t.from === ZERO_ADDRESS });
  }
  const changed: Transfer[] = [];
  const held: Transfer[] = [];
  const fresh: Transfer[] = [];
  for (const { last, minted } of latest.values()) {
    changed.push(last);
    (minted && last.to !== ZERO_ADDRESS ? fresh : held).push(last);
  }
  const [, previousRows] = await Promise.all([inserted, ownersBefore(tx, net, ids, held)]);
  if (fresh.length === 0) return moveOwners(tx, net, ids, changed, previousRows);
  await tx.query("SAVEPOINT fresh_mints");
  try {
    await moveOwners(tx, net, ids, changed, previousRows);
    await tx.query("RELEASE SAVEPOINT fresh_mints");
  } catch (error) {
    // A contract that mints an id someone holds (no standard contract does): its row is there, and the COPY of the new
    // owners stopped at it. The range's owners are moved again from the rows of all its tokens.
    if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
    await tx.query("ROLLBACK TO SAVEPOINT fresh_mints");
    const mintedRows = await ownersBefore(tx, net, ids, fresh);
    await moveOwners(tx, net, ids, changed, [...previousRows, ...mintedRows]);
  }
}

/** SQLSTATE unique_violation. */
const UNIQUE_VIOLATION = "23505";

interface OwnerRow {
  contract_id: number;
  token_id: string;
  owner_id: number;
}

/** The owner rows of `tokens` before the range (`ids`: the writer's address ids, as moveOwners takes them). */
async function ownersBefore(tx: Queryable, net: number, ids: Map<string, number>, tokens: Transfer[]): Promise<OwnerRow[]> {
  if (tokens.length === 0) return [];
  const id = (address: string) => ids.get(address)!;
  const { rows } = await tx.query<OwnerRow>(
    `SELECT o.contract_id, o.token_id, o.owner_id
     FROM nft_owners o JOIN unnest($2::int[], $3::numeric[]) AS k(contract_id, token_id)
       ON o.contract_id = k.contract_id AND o.token_id = k.token_id
     WHERE o.network_id = $1`,
    [net, arrayLiteral(tokens.map((t) => id(t.contract))), arrayLiteral(tokens.map((t) => t.tokenId))],
  );
  return rows;
}

/**
 * Gives each changed token (its last transfer in the range) its new owner: `previousRows` are the owner rows the
 * tokens had before the range (a token with none gets one). Each token leaves its previous owner's holding and joins
 * its new one's.
 */
async function moveOwners(
  tx: Queryable,
  net: number,
  ids: Map<string, number>,
  changed: Transfer[],
  previousRows: OwnerRow[],
): Promise<void> {
  const id = (address: string) => ids.get(address)!;
  const previous = new TokenMap<number>();
  for (const r of previousRows) previous.set(r.contract_id, BigInt(r.token_id), r.owner_id);
  const addressOf = await addressesOf(
    tx,
    ids,
    previousRows.flatMap((r) => [r.contract_id, r.owner_id]),
  );
  // A token with no owner row gets one, by COPY: this writer holds the network's lock, so no other adds it meanwhile;
  // one that had a row is moved, or deleted at a burn.
  const holdings = new HoldingSums();
  for (const r of previousRows) holdings.add(addressOf.get(r.contract_id)!, addressOf.get(r.owner_id)!, -1n);
  const added: Transfer[] = [];
  const moved: Transfer[] = [];
  const burned: Transfer[] = [];
  for (const t of changed) {
    const owned = previous.get(id(t.contract), t.tokenId) !== undefined;
    if (t.to !== ZERO_ADDRESS) {
      holdings.add(t.contract, t.to, 1n);
      (owned ? moved : added).push(t);
    } else if (owned) burned.push(t);
  }
  if (added.length > 0) {
    const owners = new BinaryRows(OWNER_COLUMNS.length, added.length * 48);
    for (const t of added) owners.row().int2(net).int4(id(t.contract)).numeric(t.tokenId).int4(id(t.to));
    await tx.copyBinary("nft_owners", OWNER_COLUMNS, owners.done());
  }
  await adjustHoldings(tx, net, holdings);
  if (moved.length > 0) {
    await tx.query(
      `UPDATE nft_owners o SET owner_id = m.owner_id FROM unnest($2::int[], $3::numeric[], $4::int[]) AS m(contract_id, token_id, owner_id)
       WHERE o.network_id = $1 AND o.contract_id = m.contract_id AND o.token_id = m.token_id`,
      [
        net,
        arrayLiteral(moved.map((t) => id(t.contract))),
        arrayLiteral(moved.map((t) => t.tokenId)),
        arrayLiteral(moved.map((t) => id(t.to))),
      ],
    );
  }
  if (burned.length > 0) {
    await tx.query(
      `DELETE FROM nft_owners o USING unnest($2::int[], $3::numeric[]) AS b(contract_id, token_id)
       WHERE o.network_id = $1 AND o.contract_id = b.contract_id AND o.token_id = b.token_id`,
      [net, arrayLiteral(burned.map((t) => id(t.contract))), arrayLiteral(burned.map((t) => t.tokenId))],
    );
  }
}

/** The columns of nft_owners, in the order of its binary rows. */
const OWNER_COLUMNS = ["network_id", "contract_id", "token_id", "owner_id"];

/** Values by token (a contract's id and a token id), with no key text to build per transfer. */
class TokenMap<V> {
  private readonly byContract = new Map<number, Map<bigint, V>>();

  set(contract: number, tokenId: bigint, value: V): void {
    let tokens = this.byContract.get(contract);
    if (!tokens) this.byContract.set(contract, (tokens = new Map()));
    tokens.set(tokenId, value);
  }

  get(contract: number, tokenId: bigint): V | undefined {
    return this.byContract.get(contract)?.get(tokenId);
  }

  values(): V[] {
    return [...this.byContract.values()].flatMap((tokens) => [...tokens.values()]);
  }
}

/** ERC-1155: the transfers, and each (id, owner)'s balance moved by their sum in the range. */
async function write1155(tx: Queryable, network: string, net: number, transfers: Transfer1155[]): Promise<void> {
  await tx.query(
    `INSERT INTO nft_1155_transfers (network, block_number, log_index, batch_index, block_hash, tx_hash, contract, token_id, from_address, to_address, amount, block_time)
     SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::text[], $10::text[], $11::numeric[], $12::bigint[])`,
    [
      network,
      transfers.map((t) => t.blockNumber),
      transfers.map((t) => t.logIndex),
      transfers.map((t) => t.batchIndex),
      transfers.map((t) => t.blockHash),
      transfers.map((t) => t.txHash),
      transfers.map((t) => t.contract),
      transfers.map((t) => t.tokenId.toString()),
      transfers.map((t) => t.from),
      transfers.map((t) => t.to),
      transfers.map((t) => t.amount.toString()),
      transfers.map((t) => t.blockTime ?? null),
    ],
  );
  const deltas = new Map<string, { contract: string; tokenId: bigint; owner: string; delta: bigint }>();
  const move = (contract: string, tokenId: bigint, owner: string, delta: bigint) => {
    if (owner === ZERO_ADDRESS || delta === 0n) return;
    const key = `${contract}:${tokenId}:${owner}`;
    const entry = deltas.get(key) ?? { contract, tokenId, owner, delta: 0n };
    entry.delta += delta;
    deltas.set(key, entry);
  };
  for (const t of transfers) {
    move(t.contract, t.tokenId, t.from, -t.amount);
    move(t.contract, t.tokenId, t.to, t.amount);
  }
  const changed = [...deltas.values()].filter((d) => d.delta !== 0n);
  if (changed.length > 0) await addToBalances(tx, network, net, changed);
}

/** Adds each delta to its balance (and to the owner's holding), then deletes the balances that reached zero. */
async function addToBalances(
  tx: Queryable,
  network: string,
  net: number,
  deltas: Array<{ contract: string; tokenId: bigint | string; owner: string; delta: bigint | string }>,
) {
  const holdings = new HoldingSums();
  for (const d of deltas) holdings.add(d.contract, d.owner, BigInt(d.delta));
  await adjustHoldings(tx, net, holdings);
  const keys = [network, deltas.map((d) => d.contract), deltas.map((d) => d.tokenId.toString()), deltas.map((d) => d.owner)];
  await tx.query(
    `INSERT INTO nft_balances (network, contract, token_id, owner, balance)
     SELECT $1, * FROM unnest($2::text[], $3::numeric[], $4::text[], $5::numeric[])
     ON CONFLICT (network, contract, token_id, owner) DO UPDATE SET balance = nft_balances.balance + EXCLUDED.balance`,
    [...keys, deltas.map((d) => d.delta.toString())],
  );
  await tx.query(
    `DELETE FROM nft_balances b USING unnest($2::text[], $3::numeric[], $4::text[]) AS k(contract, token_id, owner)
     WHERE b.network = $1 AND b.contract = k.contract AND b.token_id = k.token_id AND b.owner = k.owner AND b.balance = 0`,
    keys,
  );
}

/** Recent block hashes of the index, newest first (to compare with the chain after a reorg). */
export async function recentBlocks(db: Queryable, network: string): Promise<Cursor[]> {
  const { rows } = await db.query<{ number: string; hash: string }>(
    "SELECT number, hash FROM indexer_blocks WHERE network = $1 ORDER BY number DESC",
    [network],
  );
  return rows.map((r) => ({ block: Number(r.number), hash: r.hash }));
}

/**
 * Undoes everything above `ancestor` (a block both the index and the chain agree on): its transfers go, and each
 * token they touched gets back the owner its last remaining transfer gave it.
 */
export async function rollBack(tx: Queryable, network: string, ancestor: Cursor): Promise<void> {
  const net = await networkId(tx, network);
  await tx.query(
    `CREATE TEMP TABLE rolled_back ON COMMIT DROP AS
     SELECT DISTINCT contract_id, token_id FROM nft_transfers WHERE network_id = $1 AND block_number > $2`,
    [net, ancestor.block],
  );
  const removed = await undoneTransfers(tx, network, net, ancestor);
  if (removed.length > 0) await appendChanges(tx, network, "removed", removed);
  await tx.query("DELETE FROM nft_transfers WHERE network_id = $1 AND block_number > $2", [net, ancestor.block]);
  const { rows: left } = await tx.query<{ contract: string; owner: string }>(
    `WITH gone AS (
       DELETE FROM nft_owners o USING rolled_back r WHERE o.network_id = $1 AND o.contract_id = r.contract_id AND o.token_id = r.token_id
       RETURNING o.contract_id, o.owner_id
     )
     SELECT ${hex("c.address")} AS contract, ${hex("w.address")} AS owner
     FROM gone JOIN nft_addresses c ON c.id = gone.contract_id JOIN nft_addresses w ON w.id = gone.owner_id`,
    [net],
  );
  const { rows: restored } = await tx.query<{ contract: string; owner: string }>(
    `WITH back AS (
       INSERT INTO nft_owners (network_id, contract_id, token_id, owner_id)
       SELECT $1, contract_id, token_id, to_id FROM (
         SELECT DISTINCT ON (t.contract_id, t.token_id) t.contract_id, t.token_id, t.to_id
         FROM nft_transfers t JOIN rolled_back r ON t.contract_id = r.contract_id AND t.token_id = r.token_id
         WHERE t.network_id = $1
         ORDER BY t.contract_id, t.token_id, t.block_number DESC, t.log_index DESC, t.batch_index DESC
       ) last WHERE to_id <> ${addressId("$2")}
       RETURNING contract_id, owner_id
     )
     SELECT ${hex("c.address")} AS contract, ${hex("w.address")} AS owner
     FROM back JOIN nft_addresses c ON c.id = back.contract_id JOIN nft_addresses w ON w.id = back.owner_id`,
    [net, ZERO_ADDRESS],
  );
  const holdings = new HoldingSums();
  for (const r of left) holdings.add(r.contract, r.owner, -1n);
  for (const r of restored) holdings.add(r.contract, r.owner, 1n);
  await adjustHoldings(tx, net, holdings);
  // ERC-1155 balances are sums: undoing a transfer is subtracting it.
  const { rows: undone } = await tx.query<{ contract: string; token_id: string; owner: string; delta: string }>(
    `SELECT contract, token_id, owner, sum(delta)::text AS delta FROM (
       SELECT contract, token_id, to_address AS owner, -amount AS delta FROM nft_1155_transfers WHERE network = $1 AND block_number > $2
       UNION ALL
       SELECT contract, token_id, from_address, amount FROM nft_1155_transfers WHERE network = $1 AND block_number > $2
     ) d WHERE owner <> $3 GROUP BY contract, token_id, owner HAVING sum(delta) <> 0`,
    [network, ancestor.block, ZERO_ADDRESS],
  );
  if (undone.length > 0)
    await addToBalances(
      tx,
      network,
      net,
      undone.map((r) => ({ contract: r.contract, tokenId: r.token_id, owner: r.owner, delta: r.delta })),
    );
  await tx.query("DELETE FROM nft_1155_transfers WHERE network = $1 AND block_number > $2", [network, ancestor.block]);
  await rollBackSkipped(tx, network, ancestor.block);
  await rollBackMarks(tx, network, ancestor.block);
  await tx.query("DELETE FROM indexer_blocks WHERE network = $1 AND number > $2", [network, ancestor.block]);
  await tx.query("UPDATE indexer_cursors SET block_number = $2, block_hash = $3, updated_at = now() WHERE network = $1", [
    network,
    ancestor.block,
    ancestor.hash,
  ]);
}

/** Forgets a network's index entirely (its chain was replaced, or the reorg went deeper than the window). */
export async function resetNetwork(tx: Queryable, network: string): Promise<void> {
  for (const table of ["nft_transfers", "nft_owners", "nft_holdings", "nft_holder_counts"]) {
    await tx.query(`DELETE FROM ${table} WHERE network_id = ${networkIdOf("$1")}`, [network]);
  }
  for (const table of [
    "nft_1155_transfers",
    "nft_balances",
    "nft_skipped_ranges",
    "nft_metadata_updates",
    "indexer_blocks",
    "indexer_cursors",
  ]) {
    await tx.query(`DELETE FROM ${table} WHERE network = $1`, [network]);
  }
  await appendReset(tx, network);
}

/** The transfers above `ancestor`, as the change log announces their removal. */
async function undoneTransfers(tx: Queryable, network: string, net: number, ancestor: Cursor): Promise<ChangedTransfer[]> {
  const { rows } = await tx.query<TransferRow & { range_index: number | null }>(
    `SELECT t.block_number, t.log_index, NULL::int AS batch_index, t.batch_index AS range_index, ${hex("t.tx_hash")} AS tx_hash,
       ${hex("c.address")} AS contract, t.token_id, ${hex("f.address")} AS from_address, ${hex("r.address")} AS to_address,
       NULL::numeric AS amount, t.block_time
     FROM nft_transfers t
     JOIN nft_addresses c ON c.id = t.contract_id JOIN nft_addresses f ON f.id = t.from_id JOIN nft_addresses r ON r.id = t.to_id
     WHERE t.network_id = $3 AND t.block_number > $2
     UNION ALL
     SELECT block_number, log_index, batch_index, NULL::int, tx_hash, contract, token_id, from_address, to_address, amount, block_time
     FROM nft_1155_transfers WHERE network = $1 AND block_number > $2`,
    [network, ancestor.block, net],
  );
  return rows.map((r) => ({
    blockNumber: Number(r.block_number),
    logIndex: r.log_index,
    txHash: r.tx_hash,
    contract: r.contract,
    tokenId: BigInt(r.token_id),
    from: r.from_address,
    to: r.to_address,
    ...(r.block_time === null ? {} : { blockTime: Number(r.block_time) }),
    ...(r.range_index ? { rangeIndex: r.range_index } : {}),
    ...(r.batch_index === null ? {} : { batchIndex: r.batch_index, amount: BigInt(r.amount!) }),
  }));
}
