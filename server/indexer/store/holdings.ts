import { arrayLiteral, columnLiterals } from "../../db/arrays";
import { BinaryRows } from "../../db/binary-copy";
import type { Queryable } from "../../db/database";
import { unlessDuplicate } from "../../db/savepoint";

/**
 * Holding deltas summed per contract and owner (lower-case hex) as they are found: a range often moves many tokens of
 * one contract to one owner (a mint, a sale of a lot), which makes one delta, with no object or key text per token.
 */
export class HoldingSums {
  private readonly byContract = new Map<string, Map<string, bigint>>();

  add(contract: string, owner: string, delta: bigint): this {
    let owners = this.byContract.get(contract);
    if (!owners) this.byContract.set(contract, (owners = new Map()));
    owners.set(owner, (owners.get(owner) ?? 0n) + delta);
    return this;
  }

  /** The sums that are not zero. */
  moved(): Array<{ contract: string; owner: string; delta: bigint }> {
    const moved: Array<{ contract: string; owner: string; delta: bigint }> = [];
    for (const [contract, owners] of this.byContract)
      for (const [owner, delta] of owners) if (delta !== 0n) moved.push({ contract, owner, delta });
    return moved;
  }
}

/**
 * The fewest new rows a writer loads by binary COPY, in a savepoint, rather than by its upsert (holdings here, ERC-1155
 * balances in writes.ts): below it the savepoint's round trips cost more than the COPY saves.
 */
export const MIN_NEW_ROWS_COPIED = 100;

/**
 * Moves each (contract, owner) holding by its summed delta and each contract's number of holders by the holdings that
 * appeared or reached zero, so that holders are counted by reading one row. Runs in the indexer's transaction
 * with the change of nft_owners / nft_balances it mirrors. `added`: addresses the transaction added to the dictionary
 * (AddressIds), of which no holding exists yet.
 */
export async function adjustHoldings(
  tx: Queryable,
  { networkId, sums, added = new Set() }: { networkId: number; sums: HoldingSums; added?: ReadonlySet<string> },
): Promise<void> {
  const all = sums.moved();
  // A holding of an owner or a contract the range added to the dictionary is new (a cold sync's mints to new wallets,
  // or of a new collection: most of its holdings), and many of them are loaded as such: the upsert below costs the
  // database about twice a binary COPY (arrays of text parsed and decoded, each row inserted speculatively). Should one
  // be there after all, the COPY is undone and every holding upserted.
  const fresh = all.filter((m) => m.delta > 0n && (added.has(m.owner) || added.has(m.contract)));
  const copied = fresh.length >= MIN_NEW_ROWS_COPIED && (await newHoldingsCopied(tx, { networkId, fresh })) ? new Set(fresh) : new Set();
  const moved = copied.size === 0 ? all : all.filter((m) => !copied.has(m));
  if (moved.length === 0) return;
  const params = [networkId, ...columnLiterals(moved, ["contract", "owner", "delta"])];
  // A holding whose new count equals its delta was absent before (+1 holder); one at zero is gone (−1 holder).
  // $1 network id, $2 contracts, $3 owners (hex), $4 deltas
  await tx.query(
    `WITH d AS (
       SELECT decode(substr(contract, 3), 'hex') AS contract, decode(substr(owner, 3), 'hex') AS owner, sum(delta) AS delta
       FROM unnest($2::text[], $3::text[], $4::numeric[]) AS d(contract, owner, delta)
       GROUP BY 1, 2 HAVING sum(delta) <> 0
     ), moved AS (
       INSERT INTO nft_holdings (network_id, contract, owner, count) SELECT $1, contract, owner, delta FROM d
       ON CONFLICT (network_id, contract, owner) DO UPDATE SET count = nft_holdings.count + EXCLUDED.count
       RETURNING contract, owner, count
     ), holders AS (
       SELECT m.contract, sum(CASE WHEN m.count = 0 THEN -1 WHEN m.count = d.delta THEN 1 ELSE 0 END) AS delta
       FROM moved m JOIN d ON d.contract = m.contract AND d.owner = m.owner GROUP BY m.contract
     )
     INSERT INTO nft_holder_counts (network_id, contract, holders) SELECT $1, contract, delta FROM holders WHERE delta <> 0
     ON CONFLICT (network_id, contract) DO UPDATE SET holders = nft_holder_counts.holders + EXCLUDED.holders`,
    params,
  );
  // Only a holding that lost tokens can have reached zero: a cold sync's mints skip this statement.
  const losing = moved.filter((m) => m.delta < 0n);
  if (losing.length === 0) return;
  // $1 network id, $2 contracts, $3 owners (hex)
  await tx.query(
    `DELETE FROM nft_holdings h USING unnest($2::text[], $3::text[]) AS k(contract, owner)
     WHERE h.network_id = $1 AND h.contract = decode(substr(k.contract, 3), 'hex') AND h.owner = decode(substr(k.owner, 3), 'hex')
       AND h.count = 0`,
    [networkId, ...columnLiterals(losing, ["contract", "owner"])],
  );
}

/** The columns of nft_holdings, in the order of its binary rows. */
const HOLDING_COLUMNS = ["network_id", "contract", "owner", "count"];

/**
 * Writes each of `fresh` (positive deltas) as a new holding and counts each as a new holder of its contract, in a
 * savepoint: false, with none of it written, when one of those holdings is already there (its key's unique violation).
 */
async function newHoldingsCopied(
  tx: Queryable,
  { networkId, fresh }: { networkId: number; fresh: Array<{ contract: string; owner: string; delta: bigint }> },
): Promise<boolean> {
  const rows = new BinaryRows(HOLDING_COLUMNS.length, fresh.length * 80);
  const holders = new Map<string, number>();
  for (const m of fresh) {
    rows.row().int2(networkId).bytes(m.contract).bytes(m.owner).numeric(m.delta);
    holders.set(m.contract, (holders.get(m.contract) ?? 0) + 1);
  }
  return unlessDuplicate(tx, async () => {
    await tx.copyBinary("nft_holdings", HOLDING_COLUMNS, rows.done());
    // $1 network id, $2 contracts (hex), $3 their new holders
    await tx.query(
      `INSERT INTO nft_holder_counts (network_id, contract, holders)
       SELECT $1, decode(substr(contract, 3), 'hex'), holders FROM unnest($2::text[], $3::bigint[]) AS c(contract, holders)
       ON CONFLICT (network_id, contract) DO UPDATE SET holders = nft_holder_counts.holders + EXCLUDED.holders`,
      [networkId, arrayLiteral([...holders.keys()]), arrayLiteral([...holders.values()])],
    );
  });
}
