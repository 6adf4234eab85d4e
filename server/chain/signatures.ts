import { AbiCoder, dataLength, getAddress, hashMessage, Interface, isHexString, keccak256, type JsonRpcProvider } from "ethers";
import * as libsecp256k1 from "tiny-secp256k1";
import { Erc6492Validator__factory } from "../../typechain-types";
import { callOutcome } from "./calls";
import { rpc } from "./networks";
import { checksumAddress } from "./values";

/** How a signature was proven. */
export type SignerKind = "eoa" | "erc1271" | "erc6492";

export type VerifyResult =
  | { ok: true; kind: SignerKind }
  /** `malformed_signature`: not a signature at all (answer 400); `invalid_signature`: does not prove the address (401). */
  | { ok: false; reason: "malformed_signature" | "invalid_signature"; message: string };

export interface VerifyRequest {
  /**
   * Provider of the network on which contract wallets are checked, or a function giving it: it is called only when
   * the node is needed, so an EOA's signature is checked on a network that has no node (the function may throw).
   */
  provider: JsonRpcProvider | (() => JsonRpcProvider);
  /** Network name, for error messages. */
  network: string;
  /** The address claimed to have signed. */
  address: string;
  /** The exact text signed with EIP-191 `personal_sign`. */
  message: string | Uint8Array;
  signature: string;
}

/** The 32-byte suffix that marks an EIP-6492 signature of a wallet that may not be deployed yet. */
export const ERC6492_MAGIC = "0x6492649264926492649264926492649264926492649264926492649264926492";
const ERC1271_MAGIC = "0x1626ba7e";
const ERC1271 = new Interface(["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)"]);
const SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
// EIP-7702: an EOA delegating to code carries this prefix; its own key still signs for it.
const DELEGATION_PREFIX = "0xef0100";

const nodeOf = (request: VerifyRequest): JsonRpcProvider =>
  typeof request.provider === "function" ? request.provider() : request.provider;

const malformed = (message: string): VerifyResult => ({ ok: false, reason: "malformed_signature", message });
const invalid = (message: string): VerifyResult => ({ ok: false, reason: "invalid_signature", message });

/**
 * Checks that `address` signed `message`, in this order: an EIP-6492 wrapper is verified by one
 * deployless `eth_call` (nothing is deployed); an address with code is asked EIP-1271 `isValidSignature`; anything
 * else is an EOA, recovered with ECDSA (65 bytes, low s). A wallet that reverts or answers anything but the magic
 * value is an invalid signature. Node failures are thrown as the chain's upstream errors, never reported as "invalid".
 */
export async function verifySignature(request: VerifyRequest): Promise<VerifyResult> {
  const { signature } = request;
  if (typeof signature !== "string" || !isHexString(signature) || signature.length % 2 !== 0 || signature.length <= 2) {
    return malformed("signature must be 0x-prefixed hex bytes");
  }
  const address = getAddress(request.address);
  const hash = hashMessage(request.message);
  // 65 bytes that recover to the address prove it without asking the node. The outcome is the one the order below
  // gives: an address with contract code has no private key anyone knows (an EIP-7702 account, whose key does sign,
  // is checked by key first below too), and a failed recovery goes on to the node as before.
  let byKey: VerifyResult | undefined;
  if (signature.length === 132) {
    byKey = verifyEoa(address, hash, signature);
    if (byKey.ok) return byKey;
  }

  if (isErc6492Signature(signature)) {
    return verifyCounterfactual({ ...request, address }, hash, `0x${signature.slice(2, -64)}`);
  }
  const code = await rpc(request.network, nodeOf(request).getCode(address));
  if (code === "0x") return byKey ?? verifyEoa(address, hash, signature);
  if (isDelegation(code)) {
    const viaKey = byKey ?? verifyEoa(address, hash, signature);
    if (viaKey.ok) return viaKey;
  }
  return verifyContract({ ...request, address }, hash, signature);
}

/** Whether `signature` is an EIP-6492 wrapper (of a wallet that may not be deployed yet): it ends with the magic suffix. */
export function isErc6492Signature(signature: string): boolean {
  return signature.length >= 66 && signature.slice(-64).toLowerCase() === ERC6492_MAGIC.slice(2);
}

