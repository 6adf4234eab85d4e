import type { Database } from "../db/database";
import { byIssuer, metadataObject, servable } from "./served";
import { currentStatements } from "./store";

/**
 * What other features use of the metadata service (they import this entry, never its modules).
 */

/** `{"<issuer>": {...}}`: the current issuer-signed metadata of a token, as `GET /metadata/…` serves it. */
export async function signedMetadataJson(db: Database, network: string, contract: string, id: bigint): Promise<string> {
  return byIssuer(servable(await currentStatements(db, { kind: "nft", network, contract, tokenId: id })), metadataObject);
}
