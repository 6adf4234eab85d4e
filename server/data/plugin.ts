import type { FastifyInstance } from "fastify";
import { limitRequests } from "../http/rate-limit";
import blocks from "./blocks";
import gas from "./gas";
import history from "./history";
import holders from "./holders";
import inventory from "./inventory";
import tokens from "./tokens";

/** The data service (docs/reference/data-api.md): blocks, gas, approvals, owners and inventory. */
export default async function data(app: FastifyInstance) {
  // Each route may cost the node and the database: one budget per client for all of them (and GET /token).
  await limitRequests(app, { max: app.config.rateLimits.data, global: true, family: "data" });
  await app.register(blocks);
  await app.register(gas);
  await app.register(inventory);
  await app.register(holders);
  await app.register(history);
  // Last: its /:network/:assetContract/:id catches every three-segment path the others leave.
  await app.register(tokens);
}
