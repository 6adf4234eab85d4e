/**
 * SQL expressions tests use to write and read the index's compact rows directly (addresses and hashes as bytes,
 * addresses and networks as ids), as the store's statements spell them (server/indexer/store/README.md).
 */

/** The id of the address given as hex text by `param` (NULL when the index never saw it). */
export const addressId = (param: string) => `(SELECT id FROM nft_addresses WHERE address = decode(substr(${param}, 3), 'hex'))`;

/** The id of the network named by `param` (NULL when it has none yet). */
export const networkIdOf = (param: string) => `(SELECT id FROM indexer_networks WHERE name = ${param})`;

/** Lower-case hex of the bytes in `column` (an address or a hash), as the API gives them. */
export const hex = (column: string) => `'0x' || encode(${column}, 'hex')`;

/** The bytes of the hex text in `column`. */
export const bytes = (column: string) => `decode(substr(${column}, 3), 'hex')`;