/**
 * Whether `address` is an externally owned account on `network`: it has no code, or only an EIP-7702 delegation
 * (its own key still signs for it). Asks the node; a node failure is thrown as the chain's upstream error.
 */
export async function isEoa(provider: JsonRpcProvider, network: string, address: string): Promise<boolean> {
  const code = await rpc(network, provider.getCode(address));
  return code === "0x" || isDelegation(code);
}

function isDelegation(code: string): boolean {
  return code.startsWith(DELEGATION_PREFIX);
}

/**
 * Every EOA signature check of the service goes through here (login messages, SIWE, metadata, the fast path before
 * EIP-1271): ECDSA recovery over the EIP-191 hash, exactly 65 bytes, v of 27/28 (or 0/1), s in the lower half.
 */
export function verifyEoa(address: string, hash: string, signature: string): VerifyResult {
  if (dataLength(signature) !== 65) return malformed(`an EOA signature is 65 bytes, not ${dataLength(signature)}`);
  const r = `0x${signature.slice(2, 66)}`;
  const s = `0x${signature.slice(66, 130)}`;
  let v = parseInt(signature.slice(130, 132), 16);
  if (v === 0 || v === 1) v += 27; // some hardware wallets give the recovery id as 0/1
  if (v !== 27 && v !== 28) return malformed("signature v must be 27 or 28");
  if (BigInt(s) > SECP256K1_HALF_N) return malformed("signature s is in the upper half (malleable high-s form)");
  if (BigInt(r) === 0n || BigInt(s) === 0n) return malformed("signature r and s must not be zero");
  const recovered = recoverWithLibsecp256k1(hash, signature, v === 28 ? 1 : 0);
  if (recovered === undefined) return invalid("the signature does not recover to an address");
  return recovered === address ? { ok: true, kind: "eoa" } : invalid("the signature was not made by this address");
}

/**
 * The checksummed address whose key made the (already range-checked) 65-byte `signature` of the 32-byte `hash`,
 * or undefined when no point recovers. libsecp256k1 (WebAssembly, tiny-secp256k1) is about 6× faster than ethers.
 */
function recoverWithLibsecp256k1(hash: string, signature: string, recoveryId: 0 | 1): string | undefined {
  let point: Uint8Array | null;
  try {
    // Throws for what is no signature at all (r or s ≥ n, r not the x of a curve point); null when nothing recovers.
    point = libsecp256k1.recover(Buffer.from(hash.slice(2), "hex"), Buffer.from(signature.slice(2, 130), "hex"), recoveryId, false);
  } catch {
    return undefined;
  }
  // The address is the last 20 bytes of keccak256 of the uncompressed point without its 0x04 prefix.
  return point ? checksumAddress(`0x${keccak256(point.subarray(1)).slice(26)}`) : undefined;
}

async function verifyContract(request: VerifyRequest, hash: string, signature: string): Promise<VerifyResult> {
  const data = ERC1271.encodeFunctionData("isValidSignature", [hash, signature]);
  const outcome = await callOutcome(request.network, nodeOf(request).call({ to: request.address, data }));
  if (!outcome.ok) return invalid("the wallet refused the signature (isValidSignature reverted)");
  const result = outcome.data;
  // An ABI-encoded bytes4: the magic value left-aligned in a 32-byte word.
  const magic = dataLength(result) >= 32 && result.slice(0, 10) === ERC1271_MAGIC && /^0*$/.test(result.slice(10, 66));
  return magic ? { ok: true, kind: "erc1271" } : invalid("the wallet did not answer the EIP-1271 magic value");
}

async function verifyCounterfactual(request: VerifyRequest, hash: string, wrapped: string): Promise<VerifyResult> {
  try {
    AbiCoder.defaultAbiCoder().decode(["address", "bytes", "bytes"], wrapped);
  } catch {
    return malformed("the EIP-6492 wrapper is not abi.encode(address, bytes, bytes)");
  }
  const deployless = await new Erc6492Validator__factory().getDeployTransaction(request.address, hash, wrapped);
  // A revert of the validator is "not valid", as any answer but 0x01 is.
  const outcome = await callOutcome(request.network, nodeOf(request).call({ data: deployless.data }));
  return outcome.ok && outcome.data === "0x01"
    ? { ok: true, kind: "erc6492" }
    : invalid("the counterfactual wallet did not accept the signature");
}
