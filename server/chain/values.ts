import { BoundedCache } from "../lib/bounded-cache";
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
 * Checksums addresses that are already known to be ones (`0x` + 40 hex digits, lowercase or checksummed), each once while
 * it stays among the last `size`: a hash costs a few microseconds and a page names up to 200 addresses, of which the
 * contracts and the busiest owners repeat. Kept small: an address kept costs more than its hash when it is not asked
 * again (its entry, its string's life in the old generation), which is most of them over a large index
 * (bench/suites/checksums.ts).
 */
export function checksummer(size = 10_000): (address: string) => string {
  const checksums = new BoundedCache<string>(size);
  return (address) => {
    let done = checksums.get(address);
    if (!done) checksums.set(address, (done = eip55(address.toLowerCase())));
    return done;
  };
}

/**
 * The EIP-55 form of an address that is already known to be one (lowercase, or checksummed). One login checksums the
 * same address four times (authorize, login, the recovered signer, the token's subject): the last three are free.
 */
export const checksumAddress = checksummer(10_000);

/** A token id written as a decimal uint256 ({@link DECIMAL_UINT256}); `invalid_token_id` otherwise. */
export function parseTokenId(value: string, field = "id"): bigint {
  if (!DECIMAL_UINT256.test(value)) throw new DomainError("invalid", "invalid_token_id", `${field} must be a decimal uint256`);
  const id = BigInt(value);
  if (id > UINT256_MAX) throw new DomainError("invalid", "invalid_token_id", `${field} is larger than 2^256 - 1`);
  return id;
}
