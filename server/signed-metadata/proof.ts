import { hashMessage, isHexString } from "ethers";
import type { Networks } from "../chain/networks";
import { isEoa, isErc6492Signature, verifyEoa, verifySignature, type VerifyResult } from "../chain/signatures";
import type { MetadataPost } from "./body";
import { bindingRequired, eoaRequired, invalidSignature, malformedSignature, walletCheckUnavailable } from "./errors";
import { boundText, unboundText, type Target } from "./signed-text";

/** How a statement was proven: which text `sig` covers, and what kind of signer made it. */
export interface Proof {
  binding: "target" | "none";
  signerKind: string;
  signedText: string;
}

export interface ProofSettings {
  /** SIGNED_METADATA_REQUIRE_BINDING: refuse a signature over the Base64 alone. */
  requireBinding: boolean;
}

/**
 * Verifies `sig` over the text bound to the target, or (unless `requireBinding`) over the Base64 alone as the
 * predecessor's client signs it. Account metadata must come from an EOA.
 *
 * An EOA's signature is checked first, without the network's node: 65 bytes that recover to `iss` prove it whatever
 * is deployed there (no one holds the key of a contract's address), so EOA issuers post on every network, with or
 * without its RPC URL. Only a signature that is not one (a contract wallet's, EIP-1271 or EIP-6492) needs the node.
 */
export async function prove(networks: Networks, settings: ProofSettings, target: Target, post: MetadataPost): Promise<Proof> {
  const bound = boundText(target, post.metadata);
  const unbound = unboundText(post.metadata);
  const accept = (binding: Proof["binding"], signerKind: string, signedText: string): Proof => {
    if (binding === "none" && settings.requireBinding) throw bindingRequired();
    return { binding, signerKind, signedText };
  };
  if (!isHexString(post.sig) || post.sig.length <= 2 || post.sig.length % 2 !== 0)
    throw malformedSignature("sig: signature must be 0x-prefixed hex bytes");
  if (isHexString(post.sig, 65)) {
    if (verifyEoa(post.iss, hashMessage(bound), post.sig).ok) return accept("target", "eoa", bound);
    if (verifyEoa(post.iss, hashMessage(unbound), post.sig).ok) return accept("none", "eoa", unbound);
  }
  if (target.kind === "account" && isErc6492Signature(post.sig)) throw eoaRequired();
  const reachable = networks.configured().includes(target.network);
  if (target.kind === "account" && !reachable) {
    // Only an EOA may issue account metadata and this is not an EOA's signature of it: no node can change that.
    const result = verifyEoa(post.iss, hashMessage(bound), post.sig);
    if (!result.ok && result.reason === "malformed_signature") throw malformedSignature(`sig: ${result.message}`);
    throw invalidSignature();
  }
  if (!reachable) throw walletCheckUnavailable(target.network);
  const provider = networks.provider(target.network);
  if (target.kind === "account" && !(await isEoa(provider, target.network, post.iss))) throw eoaRequired();
  const check = (text: string): Promise<VerifyResult> | VerifyResult =>
    target.kind === "account"
      ? verifyEoa(post.iss, hashMessage(text), post.sig)
      : verifySignature({ provider, network: target.network, address: post.iss, message: text, signature: post.sig });

  const result = await check(bound);
  if (result.ok) return accept("target", result.kind, bound);
  if (result.reason === "malformed_signature") throw malformedSignature(`sig: ${result.message}`);
  const alone = await check(unbound);
  if (alone.ok) return accept("none", alone.kind, unbound);
  throw invalidSignature();
}
