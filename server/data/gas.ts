import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { BoundedCache } from "../lib/bounded-cache";
import { rpc } from "../chain/networks";
import { sendJson } from "../http/wire";
import { NetworkParam } from "../http/schemas";
import { NODE, refusals } from "../http/refusals";

const gas: FastifyPluginAsyncTypebox = async (app) => {
  // One eth_gasPrice per network and block, however many requests ask.
  const prices = new BoundedCache<bigint>(1_000);

  app.get(
    "/gas/:network/suggested-price",
    {
      schema: {
        tags: ["data"],
        summary: "Suggested gas price in wei (eth_gasPrice, once per block)",
        description:
          "The node's eth_gasPrice, asked once per network and block however many clients ask: a JSON number of wei " +
          "with all its digits. Counts against the data routes' rate limit.",
        params: Type.Object({ network: NetworkParam }),
        response: { 200: Type.Integer({ description: "Wei" }), ...refusals(...NODE, "uri_too_long", "too_many_requests") },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      const provider = app.networks.provider(network);
      const head = await app.heads.latest(network);
      const price = await prices.getOrLoad(`${network}:${head}`, async () => BigInt(await rpc(network, provider.send("eth_gasPrice", []))));
      return sendJson(reply, price);
    },
  );
};

export default gas;
