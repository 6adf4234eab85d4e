import { checksumAddress } from "../chain/values";

/**
 * The forms of `sub` a client may choose (docs/reference/login.md: subject formats). `address`, the default, is the predecessor's:
 * the lower-case address, chain-qualified (`eip155:<chainId>:<address>`) only for a contract wallet proven on a chain
 * other than mainnet (`subjectFor` in provider.ts). `caip10` is always a CAIP-10 account id with the checksummed address.
 */
export const SUBJECT_FORMATS = ["address", "caip10"] as const;
export type SubjectFormat = (typeof SUBJECT_FORMATS)[number];

/**
 * The CAIP-10 subject of a proven address. An EOA's key controls its address on every chain, so it gets one subject,
 * on chain 1, whichever chain the login named; a contract wallet is someone's on the chain it was proven on only.
 * Each subject of the `address` form thus has exactly one CAIP-10 counterpart and back (`accountOfSubject`).
 */
export function caip10Subject(address: string, kind: "eoa" | "erc1271" | "erc6492", chainId: number): string {
  return `eip155:${kind === "eoa" ? 1 : chainId}:${checksumAddress(address.toLowerCase())}`;
}

/**
 * The account a subject of either form names, in the `address` form: the key of the account's login history, which
 * does not depend on the format of the clients it logged in to.
 */
export function accountOfSubject(sub: string): string {
  const match = /^eip155:(\d+):(0x[0-9a-fA-F]{40})$/.exec(sub);
  if (!match) return sub;
  const address = match[2].toLowerCase();
  return match[1] === "1" ? address : `eip155:${match[1]}:${address}`;
}
