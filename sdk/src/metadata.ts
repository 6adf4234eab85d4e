// Issuer-signed metadata (docs/reference/metadata.md#signed-metadata-the-metadata-service): the text an issuer signs,
// signing it with any wallet, and checking a statement read back. No ABI or crypto library: signing goes through the
// wallet, and checking a signature through the caller's `verifyMessage` (viem's or ethers'), so the bundle stays small.
import { firstAccount, personalSign, type Eip1193Provider } from "./eip1193.ts";
import type { Address, SignedMetadataRecord, UintInput } from "./types.ts";

export type { SignedMetadataRecord };

/** What a statement is about: a token (`contract` and `id`) or an account, on a network as the service names it. */
export type MetadataTarget = { network: string; contract: Address; id: UintInput } | { network: string; account: Address };

/** The body the metadata routes take: the issuer, its signature, and the metadata as Base64 of its UTF-8 JSON. */
export interface SignedMetadataBody {
  iss: Address;
  sig: string;
  metadata: string;
}

/** Signs a text with EIP-191 `personal_sign`: an EIP-1193 provider, or a function such as viem's or ethers' `signMessage`. */
export type MessageSigner = Eip1193Provider | ((text: string) => Promise<string>);

/** Checks an EIP-191 signature: viem's `publicClient.verifyMessage` (EOAs and contract wallets) or ethers' `verifyMessage`. */
export type MessageVerifier = (input: { address: Address; message: string; signature: string }) => boolean | Promise<boolean>;

/** Standard Base64 (with padding) of the UTF-8 bytes of a metadata object, or of JSON text kept exactly as written. */
export function encodeMetadata(metadata: object | string): string {
  const bytes = new TextEncoder().encode(typeof metadata === "string" ? metadata : JSON.stringify(metadata));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The text an issuer signs for `target`: it names the target, so the signature is good for that target alone. */
export function signedMetadataText(target: MetadataTarget, metadataBase64: string): string {
  const subject =
    "account" in target
      ? `ethereum:${target.network}:${target.account.toLowerCase()}`
      : `ethereum:${target.network}:${target.contract.toLowerCase()}:${BigInt(target.id)}`;
  return ["account" in target ? "Account metadata" : "NFT metadata", subject, "---", metadataBase64].join("\n");
}

/**
 * Builds and signs a statement about `target` (EIP-191 `personal_sign` of its {@link signedMetadataText}) and gives the
 * body to post (`client.postSignedMetadata`). `issuer` is the signing address; a provider's first account by default.
 * A contract wallet's address works for token metadata when its owners' signature is what the wallet checks (EIP-1271).
 */
export async function signMetadata(input: {
  signer: MessageSigner;
  target: MetadataTarget;
  metadata: object | string;
  issuer?: Address;
}): Promise<SignedMetadataBody> {
  const { signer, target } = input;
  const metadata = encodeMetadata(input.metadata);
  const text = signedMetadataText(target, metadata);
  if (typeof signer === "function") {
    if (!input.issuer) throw new Error("give the issuer's address with a signing function");
    return { iss: input.issuer, sig: await signer(text), metadata };
  }
  const iss = input.issuer ?? (await firstAccount(signer));
  return { iss, sig: await personalSign(signer, iss, text), metadata };
}

/**
 * Whether a statement read with `format: "raw"` is `record.iss`'s about `target`: its text is the bound text of this
 * target and of its Base64, its decoded data is that Base64's, and `verifyMessage` accepts the signature. A statement
 * signed without binding (the predecessor's) is refused, since it could have been posted for any target.
 */
export async function verifySignedMetadata(input: {
  record: SignedMetadataRecord;
  target: MetadataTarget;
  verifyMessage: MessageVerifier;
}): Promise<boolean> {
  const { record, target } = input;
  if (record.binding !== "target" || record.text !== signedMetadataText(target, record.metadata)) return false;
  const bytes = Uint8Array.from(atob(record.metadata), (char) => char.charCodeAt(0));
  const decoded: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (JSON.stringify(decoded) !== JSON.stringify(record.data)) return false;
  return input.verifyMessage({ address: record.iss, message: record.text, signature: record.sig });
}
