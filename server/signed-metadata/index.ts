import type { Database } from "../db/database";
import { byIssuer, metadataObject, servable } from "./served";
import { chosenStatements } from "./store";

export { IssuersQuery, namedIssuers, omissionMessage, SignedOmittedHeaders } from "./chosen";

/**
 * What other features use of the metadata service (they import this entry, never its modules).
 */

/**
 * `{"<issuer>": {...}}`: the current issuer-signed metadata of a token, as `GET /metadata/…` serves it: at most `max`
 * issuers' (the `named` ones first, then the most recent), and how many it left out.
 */
export async function signedMetadataJson(
  db: Database,
  { network, contract, id, named, max }: { network: string; contract: string; id: bigint; named: readonly string[]; max: number },
): Promise<{ json: string; omitted: number }> {
  const { statements, omitted } = await chosenStatements(db, { target: { kind: "nft", network, contract, tokenId: id }, named, max });
  return { json: byIssuer(servable(statements), metadataObject), omitted };
}
