import { getAddress } from "ethers";
import type { Database, Queryable } from "../db/database";
import { currentStatements } from "../metadata/store";
import type { Resolved } from "./resolver";

/** Most holders listed in a token answer (ERC-1155 ids can have many; the largest balances come first). */
export const MAX_BALANCES = 100;

/** Who holds a token, from the index: its owner (ERC-721) or its holders' balances (ERC-1155). */
export type Holding =
  | { standard: "erc721"; owner: string }
  | { standard: "erc1155"; balances: Array<{ owner: string; balance: string }> };

/**
 * The block the index of `network` is complete to (null before it started) and the token's holding in the same
 * statement (undefined when the index has no such token: never minted, burned, or a contract not indexed).
 */
export async function readHolding(db: Queryable, network: string, contract: string, id: bigint): Promise<{ indexed: number | null; holding?: Holding }> {
  const { rows } = await db.query<{ indexed: string; owner: string | null; balances: Array<{ owner: string; balance: string }> | null }>(
    `SELECT c.block_number AS indexed,
       (SELECT owner FROM nft_owners WHERE network = c.network AND contract = $2 AND token_id = $3) AS owner,
       (SELECT json_agg(json_build_object('owner', b.owner, 'balance', b.balance::text) ORDER BY b.balance DESC, b.owner)
        FROM (SELECT owner, balance FROM nft_balances WHERE network = c.network AND contract = $2 AND token_id = $3 AND balance > 0
              ORDER BY balance DESC, owner LIMIT ${MAX_BALANCES}) b) AS balances
     FROM indexer_cursors c WHERE c.network = $1`,
    [network, contract, id.toString()],
  );
  if (rows.length === 0) return { indexed: null };
  const { indexed, owner, balances } = rows[0];
  if (owner !== null) return { indexed: Number(indexed), holding: { standard: "erc721", owner } };
  if (balances && balances.length > 0) return { indexed: Number(indexed), holding: { standard: "erc1155", balances } };
  return { indexed: Number(indexed) };
}

/** `"tokenURI":…,"metadata":…,"image":…,"metadataError":…`, the metadata object as served (exact digits, key order). */
export function metadataFields(resolved: Resolved): string {
  return [
    `"tokenURI":${JSON.stringify(resolved.tokenUri)}`,
    `"metadata":${resolved.metadata ?? "null"}`,
    `"image":${JSON.stringify(resolved.image)}`,
    `"metadataError":${JSON.stringify(resolved.metadata === null ? (resolved.error ?? "no metadata") : null)}`,
  ].join(",");
}

/** `{"<issuer>": {...}}`: the current issuer-signed metadata of the token, each object as it was signed. */
export async function signedFields(db: Database, network: string, contract: string, id: bigint): Promise<string> {
  const statements = await currentStatements(db, { kind: "nft", network, contract, tokenId: id });
  return `{${statements.map((s) => `${JSON.stringify(getAddress(s.issuer))}:${Buffer.from(s.metadataB64, "base64").toString("utf8")}`).join(",")}}`;
}

/** The whole token answer as JSON text. */
export function tokenJson(contract: string, id: bigint, holding: Holding, resolved: Resolved, signed: string): string {
  const holders =
    holding.standard === "erc721"
      ? `"owner":${JSON.stringify(getAddress(holding.owner))}`
      : `"balances":[${holding.balances.map((b) => `{"owner":${JSON.stringify(getAddress(b.owner))},"balance":${b.balance}}`).join(",")}]`;
  return `{"contract":${JSON.stringify(getAddress(contract))},"id":${id},"standard":"${holding.standard}",${holders},${metadataFields(resolved)},"signed":${signed}}`;
}
