import { arrayLiteral } from "../../db/arrays";
import type { Queryable } from "../../db/database";

/**
 * The two dictionaries of the compact tables (nft_transfers, nft_owners, nft_changes): a network's id (indexer_networks) and an
 * address's id (nft_addresses). Ids are never deleted or reused, so they may be kept as long as the database is.
 * Addresses cross this boundary as lower-case hex, as everywhere else in the service.
 */

/** SQL: the id of the address given as hex text by `param` (NULL when the index never saw it, which matches no row). */
export const addressId = (param: string) => `(SELECT id FROM nft_addresses WHERE address = decode(substr(${param}, 3), 'hex'))`;

/** SQL: the id of the network named by `param` (NULL when it has none yet). */
export const networkIdOf = (param: string) => `(SELECT id FROM indexer_networks WHERE name = ${param})`;

/** SQL: lower-case hex of the bytes in `column` (an address or a hash), as the API gives them. */
export const hex = (column: string) => `'0x' || encode(${column}, 'hex')`;

/** SQL: the bytes of the hex text in `column`. */
export const bytes = (column: string) => `decode(substr(${column}, 3), 'hex')`;

/** The id of `network`, given one on first use. */
export async function networkId(tx: Queryable, network: string): Promise<number> {
  const select = () => tx.query<{ id: number }>("SELECT id FROM indexer_networks WHERE name = $1", [network]);
  let { rows } = await select();
  if (rows.length === 0) {
    await tx.query("INSERT INTO indexer_networks (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [network]);
    ({ rows } = await select());
  }
  return rows[0].id;
}

/**
 * The id of each address (lower-case hex), the ones never seen given one. Only missing addresses are inserted, so
 * ids are not spent on addresses already known. A writer racing on the same new address waits for the other's
 * insert; its row is read by the second statement (a new snapshot) if the first did not see it.
 */
export async function addressIds(tx: Queryable, addresses: Iterable<string>): Promise<Map<string, number>> {
  const wanted = [...new Set(addresses)];
  const ids = new Map<string, number>();
  if (wanted.length === 0) return ids;
  const { rows } = await tx.query<{ id: number; address: string }>(
    `WITH wanted AS (SELECT DISTINCT ${bytes("a")} AS address FROM unnest($1::text[]) a),
     added AS (
       INSERT INTO nft_addresses (address)
       SELECT address FROM wanted w WHERE NOT EXISTS (SELECT 1 FROM nft_addresses n WHERE n.address = w.address)
       ON CONFLICT (address) DO NOTHING
       RETURNING id, address
     )
     SELECT id, ${hex("address")} AS address FROM added
     UNION ALL SELECT n.id, ${hex("n.address")} FROM nft_addresses n JOIN wanted w ON n.address = w.address`,
    [arrayLiteral(wanted)],
  );
  for (const r of rows) ids.set(r.address, r.id);
  const raced = wanted.filter((a) => !ids.has(a));
  if (raced.length > 0) {
    const { rows: late } = await tx.query<{ id: number; address: string }>(
      `SELECT id, ${hex("address")} AS address FROM nft_addresses WHERE address = ANY (SELECT ${bytes("a")} FROM unnest($1::text[]) a)`,
      [raced],
    );
    for (const r of late) ids.set(r.address, r.id);
  }
  return ids;
}

/**
 * The address (lower-case hex) of each id of `wanted`: those in `known` (address to id, as addressIds gives it) from
 * there, the others from the dictionary.
 */
export async function addressesOf(tx: Queryable, known: Map<string, number>, wanted: Iterable<number>): Promise<Map<number, string>> {
  const addresses = new Map<number, string>();
  const missing = new Set<number>(wanted);
  if (missing.size === 0) return addresses;
  for (const [address, id] of known) {
    if (missing.delete(id)) addresses.set(id, address);
  }
  if (missing.size > 0) {
    const { rows } = await tx.query<{ id: number; address: string }>(
      `SELECT id, ${hex("address")} AS address FROM nft_addresses WHERE id = ANY ($1::int[])`,
      [arrayLiteral([...missing])],
    );
    for (const r of rows) addresses.set(r.id, r.address);
  }
  return addresses;
}
