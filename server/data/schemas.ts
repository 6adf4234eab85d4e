import { Type } from "typebox";

/** Path parameter naming a network of the registry (docs/configuration.md, "Networks"); unknown names are refused by the registry (400). */
export const NetworkParam = Type.String({ description: "Network name, e.g. mainnet, sepolia, matic-mainnet", examples: ["mainnet"] });

export const AddressParam = (description: string) =>
  Type.String({ description: `${description}: 0x + 40 hex digits (mixed case must pass EIP-55)` });

/** A block number on the wire: a JSON number. */
export const BlockNumber = Type.Integer({ minimum: 0, description: "Block number" });

/** A checksummed address on the wire. */
export const Address = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "EIP-55 checksummed address" });

export const Paging = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: "Items per page (1–1000)" })),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'From the Link rel="next" of the previous page' })),
});
