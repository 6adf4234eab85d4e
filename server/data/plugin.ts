import type { FastifyInstance } from "fastify";
import blocks from "./blocks";
import gas from "./gas";
import history from "./history";
import holders from "./holders";
import inventory from "./inventory";
import tokens from "./tokens";

/** The data service (docs/data-api.md): blocks, gas, approvals, owners and inventory. */
export default async function data(app: FastifyInstance) {
  await app.register(blocks);
  await app.register(gas);
  await app.register(inventory);
  await app.register(holders);
  await app.register(history);
  // Last: its /:network/:assetContract/:id catches every three-segment path the others leave.
  await app.register(tokens);
}
