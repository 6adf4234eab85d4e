import { getAddress } from "ethers";

/**
 * A spelling of `address` that fails its EIP-55 checksum: one letter's case flipped, the spelling still of both cases.
 * Flipping any letter will not do: where the checksummed form has one lower-case letter, flipping it gives all capitals,
 * which the API takes as an address written in one case, as it should.
 */
export function failingChecksum(address: string): string {
  const body = getAddress(address).slice(2);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (!/[a-fA-F]/.test(c)) continue;
    const flipped = body.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + body.slice(i + 1);
    if (flipped !== flipped.toLowerCase() && flipped !== flipped.toUpperCase()) return `0x${flipped}`;
  }
  throw new Error(`${address} has no spelling of both cases that fails its checksum`);
}
