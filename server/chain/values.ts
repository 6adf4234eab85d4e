import { getAddress } from "ethers";
import { DomainError } from "../lib/domain-error";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A decimal uint256 as the API takes it: no sign, no exponent, no leading zeros beyond "0", at most 78 digits. */
export const DECIMAL_UINT256 = /^(0|[1-9]\d{0,77})$/;
const UINT256_MAX = 2n ** 256n - 1n;

/**
 * An address as people and clients write it (README, "API"): `0x` + 40 hex digits in any case, but a mixed-case
 * address must pass its EIP-55 checksum (a typo in a checksummed address is caught, not silently used). Returns it
 * checksummed; `invalid_address` otherwise.
 */
export function parseAddress(value: string, field = "address"): string {
  if (!ADDRESS.test(value)) throw new DomainError("invalid", "invalid_address", `${field} must be 0x followed by 40 hex digits`);
  const body = value.slice(2);
  if (body !== body.toLowerCase() && body !== body.toUpperCase()) {
    const checksummed = getAddress(value.toLowerCase());
    if (checksummed !== value) throw new DomainError("invalid", "invalid_address", `${field} fails its EIP-55 checksum`);
    return checksummed;
  }
  return getAddress(value.toLowerCase());
}

/** A token id written as a decimal uint256 ({@link DECIMAL_UINT256}); `invalid_token_id` otherwise. */
export function parseTokenId(value: string, field = "id"): bigint {
  if (!DECIMAL_UINT256.test(value)) throw new DomainError("invalid", "invalid_token_id", `${field} must be a decimal uint256`);
  const id = BigInt(value);
  if (id > UINT256_MAX) throw new DomainError("invalid", "invalid_token_id", `${field} is larger than 2^256 - 1`);
  return id;
}
