import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Type } from "typebox";
import { parseAddress } from "../chain/values";
import { fromIndex } from "../data";
import { notFound } from "../http/http-error";
import { limitRequests } from "../http/rate-limit";
import { INDEX, NODE, refusals } from "../http/refusals";
import { AddressParam, IndexHeaders, NetworkParam } from "../http/schemas";
import { sendJson } from "../http/wire";
import { contractSummaries } from "../indexer";
import { SpamClassifier } from "./classifier";
import { Collections } from "./describe";
import { Collection, COLLECTION_EXAMPLE } from "./schemas";

declare module "fastify" {
  interface FastifyInstance {
    /** Collections described from the index and the chain (the collection route, the contracts of an owner with details). */
    collections: Collections;
  }
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  // Counts against the data routes' budget, as every read of the index and the node does.
  await limitRequests(app, { max: app.config.rateLimits.data, global: true, family: "data" });

  app.get(
    "/collection/:network/:contract",
    {
      schema: {
        tags: ["data"],
        summary: "A collection: standard, name, symbol, supply, holders, indexed blocks, deployment, contract-level metadata",
        description:
          "What the index holds of a contract (its summary, kept as the index writes: one row) beside what the contract answers " +
          "(name(), symbol(), totalSupply() at chainBlock, cached per block), where it was deployed (found once, stored) and its " +
          "ERC-7572 contract-level metadata (contractURI(), through the token metadata fetcher and cache, read again after a " +
          "ContractURIUpdated log). 404 `not_found` for a contract the index holds no transfer of.",
        params: Type.Object({ network: NetworkParam, contract: AddressParam("ERC-721 or ERC-1155 contract", "contract") }),
        response: {
          200: { ...Collection, headers: IndexHeaders, examples: [COLLECTION_EXAMPLE] },
          ...refusals(...INDEX, ...NODE, "invalid_address", "not_found", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const contract = parseAddress(request.params.contract, "contract").toLowerCase();
      const { indexed, summaries } = await fromIndex(app.indexReads, app.networks, reply, network, undefined, (db) =>
        contractSummaries(db, network, [contract]),
      );
      const summary = summaries.get(contract);
      if (!summary) throw notFound(`The index of ${network} holds no transfer of ${contract}`);
      reply.header("x-indexed-block", String(indexed));
      if (summary.incomplete) reply.header("x-index-complete", "false");
      const [collection] = await app.collections.describe(network, [summary], indexed, true);
      return sendJson(reply, collection);
    },
  );
};

/** Collections (docs/reference/collections.md): `app.collections` and GET /collection/:network/:contract. */
export default fp(
  async function collections(app: FastifyInstance) {
    const { ipfsGateway: ipfs, arweaveGateway: arweave } = app.config.tokenMetadata;
    const { contracts: spam = [], notContracts: notSpam = [], intervalMs } = app.config.spam;
    const keys = (list: Array<{ network: string; address: string }>) => new Set(list.map((c) => `${c.network}:${c.address.toLowerCase()}`));
    const deps = {
      db: app.db,
      networks: app.networks,
      heads: app.heads,
      calls: app.calls,
      tokenMetadata: app.tokenMetadata,
      gateways: { ipfs, arweave },
    };
    app.decorate("collections", new Collections({ ...deps, clock: app.clock, overrides: { spam: keys(spam), notSpam: keys(notSpam) } }));
    const classifier = new SpamClassifier(deps, intervalMs, (error) =>
      app.log.warn({ err: error }, "collections: spam classification failed"),
    );
    app.addHook("onReady", async () => classifier.start());
    app.addHook("preClose", () => classifier.stop());
    await app.register(routes);
  },
  { name: "collections", dependencies: ["db", "chain", "token-metadata"] },
);
