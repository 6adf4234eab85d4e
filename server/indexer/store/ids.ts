import { arrayLiteral } from "../../db/arrays";
import type { Queryable } from "../../db/database";
import { eip55 } from "../../chain/eip55";

/**
 * The two dictionaries of the compact tables (nft_transfers, nft_1155_transfers, nft_owners, nft_changes): a network's
 * id (indexer_networks) and an address's id (nft_addresses). Ids are never deleted or reused, so they may be kept as
 * long as the database is.
 * Addresses cross this boundary as lower-case hex, as everywhere else in the service.
 */

/** The id of `network`, given one on first use. */
export async function networkId(tx: Queryable, network: string): Promise<number> {
  // $1 network
  const select = () => tx.query<{ id: number }>("SELECT id FROM indexer_networks WHERE name = $1", [network]);
  let { rows } = await select();
  if (rows.length === 0) {
    // $1 network
    await tx.query("INSERT INTO indexer_networks (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [network]);
    ({ rows } = await select());
  }
  return rows[0].id;
}

/**
 * Addresses' ids (lower-case hex to id), and which of them the call that gave them added to the dictionary: no row of
 * the index names those yet (ids are never removed from it), so a holding or balance of one is a new row.
 */
export class AddressIds extends Map<string, number> {
  readonly added = new Set<string>();
}

/**
 * The id of each address (lower-case hex), the ones never seen given one with their EIP-55 form. Only missing
 * addresses are inserted, so ids are not spent on addresses already known, and only they are hashed: an address is
 * checksummed once in the index's life, here, not on every page that names it (0266_address_checksums). A writer
 * racing on the same new address waits for the other's insert; its row is read by the last statement (a new snapshot)
 * if the insert did not see it.
 */
export async function addressIds(tx: Queryable, addresses: Iterable<string>): Promise<AddressIds> {
  const wanted = [...new Set(addresses)];
  const ids = new AddressIds();
  /** Reads the ids of those of `list` the dictionary has. */
  const read = async (list: string[]) => {
    if (list.length === 0) return;
    // $1 addresses (hex)
    const { rows } = await tx.query<{ id: number; address: string }>(
      `SELECT id, '0x' || encode(address, 'hex') AS address FROM nft_addresses
       WHERE address = ANY (SELECT decode(substr(a, 3), 'hex') FROM unnest($1::text[]) a)`,
      [arrayLiteral(list)],
    );
    for (const r of rows) ids.set(r.address, r.id);
  };
  await read(wanted);
  const missing = wanted.filter((a) => !ids.has(a));
  if (missing.length === 0) return ids;
  // $1 addresses (hex), $2 their EIP-55 forms
  const added = await tx.query<{ id: number; address: string }>(
    `INSERT INTO nft_addresses (address, eip55)
     SELECT decode(substr(a, 3), 'hex'), c FROM unnest($1::text[], $2::text[]) AS m(a, c)
     ON CONFLICT (address) DO NOTHING
     RETURNING id, '0x' || encode(address, 'hex') AS address`,
    [arrayLiteral(missing), arrayLiteral(missing.map(eip55))],
  );
  for (const r of added.rows) ids.set(r.address, r.id).added.add(r.address);
  await read(missing.filter((a) => !ids.has(a)));
  return ids;
}

/**
 * Gives EIP-55 forms to at most `limit` addresses that have none (written before 0266_address_checksums), the lowest
 * ids first; resolves to how many it read, so a result below `limit` means none is left. The update sets only a form
 * still missing: a writer or another instance doing the same meanwhile loses nothing, and the form is the same.
 */
export async function checksumStoredAddresses(db: Queryable, limit: number): Promise<number> {
  // $1 limit
  const { rows } = await db.query<{ id: number; address: string }>(
    `SELECT id, '0x' || encode(address, 'hex') AS address FROM nft_addresses WHERE eip55 IS NULL ORDER BY id LIMIT $1`,
    [limit],
  );
  if (rows.length === 0) return 0;
  // $1 ids, $2 their EIP-55 forms
  await db.query(
    `UPDATE nft_addresses a SET eip55 = m.eip55 FROM unnest($1::int[], $2::text[]) AS m(id, eip55)
     WHERE a.id = m.id AND a.eip55 IS NULL`,
    [arrayLiteral(rows.map((r) => r.id)), arrayLiteral(rows.map((r) => eip55(r.address)))],
  );
  return rows.length;
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
    // $1 ids
    const { rows } = await tx.query<{ id: number; address: string }>(
      `SELECT id, '0x' || encode(address, 'hex') AS address FROM nft_addresses WHERE id = ANY ($1::int[])`,
      [arrayLiteral([...missing])],
    );
    for (const r of rows) addresses.set(r.id, r.address);
  }
  return addresses;
}
