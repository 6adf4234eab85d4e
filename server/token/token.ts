import { getAddress } from "ethers";
import type { Holding } from "../indexer/store/reads";
import type { Resolved } from "./resolver";

/** `"tokenURI":…,"metadata":…,"image":…,"metadataError":…`, the metadata object as served (exact digits, key order). */
export function metadataFields(resolved: Resolved): string {
  return [
    `"tokenURI":${JSON.stringify(resolved.tokenUri)}`,
    `"metadata":${resolved.metadata ?? "null"}`,
    `"image":${JSON.stringify(resolved.image)}`,
    `"metadataError":${JSON.stringify(resolved.metadata === null ? (resolved.error ?? "no metadata") : null)}`,
  ].join(",");
}

/** The whole token answer as JSON text. */
export function tokenJson(contract: string, id: bigint, holding: Holding, resolved: Resolved, signed: string): string {
  const holders =
    holding.standard === "erc721"
      ? `"owner":${JSON.stringify(getAddress(holding.owner))}`
      : `"balances":[${holding.balances.map((b) => `{"owner":${JSON.stringify(getAddress(b.owner))},"balance":${b.balance}}`).join(",")}]`;
  return `{"contract":${JSON.stringify(getAddress(contract))},"id":${id},"standard":"${holding.standard}",${holders},${metadataFields(resolved)},"signed":${signed}}`;
}
