import type { paths } from "./generated/openapi.ts";

/**
 * An unsigned integer of the service as a decimal string: token ids, balances, counts, block numbers, wei. Strings keep
 * every digit of a uint256 (a JavaScript number does not past 2^53), print as they are, and go back into a request
 * unchanged; `BigInt(value)` when arithmetic is wanted.
 */
export type Uint = string;

/** What the SDK takes where a request needs an unsigned integer: a decimal string, a bigint, or a safe integer. */
export type UintInput = string | bigint | number;

/** A `0x` address; answers give it EIP-55 checksummed. */
export type Address = string;

type Json<Answer> = Answer extends { content: { "application/json": infer Body } } ? Body : never;
/** The 200 answer's JSON body of an operation of the service's document. */
export type AnswerOf<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends {
  responses: { 200: infer Answer };
}
  ? Json<Answer>
  : never;

export type InventoryItem = AnswerOf<"/inventory/{network}/{owner}/{assetContract}", "get">[number];
/** An inventory item asked with `metadata: true`: the token's metadata fields as `GET /token` gives them. */
export type InventoryItemWithMetadata = InventoryItem & Pick<Token, "tokenURI" | "metadata" | "image" | "metadataError">;
export type Holder = AnswerOf<"/holders/{network}/{contract}", "get">[number];
export type Transfer = AnswerOf<"/transfers/{network}/{contract}/{id}", "get">[number];
export type Token = AnswerOf<"/token/{network}/{contract}/{id}", "get">;
export type HolderCount = AnswerOf<"/holders/{network}/{contract}/count", "get">;
export type Collection = AnswerOf<"/collection/{network}/{contract}", "get">;
export type ClientInfo = AnswerOf<"/api/client", "get">;
export type LoginAnswer = AnswerOf<"/api/login", "post">;
export type AuthorizeAnswer = AnswerOf<"/api/authorize", "get">;
export type Tokens = AnswerOf<"/token", "post">;
export type Converter = AnswerOf<"/converter/{network}/{converter}", "get">;
export type ConverterPairs = AnswerOf<"/converter/{network}/{converter}/pairs", "get">;

/**
 * A signed statement as `signedMetadata(…, {records: true})` reads it, per issuer: the signed text, how the signature
 * was checked, and the metadata both as posted (Base64) and decoded (`data`, numbers as their author wrote them).
 */
export type SignedMetadataRecord = Extract<AnswerOf<"/metadata/{network}/{contract}/{id}", "get">, { sig: string }>;
