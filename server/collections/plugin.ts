import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { Type } from "typebox";
import { parseAddress } from "../chain/values";
import { fromIndex } from "../data";
import { notFound } from "../http/http-error";
import { limitRequests } from "../http/rate-limit";
import { INDEX, NODE, refusals } from "../http/refusals";
import { AddressParam, IndexHeaders, NetworkParam } from "../http/schemas";
import { JSON_TYPE } from "../http/wire";
import { contractSummaries } from "../indexer";
import { SpamClassifier } from "./classifier";
import { CollectionRefreshes } from "./refresh";
import { Collections } from "./describe";
import { Collection, COLLECTION_EXAMPLE } from "./schemas";
import { collectionJson } from "./wire";

declare module "fastify" {
  interface FastifyInstance {
    /** Collections described from the index and the chain (the collection route, the contracts of an owner with details). */
    collections: Collections;
    /** Contract-wide metadata refreshes under way or done on this instance. */
    collectionRefreshes: CollectionRefreshes;
  }
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  // Counts against the data routes' budget, as every read of the index and the node does.
  await limitRequests(app, { max: app.config.rateLimits.data, global: true, family: "data" });
  // A refresh also against the token refreshes' budget: it reads many tokens again.
  await limitRequests(app, { max: app.config.tokenMetadata.refreshRateLimit, global: false });

  const Params = Type.Object({ network: NetworkParam, contract: AddressParam("ERC-721 or ERC-1155 contract", "contract") });
  const Status = Type.Object(
    {
      state: Type.Union([Type.Literal("none"), Type.Literal("running"), Type.Literal("done"), Type.Literal("failed")], {
        description: "none: this instance has not refreshed the collection (or forgot it)",
      }),
      startedAt: Type.Union([Type.String(), Type.Null()], { description: "ISO 8601; null for none" }),
      finishedAt: Type.Union([Type.String(), Type.Null()], { description: "ISO 8601; null while it runs" }),
      read: Type.Integer({ minimum: 0, description: "Tokens read again so far" }),
      stored: Type.Integer({ minimum: 0, description: "Of those, reads that stored an answer (a document, or why there is none)" }),
    },
    { description: "A contract-wide metadata refresh on this instance (docs/reference/collections.md#refreshing-a-collections-metadata)" },
  );
  /** The summary of a contract the index holds, or 404. */
  const indexedSummary = async (params: { network: string; contract: string }, reply: FastifyReply) => {
    const { network } = params;
    app.networks.info(network);
    const contract = parseAddress(params.contract, "contract").toLowerCase();
    const { indexed, summaries } = await fromIndex({ app, reply, network, read: (db) => contractSummaries(db, network, [contract]) });
    const summary = summaries.get(contract);
    if (!summary) throw notFound(`The index of ${network} holds no transfer of ${contract}`);
    return { network, contract, indexed, summary };
  };

  app.post(
    "/collection/:network/:contract/refresh",
    {
      config: { rateLimit: {} },
      schema: {
        tags: ["data"],
        summary: "Read every indexed token's metadata of a collection again, in the background",
        description:
          "Starts reading the tokenURI and document of every token the index holds of the contract again, through the token metadata " +
          "queue and its limits per address and per contract, and answers 202 with its status; a refresh asked while one runs joins it " +
          "(`joined: true`). 429 `refresh_cooldown` within COLLECTION_REFRESH_COOLDOWN_MS of the last one's end on this instance; " +
          "counts against METADATA_FETCH_REFRESH_RATE_LIMIT. No body.",
        params: Params,
        response: {
          202: Type.Object({ ...Status.properties, joined: Type.Boolean({ description: "true: it joined the refresh under way" }) }),
          ...refusals(...INDEX, "invalid_address", "not_found", "refresh_cooldown", "refresh_busy", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request, reply) => {
      const { network, contract, summary } = await indexedSummary(request.params, reply);
      const { status, joined } = app.collectionRefreshes.start(network, contract, summary.standard);
      return reply.code(202).send({ ...status, joined });
    },
  );

  app.get(
    "/collection/:network/:contract/refresh",
    {
      schema: {
        tags: ["data"],
        summary: "The status of a collection's metadata refresh on this instance",
        description: 'The last contract-wide refresh this instance ran or runs of the contract; `state: "none"` when there is none.',
        params: Params,
        response: { 200: Status, ...refusals("unknown_network", "invalid_address", "uri_too_long", "too_many_requests") },
      },
    },
    async (request) => {
      const { network } = request.params;
      app.networks.info(network);
      const contract = parseAddress(request.params.contract, "contract").toLowerCase();
      return (
        app.collectionRefreshes.status(network, contract) ?? {
          state: "none" as const,
          startedAt: null,
          finishedAt: null,
          read: 0,
          stored: 0,
        }
      );
    },
  );

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
        params: Params,
        response: {
          200: { ...Collection, headers: IndexHeaders, examples: [COLLECTION_EXAMPLE] },
          ...refusals(...INDEX, ...NODE, "invalid_address", "not_found", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request, reply) => {
      const { network, indexed, summary } = await indexedSummary(request.params, reply);
      reply.header("x-indexed-block", String(indexed));
      if (summary.incomplete) reply.header("x-index-complete", "false");
      const collection = await app.collections.describe(network, summary, indexed);
      // Its JSON is written directly (collectionJson), not by the route's serializer.
      return (reply as FastifyReply).type(JSON_TYPE).send(collectionJson(collection));
    },
  );
};

/** Collections (docs/reference/collections.md): `app.collections` and GET /collection/:network/:contract. */
export default fp(
  async function collections(app: FastifyInstance) {
    const { ipfsGateway: ipfs, arweaveGateway: arweave } = app.config.tokenMetadata;
    const { contracts: spam = [], notContracts: notSpam = [], intervalMs, classifier: classifying } = app.config.spam;
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
    app.decorate(
      "collectionRefreshes",
      new CollectionRefreshes(
        { db: app.db, tokenMetadata: app.tokenMetadata, clock: app.clock },
        { cooldownMs: app.config.collectionRefresh.cooldownMs, maxRunning: 4, batch: app.config.tokenMetadata.concurrency },
      ),
    );
    if (classifying) {
      const classifier = new SpamClassifier(deps, intervalMs, (error) =>
        app.log.warn({ err: error }, "collections: spam classification failed"),
      );
      app.addHook("onReady", async () => classifier.start());
      app.addHook("preClose", () => classifier.stop());
    }
    await app.register(routes);
  },
  { name: "collections", dependencies: ["db", "chain", "token-metadata"] },
);
