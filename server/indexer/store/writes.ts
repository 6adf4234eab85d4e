import { arrayLiteral, columnLiterals } from "../../db/arrays";
import { BinaryRows } from "../../db/binary-copy";
import type { Queryable } from "../../db/database";
import { unlessDuplicate } from "../../db/savepoint";
import type { DelegationEvent } from "../delegations";
import { ZERO_ADDRESS, type MetadataMark, type SkippedRange, type Transfer, type Transfer1155 } from "../transfers";
import { moveCursor, recordBlocks, type Cursor } from "./blocks";
import { appendMetadataChanges, appendTransfers } from "./changes";
import { adjustHoldings, HoldingSums, MIN_NEW_ROWS_COPIED } from "./holdings";
import { addressesOf, addressIds, networkId, type AddressIds } from "./ids";
import { recordDelegations } from "./delegations";
import { recordMarks } from "./marks";
import { recordSkipped } from "./skipped";
import { addToSummaries } from "./summaries";
import { oneStandardPerContract } from "./standards";

/** One range of blocks as the indexer read it, to write in one transaction. */
export interface IndexedRange {
  network: string;
  /** The range's ERC-721 transfers (a ConsecutiveTransfer expanded to one per id). */
  transfers: Transfer[];
  transfers1155?: Transfer1155[];
  /** The range's last block: the cursor moves to it. */
  last: Cursor;
  /** The hashes of the range's blocks the indexer knows, kept to find a reorg. */
  hashes: Cursor[];
  /** Near the head: the transfers also go to the change log that live subscribers read. */
  live?: boolean;
  /** The ConsecutiveTransfer ranges of the range that were not expanded. */
  skipped?: SkippedRange[];
  /** The metadata changes of the range (stale marks for the metadata cache). */
  marks?: MetadataMark[];
  /** The delegate registry's delegations of the range. */
  delegations?: DelegationEvent[];
}

/**
 * Writes the transfers of one range and moves the cursor to the range's last block; the caller runs it in one
 * transaction, so a crash leaves either the whole range or none of it. Only `live` ranges go to the change log: a cold
 * sync of old blocks does not flood it. A contract's events of a second standard are left out (oneStandardPerContract).
 */
export async function writeRange(tx: Queryable, range: IndexedRange): Promise<void> {
  const { network, last, hashes, live = false, skipped = [], marks = [], delegations = [] } = range;
  await recordMarks(tx, network, marks);
  const { transfers, transfers1155 } = await oneStandardPerContract(tx, network, range.transfers, range.transfers1155 ?? []);
  const net = transfers.length + transfers1155.length + delegations.length > 0 ? await networkId(tx, network) : 0;
  await recordDelegations(tx, net, delegations);
  if (transfers1155.length > 0) await write1155(tx, net, transfers1155);
  await recordSkipped(tx, network, skipped);
  if (transfers.length > 0) await write721(tx, net, transfers);
  await addToSummaries(tx, net, transfers, transfers1155);
  await recordBlocks(tx, { network, hashes, last: last.block });
  if (live && transfers.length + transfers1155.length > 0) {
    const blocks = blockSpan(transfers, transfers1155);
    await appendTransfers(tx, { network, networkId: net, kind: "transfer", firstBlock: blocks.first, lastBlock: blocks.last });
  }
  // The change log announces tokens' metadata; a collection's (ContractURIUpdated) is read on its next ask.
  const tokenMarks = marks.filter((m) => m.fromTokenId >= 0n);
  if (live) await appendMetadataChanges(tx, network, tokenMarks);
  await moveCursor(tx, network, last);
}

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
 * Adds a transfer's row of TRANSFER_COLUMNS, the same in both transfer tables (an ERC-1155 row adds its amount after
 * it): batch_index is the id's position in its log, in a ConsecutiveTransfer's range or in a TransferBatch.
 */
