import { DomainError } from "../lib/domain-error";
import { eip55 } from "./eip55";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A decimal uint256 as the API takes it: no sign, no exponent, no leading zeros beyond "0", at most 78 digits. */
export const DECIMAL_UINT256 = /^(0|[1-9]\d{0,77})$/;
const UINT256_MAX = 2n ** 256n - 1n;

/**
 * An address as people and clients write it (docs/reference/api.md): `0x` + 40 hex digits in any case, but a mixed-case
 * address must pass its EIP-55 checksum (a typo in a checksummed address is caught, not silently used). Returns it
 * checksummed; `invalid_address` otherwise.
 */
export function parseAddress(value: string, field = "address"): string {
  if (!ADDRESS.test(value)) throw new DomainError("invalid", "invalid_address", `${field} must be 0x followed by 40 hex digits`);
  const body = value.slice(2);
  if (body !== body.toLowerCase() && body !== body.toUpperCase()) {
    const checksummed = checksumAddress(value.toLowerCase());
    if (checksummed !== value) throw new DomainError("invalid", "invalid_address", `${field} fails its EIP-55 checksum`);
    return checksummed;
  }
  return checksumAddress(value.toLowerCase());
}

/**
 * Checksums addresses that are already known to be ones (`0x` + 40 hex digits, lowercase or checksummed), keeping the
 * answer of an address seen twice lately: a hash costs a microsecond or two and a page names up to 200 addresses, of
 * which the contracts and the busiest owners repeat, while over a large index most owners on a page are not asked again
 * for a long time. So an address is kept only at its second sighting (the first leaves a number in a typed array, which
 * the collector never walks), and in a table of `slots` places it is found at by its last digits, where a newer one
 * replaces it: no entry made, moved or looked for on the way out. A Map kept in the order of use cost two to three times
 * the hash at every miss, for its entries and its strings' life in the old generation (bench/suites/checksums.ts).
 */
export function checksummer(slots = 16_384): (address: string) => string {
  if (!Number.isInteger(Math.log2(slots)) || slots > 65_536) throw new RangeError("slots must be a power of two up to 65,536");
  const mask = slots - 1;
  const kept = new Array<string | undefined>(slots).fill(undefined);
  const forms = new Array<string>(slots).fill("");
  const seen = new Int32Array(slots);
  return (address) => {
    // FNV-1a over the last 16 digits (64 random bits of the address): the slot from the hash's high half.
    let hash = 0x811c9dc5 | 0;
    for (let i = address.length - 16; i < address.length; i++) hash = Math.imul(hash ^ address.charCodeAt(i), 0x01000193);
    const slot = (hash >>> 16) & mask;
    if (kept[slot] === address) return forms[slot];
    const form = eip55(address.toLowerCase());
    if (seen[slot] === hash) {
      kept[slot] = address;
      forms[slot] = form;
    } else seen[slot] = hash;
    return form;
  };
}

/**
 * The EIP-55 form of an address that is already known to be one (lowercase, or checksummed). One login checksums the
 * same address four times (authorize, login, the recovered signer, the token's subject): the second sighting keeps
 * it, the last two are free.
 */
export const checksumAddress = checksummer();

/** A token id written as a decimal uint256 ({@link DECIMAL_UINT256}); `invalid_token_id` otherwise. */
export function parseTokenId(value: string, field = "id"): bigint {
  if (!DECIMAL_UINT256.test(value)) throw new DomainError("invalid", "invalid_token_id", `${field} must be a decimal uint256`);
  const id = BigInt(value);
  if (id > UINT256_MAX) throw new DomainError("invalid", "invalid_token_id", `${field} is larger than 2^256 - 1`);
  return id;
}
