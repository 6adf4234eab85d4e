import { Type } from "typebox";

/** Path parameter naming a network of DESIGN §5; unknown names are refused by the registry (400). */
export const NetworkParam = Type.String({ description: "Network name, e.g. mainnet, sepolia, matic-mainnet", examples: ["mainnet"] });

/** A block number on the wire: a JSON number. */
export const BlockNumber = Type.Integer({ minimum: 0, description: "Block number" });
