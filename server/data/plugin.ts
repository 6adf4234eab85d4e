import type { FastifyInstance } from "fastify";
import blocks from "./blocks";

/** The data service of DESIGN §8: blocks, gas, approvals, owners and inventory. */
export default async function data(app: FastifyInstance) {
  await app.register(blocks);
}
