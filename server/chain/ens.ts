import { concat, ensNormalize, Interface, keccak256, namehash, toUtf8Bytes, ZeroAddress } from "ethers";
import { decodeResult } from "./abi-string";
import { callOutcome, rawCall } from "./calls";
import type { Networks } from "./networks";

/** ENS's registry: the same address on mainnet and its testnets (the tests deploy their own there). */
export const ENS_REGISTRY = "0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e";

/** namehash("addr.reverse"): the parent of every address's reverse record. */
const ADDR_REVERSE = namehash("addr.reverse");

/** Longest name taken: DNS's limit on a whole name (anything longer is no name a wallet shows). */
const MAX_NAME_LENGTH = 255;

const ENS = new Interface([
  "function resolver(bytes32 node) view returns (address)",
  "function addr(bytes32 node) view returns (address)",
  "function name(bytes32 node) view returns (string)",
  "function text(bytes32 node, string key) view returns (string)",
  "function ownerOf(uint256 id) view returns (address)",
  "function balanceOf(address owner, uint256 id) view returns (uint256)",
]);

/** What ENS says of an address: its primary name (verified both ways) and that name's `avatar` text record. */
export interface EnsProfile {
  name: string | null;
  avatar: string | null;
}

/**
 * The primary name of `address` on `network`: the reverse record `<addr>.addr.reverse` names it, and it counts only
 * when the name is normalized (ENSIP-15: no look-alike spelling of another name) and its forward `addr` is the same
 * address (anyone may write any name in their own reverse record). Then its `avatar` text record, as written.
 * A revert or a missing resolver means "none"; a node failure is thrown (the chain's upstream error).
 */
export async function primaryProfile(networks: Networks, network: string, address: string): Promise<EnsProfile> {
  const none: EnsProfile = { name: null, avatar: null };
  // namehash() would run ENSIP-15 normalization over the label, which lower-case hex already is: hashed directly.
  const reverse = keccak256(concat([ADDR_REVERSE, keccak256(toUtf8Bytes(address.toLowerCase().slice(2)))]));
  const name = await resolve(networks, network, reverse, "name", []);
  if (typeof name !== "string" || name === "" || name.length > MAX_NAME_LENGTH) return none;
  let normalized: string;
  try {
    normalized = ensNormalize(name);
  } catch {
    return none;
  }
  if (normalized !== name) return none;
  const node = namehash(name);
  // The forward address and the avatar are records of one name, so of one resolver: the registry is asked once.
  const resolver = await resolverOf(networks, network, node);
  if (resolver === undefined) return none;
  const forward = await call(networks, network, resolver, "addr", [node]);
  if (typeof forward !== "string" || forward.toLowerCase() !== address.toLowerCase()) return none;
  const avatar = await call(networks, network, resolver, "text", [node, "avatar"]);
  return { name, avatar: typeof avatar === "string" && avatar.trim() !== "" ? avatar.trim() : null };
}

/**
 * Whether `owner` holds token `id` of `contract` (ERC-721 `ownerOf`, ERC-1155 `balanceOf`): an avatar that names an
 * NFT counts only for its holder (ENSIP-12), or anyone could show anyone's picture.
 */
export async function holdsToken(
  networks: Networks,
  network: string,
  standard: "erc721" | "erc1155",
  contract: string,
  id: bigint,
  owner: string,
): Promise<boolean> {
  const result =
    standard === "erc721"
      ? await call(networks, network, contract, "ownerOf", [id])
      : await call(networks, network, contract, "balanceOf", [owner, id]);
  if (result === undefined) return false;
  return standard === "erc721" ? String(result).toLowerCase() === owner.toLowerCase() : (result as bigint) > 0n;
}

/** `fn` of the resolver the registry names for `node`; undefined when there is none or the call reverts. */
async function resolve(networks: Networks, network: string, node: string, fn: "addr" | "name" | "text", args: unknown[]) {
  const resolver = await resolverOf(networks, network, node);
  return resolver === undefined ? undefined : call(networks, network, resolver, fn, [node, ...args]);
}

/** The resolver the registry names for `node`; undefined when there is none. */
async function resolverOf(networks: Networks, network: string, node: string): Promise<string | undefined> {
  const resolver = await call(networks, network, ENS_REGISTRY, "resolver", [node]);
  return typeof resolver === "string" && resolver !== ZeroAddress ? resolver : undefined;
}

async function call(networks: Networks, network: string, to: string, fn: string, args: unknown[]): Promise<unknown> {
  // Sent raw: a name or text record is whatever the resolver answers, up to megabytes (rawCall).
  const outcome = await callOutcome(network, rawCall(networks.provider(network), { to, data: ENS.encodeFunctionData(fn, args) }));
  if (!outcome.ok) return undefined;
  try {
    // A name or text record is whatever the resolver answers: decodeResult reads it without holding the event loop.
    return decodeResult(ENS, fn, outcome.data);
  } catch {
    // No contract there (empty answer) or one that answers something else: no record.
    return undefined;
  }
}
