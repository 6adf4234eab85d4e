import rateLimit from "@fastify/rate-limit";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { notFound } from "../http/http-error";
import { JSON_TYPE } from "../http/wire";
import { parseAddress, parseTokenId } from "../chain/values";
import { TokenMetadataResolver } from "./resolver";
import { Token, TokenError, TokenParams } from "./schemas";
import { tokenHolding } from "../indexer/store/reads";
import { tokenJson } from "./token";
import { signedMetadataJson } from "../metadata";
import { incompleteHeader, markIncomplete, notIndexed } from "../data/paging";

declare module "fastify" {
  interface FastifyInstance {
    /** Token metadata: read from tokenURIs in the background, cached in the database. */
    tokenMetadata: TokenMetadataResolver;
  }
}

const headers = { "X-Indexed-Block": { type: "integer", description: "The block the index is complete to" }, ...incompleteHeader };

/**
 * `GET /token/:network/:contract/:id`: a token with its holder(s) from the index, its metadata read from its
 * tokenURI (cached) and the issuer-signed metadata of the metadata service; `POST …/refresh` reads it again.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(rateLimit, {
    global: false,
    max: app.config.tokenMetadata.refreshRateLimit,
    timeWindow: 60_000,
    // Per instance, per client address: each refresh costs a chain call and a fetch.
    keyGenerator: (request) => request.ip,
  });

  const answer = async (params: { network: string; contract: string; id: string }, reply: FastifyReply, refresh: boolean) => {
    const { network } = params;
    app.networks.info(network);
    const contract = parseAddress(params.contract, "contract").toLowerCase();
    const id = parseTokenId(params.id);
    // Side by side: a token whose metadata is cached is answered after one round trip to the database.
    const [{ indexed, holding }, cached, signed] = await Promise.all([
      tokenHolding(app.db, network, contract, id),
      app.tokenMetadata.cached(network, contract, [id]),
      signedMetadataJson(app.db, network, contract, id),
    ]);
    if (indexed === null) throw notIndexed(app.networks, network);
    if (!holding) throw notFound(`Token ${id} of ${contract} is not in the index of ${network} (never minted, burned, or not indexed)`);
    const found = await app.tokenMetadata.lookup(network, contract, [{ id, standard: holding.standard }], { refresh, cached });
    const resolved = found.get(id.toString())!;
    reply.header("x-indexed-block", String(indexed));
    await markIncomplete(app.db, reply, network, contract);
    return reply.type(JSON_TYPE).send(tokenJson(contract, id, holding, resolved, signed));
  };

  app.get(
    "/token/:network/:contract/:id",
    {
      schema: {
        tags: ["data"],
        summary: "A token: holder(s), tokenURI, resolved metadata and image, issuer-signed metadata",
        description:
          "Metadata is cached; a read waits at most METADATA_WAIT_MS for it, then answers with what the cache holds " +
          '(metadataError "pending" when nothing yet). 404 when the index has no such token.',
        params: TokenParams,
        response: { 200: { ...Token, headers }, "4xx": TokenError },
      },
    },
    (request, reply) => answer(request.params, reply, false),
  );

  app.post(
    "/token/:network/:contract/:id/refresh",
    {
      config: { rateLimit: {} },
      schema: {
        tags: ["data"],
        summary: "Read a token's metadata again now (rate-limited per client), then answer like GET",
        params: TokenParams,
        response: { 200: { ...Token, headers }, "4xx": TokenError },
      },
    },
    (request, reply) => answer(request.params, reply, true),
  );
};

export default fp(
  async function tokenMetadata(app: FastifyInstance) {
    const resolver = new TokenMetadataResolver(app.config.tokenMetadata, app.db, app.networks, app.log);
    app.decorate("tokenMetadata", resolver);
    app.addHook("preClose", async () => resolver.close());
    await app.register(routes);
  },
  { name: "token-metadata", dependencies: ["db", "chain"] },
);
