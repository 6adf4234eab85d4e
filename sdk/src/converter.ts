import type { Address, UintInput } from "./types.ts";

/** A transaction for any wallet library: viem's `sendTransaction`, ethers' `signer.sendTransaction`, `eth_sendTransaction`. */
export interface TransactionRequest {
  to: Address;
  data: string;
}

/** `safeTransferFrom(address,address,uint256)`: the first four bytes of its keccak-256. */
const SAFE_TRANSFER_FROM = "0x42842e0e";

function word(hex: string): string {
  return hex.padStart(64, "0");
}

function addressWord(address: Address): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new TypeError(`${address} is not a 0x address of 40 hex digits`);
  return word(address.slice(2).toLowerCase());
}

/**
 * The one transaction that converts a token (docs/reference/converter.md): `token.safeTransferFrom(holder, converter,
 * id)` with empty data, sent by the holder; the converter sends the paired token back. `token` is the side given
 * (Alice, or Bob while reverse conversion is on). Read `converterPairs` first: a token that cannot convert reverts.
 */
export function conversionTransaction(input: { token: Address; holder: Address; converter: Address; id: UintInput }): TransactionRequest {
  const id = BigInt(input.id);
  if (id < 0n || id >= 2n ** 256n) throw new RangeError(`${input.id} is not a uint256`);
  addressWord(input.token);
  return {
    to: input.token,
    data: `${SAFE_TRANSFER_FROM}${addressWord(input.holder)}${addressWord(input.converter)}${word(id.toString(16))}`,
  };
}
