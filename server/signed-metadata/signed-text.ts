/** What a metadata statement is about. Addresses lower case, the network as named in the registry. */
export type Target =
  { kind: "nft"; network: string; contract: string; tokenId: bigint } | { kind: "account"; network: string; account: string };

/**
 * The text an issuer signs with EIP-191 personal_sign (docs/reference/metadata.md). It names the target, so a body signed for one
 * token, account or network cannot be posted for another:
 *
 *     NFT metadata                          Account metadata
 *     ethereum:<network>:<contract>:<id>    ethereum:<network>:<account>
 *     ---                                   ---
 *     <metadata Base64 as sent>             <metadata Base64 as sent>
 *
 * Addresses are written in lower case and ids in decimal, so the text can be rebuilt without an EIP-55 library.
 */
export function boundText(target: Target, metadataBase64: string): string {
  const subject =
    target.kind === "nft"
      ? `ethereum:${target.network}:${target.contract.toLowerCase()}:${target.tokenId}`
      : `ethereum:${target.network}:${target.account.toLowerCase()}`;
  return [target.kind === "nft" ? "NFT metadata" : "Account metadata", subject, "---", metadataBase64].join("\n");
}

/** What the predecessor's client (mchplus.js) signs: the Base64 alone, bound to no target. */
export function unboundText(metadataBase64: string): string {
  return metadataBase64;
}

/** The Base64 of a metadata object as the predecessor's client made it: UTF-8 JSON, standard Base64. */
export function encodeMetadata(metadata: object): string {
  return Buffer.from(JSON.stringify(metadata), "utf8").toString("base64");
}
