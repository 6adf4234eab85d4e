import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { BlockNumber, NetworkParam } from "./schemas";

const blocks: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/block/:network/latest",
    {
      schema: {
        tags: ["data"],
        summary: "Latest block number (at most one block behind the node)",
        params: Type.Object({ network: NetworkParam }),
        response: { 200: BlockNumber },
      },
    },
    async (request) => app.heads.latest(request.params.network),
  );
};

export default blocks;