function transferRow(rows: BinaryRows, t: Transfer | Transfer1155, stored: { net: number; id: (address: string) => number }): BinaryRows {
  const { net, id } = stored;
  return rows
    .row()
    .int8(t.blockNumber)
    .int8(t.blockTime)
    .int4(t.logIndex)
    .int4("batchIndex" in t ? t.batchIndex : (t.rangeIndex ?? 0))
    .int4(id(t.contract))
    .int4(id(t.from))
    .int4(id(t.to))
    .int2(net)
    .bytes(t.txHash)
    .numeric(t.tokenId);
}

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
  const stored = { net, id };
  for (const t of transfers) transferRow(rows, t, stored);
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
  const [, previousRows] = await Promise.all([inserted, ownersBefore(tx, { net, ids, tokens: held })]);
  if (fresh.length === 0) return moveOwners(tx, { net, ids, changed, previousRows });
  if (await unlessDuplicate(tx, () => moveOwners(tx, { net, ids, changed, previousRows }))) return;
  // A contract that mints an id someone holds (no standard contract does): its row is there, and the COPY of the new
  // owners stopped at it. The range's owners are moved again from the rows of all its tokens.
  const mintedRows = await ownersBefore(tx, { net, ids, tokens: fresh });
  await moveOwners(tx, { net, ids, changed, previousRows: [...previousRows, ...mintedRows] });
}

interface OwnerRow {
  contract_id: number;
  token_id: string;
  owner_id: number;
}

/** The ids a range's rows are written with: its network's, and each of its addresses' (ids.ts). */
interface RangeIds {
  net: number;
  ids: AddressIds;
}

