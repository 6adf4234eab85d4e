import { Type } from "typebox";
import { example, type ExampleName } from "./openapi-examples";

/** The body of every refusal of the JSON API (docs/reference/api.md); oidc-provider's endpoints answer RFC 6749's instead. */
export const ErrorBody = Type.Object({
  error: Type.String({ description: "snake_case code, stable: what programs compare" }),
  message: Type.String({ description: "What was wrong, for people" }),
});

/** Path parameter naming a network of the registry (docs/reference/configuration.md, "Networks"); unknown names are refused by the registry (400). */
export const NetworkParam = Type.String({ description: "Network name, e.g. mainnet, sepolia, matic-mainnet", ...example("network") });

/** An address in a path or query, with the example it takes in the OpenAPI document. */
export const AddressParam = (description: string, name: ExampleName) =>
  Type.String({ description: `${description}: 0x + 40 hex digits (mixed case must pass EIP-55)`, ...example(name) });

/** A token id in a path or query, with the document's example token. */
export const TokenIdParam = Type.String({ description: "Token id (decimal uint256)", ...example("tokenId") });

/** A block number on the wire: a JSON number. */
export const BlockNumber = Type.Integer({ minimum: 0, description: "Block number" });

/** A checksummed address on the wire. */
export const Address = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "EIP-55 checksummed address" });

/** The headers of an answer read from the index (for the OpenAPI document): how fresh it is, and whether the contract is fully indexed. */
export const IndexHeaders = {
  "X-Indexed-Block": { type: "integer", description: "The block the index is complete to" },
  "X-Index-Complete": {
    type: "string",
    description: '"false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md)',
  },
};
