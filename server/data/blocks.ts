import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { BoundedCache } from "../lib/bounded-cache";
import { rpc } from "../chain/networks";
import { badRequest, notFound } from "../http/http-error";
import { BlockNumber, NetworkParam } from "../http/schemas";
import { example } from "../http/openapi-examples";
import { NODE, refusals } from "../http/refusals";

const blocks: FastifyPluginAsyncTypebox = async (app) => {
  const { finalityDepth } = app.config;
  // Timestamps of final blocks never change: kept for good. Others are asked again (a reorg may change them).
  const times = new BoundedCache<{ timestamp: number; final: boolean } | null>(100_000);

  app.get(
    "/block/:network/latest",
    {
      schema: {
        tags: ["data"],
        summary: "Latest block number (at most one block behind the node)",
        description:
          "The head of the network as its node reports it, cached for a block time: at most one block behind the node. " +
          "Counts against the data routes' rate limit.",
        params: Type.Object({ network: NetworkParam }),
        response: { 200: BlockNumber, ...refusals(...NODE, "uri_too_long", "too_many_requests") },
      },
    },
    async (request) => app.heads.latest(request.params.network),
  );

  app.get(
    "/block/:network/time/:num",
    {
      schema: {
        tags: ["data"],
        summary: "Timestamp of a block (unix seconds); 404 beyond the head",
        description:
          "The block's timestamp from the node. Final blocks (FINALITY_DEPTH below the head) are cached for good, others " +
          "asked again, since a reorg may change them. 404 `not_found` for a block beyond the head.",
        params: Type.Object({ network: NetworkParam, num: Type.String({ description: "Block number (decimal)", ...example("block") }) }),
        response: {
          200: Type.Integer({ description: "Unix seconds" }),
          ...refusals(...NODE, "invalid_block_number", "not_found", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request) => {
      const { network, num } = request.params;
      if (!/^(0|[1-9]\d{0,15})$/.test(num) || Number(num) > Number.MAX_SAFE_INTEGER) {
        throw badRequest("invalid_block_number", "num must be a decimal block number");
      }
      const number = Number(num);
      const provider = app.networks.provider(network);
      const entry = await times.getOrLoad(
        `${network}:${number}`,
        async () => {
          const [block, head] = await Promise.all([rpc(network, provider.getBlock(number)), app.heads.latest(network)]);
          return block ? { timestamp: block.timestamp, final: head - number >= finalityDepth } : null;
        },
        (value) => value?.final === true,
      );
      if (!entry) throw notFound(`Block ${number} is beyond the head of ${network}`);
      return entry.timestamp;
    },
  );
};

export default blocks;