/** The owner rows of `tokens` before the range. */
async function ownersBefore(tx: Queryable, { net, ids, tokens }: RangeIds & { tokens: Transfer[] }): Promise<OwnerRow[]> {
  if (tokens.length === 0) return [];
  const id = (address: string) => ids.get(address)!;
  // $1 network id, $2 contract ids, $3 token ids
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
  { net, ids, changed, previousRows }: RangeIds & { changed: Transfer[]; previousRows: OwnerRow[] },
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
  await adjustHoldings(tx, { networkId: net, sums: holdings, added: ids.added });
  if (moved.length > 0) {
    // $1 network id, $2 contract ids, $3 token ids, $4 new owner ids
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
    // $1 network id, $2 contract ids, $3 token ids
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

/** The columns of nft_1155_transfers the indexer writes, in the order of its binary rows: those of nft_transfers, then the amount. */
const TRANSFER_1155_COLUMNS = [...TRANSFER_COLUMNS, "amount"];

/** ERC-1155: the transfers (laid out as nft_transfers, ids.ts), and each (id, owner)'s balance moved by their sum in the range. */
async function write1155(tx: Queryable, net: number, transfers: Transfer1155[]): Promise<void> {
  const ids = await addressIds(
    tx,
    transfers.flatMap((t) => [t.contract, t.from, t.to]),
  );
  const id = (address: string) => ids.get(address)!;
  const rows = new BinaryRows(TRANSFER_1155_COLUMNS.length, transfers.length * 160);
  const stored = { net, id };
  for (const t of transfers) transferRow(rows, t, stored).numeric(t.amount);
  await tx.copyBinary("nft_1155_transfers", TRANSFER_1155_COLUMNS, rows.done());
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
  if (changed.length > 0) await addToBalances(tx, { networkId: net, deltas: changed, added: ids.added });
}

/** A change of one owner's balance of one id: a range's sum of its transfers, or its opposite in a rollback. */
interface BalanceDelta {
  contract: string;
  tokenId: bigint | string;
  owner: string;
  delta: bigint | string;
}

/**
 * Adds each delta to its balance (and to the owner's holding), then deletes the balances that reached zero: a range's
 * ERC-1155 transfers, or the opposite of those a rollback undoes. Addresses are lower-case hex, stored as bytes.
 */
export async function addToBalances(
  tx: Queryable,
  balances: {
    networkId: number;
    deltas: BalanceDelta[];
    /** Addresses the range added to the dictionary (AddressIds): no holding of theirs exists yet. */
    added?: ReadonlySet<string>;
  },
): Promise<void> {
  const { networkId: net, deltas, added } = balances;
  const holdings = new HoldingSums();
  for (const d of deltas) holdings.add(d.contract, d.owner, BigInt(d.delta));
  await adjustHoldings(tx, { networkId: net, sums: holdings, added });
  // Many deltas that only add (a cold sync's mints, mostly) usually make new balances, which are loaded as such: binary
  // COPY costs the database about half what the upsert below does (no text to parse, no speculative insertion, rows
  // written in batches). One balance already there (an id minted again to its holder, or one an index started after a
  // mint holds below zero) stops the COPY at its key, and the deltas are upserted as any others: at worst, the COPY's
  // work is lost. Deltas that also take away (sends, burns) go to the upsert at once, since most of their balances are
  // there, and so do a few (a range near the head), for which the savepoint's round trips cost more than the COPY saves.
  if (deltas.length >= MIN_NEW_ROWS_COPIED && deltas.every((d) => BigInt(d.delta) > 0n) && (await newBalancesCopied(tx, { net, deltas }))) {
    return;
  }
  // The balances that reached zero come back (none, for a range of mints), so that only they are deleted after: a
  // statement cannot delete the rows its own upsert wrote.
  // $1 network id, $2 contracts (hex), $3 token ids, $4 owners (hex), $5 deltas
  const { rows: emptied } = await tx.query<{ contract: string; token_id: string; owner: string }>(
    `WITH moved AS (
       INSERT INTO nft_balances (network_id, contract, token_id, owner, balance)
       SELECT $1, decode(substr(contract, 3), 'hex'), token_id, decode(substr(owner, 3), 'hex'), delta
       FROM unnest($2::text[], $3::numeric[], $4::text[], $5::numeric[]) AS d(contract, token_id, owner, delta)
       ON CONFLICT (network_id, contract, token_id, owner) DO UPDATE SET balance = nft_balances.balance + EXCLUDED.balance
       RETURNING contract, token_id, owner, balance)
     SELECT '0x' || encode(contract, 'hex') AS contract, token_id::text, '0x' || encode(owner, 'hex') AS owner FROM moved WHERE balance = 0`,
    [net, ...columnLiterals(deltas, ["contract", "tokenId", "owner"]), arrayLiteral(deltas.map((d) => d.delta))],
  );
  if (emptied.length === 0) return;
  // $1 network id, $2 contracts (hex), $3 token ids, $4 owners (hex)
  await tx.query(
    `DELETE FROM nft_balances b USING unnest($2::text[], $3::numeric[], $4::text[]) AS k(contract, token_id, owner)
     WHERE b.network_id = $1 AND b.contract = decode(substr(k.contract, 3), 'hex') AND b.token_id = k.token_id
       AND b.owner = decode(substr(k.owner, 3), 'hex') AND b.balance = 0`,
    [net, ...columnLiterals(emptied, ["contract", "token_id", "owner"])],
  );
}

/** The columns of nft_balances, in the order of its binary rows. */
const BALANCE_COLUMNS = ["network_id", "contract", "token_id", "owner", "balance"];

/**
 * Writes each delta as a new balance (addToBalances), in a savepoint: false, with none of them written, when one of
 * those balances is already there (its key's unique violation). Each delta is positive, so no new balance is zero.
 */
async function newBalancesCopied(tx: Queryable, { net, deltas }: { net: number; deltas: BalanceDelta[] }): Promise<boolean> {
  const rows = new BinaryRows(BALANCE_COLUMNS.length, deltas.length * 96);
  for (const d of deltas) rows.row().int2(net).bytes(d.contract).numeric(BigInt(d.tokenId)).bytes(d.owner).numeric(BigInt(d.delta));
  return unlessDuplicate(tx, () => tx.copyBinary("nft_balances", BALANCE_COLUMNS, rows.done()));
}
