import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { notFound } from "../http/http-error";
import { limitRequests } from "../http/rate-limit";
import { JSON_TYPE } from "../http/wire";
import { parseAddress, parseTokenId } from "../chain/values";
import { TokenMetadataResolver } from "./resolver";
import { MetadataSweeper } from "./sweep";
import { Type } from "typebox";
import { Token, TokenParams, TokenRefusals } from "./schemas";
import { tokenHolding } from "../indexer";
import { signedJson, tokenJson } from "./token";
import { IssuersQuery, namedIssuers, SignedOmittedHeaders, signedMetadataJson } from "../signed-metadata";
import { fromIndex } from "../data";
import { IndexHeaders } from "../http/schemas";

declare module "fastify" {
  interface FastifyInstance {
    /** Token metadata: read from tokenURIs in the background, cached in the database. */
    tokenMetadata: TokenMetadataResolver;
  }
}

/** What both routes take and answer: a refresh answers as GET does. */
const TokenExchange = {
  params: TokenParams,
  querystring: Type.Object({ issuers: IssuersQuery }),
  response: { 200: { ...Token, headers: { ...IndexHeaders, ...SignedOmittedHeaders } }, ...TokenRefusals },
};

/**
 * `GET /token/:network/:contract/:id`: a token with its holder(s) from the index, its metadata read from its
 * tokenURI (cached) and the issuer-signed metadata of the metadata service; `POST …/refresh` reads it again.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  // Both routes count against the data routes' budget; a refresh also against its own (a chain call and a fetch each).
  await limitRequests(app, { max: app.config.rateLimits.data, global: true, family: "data" });
  await limitRequests(app, { max: app.config.tokenMetadata.refreshRateLimit, global: false });

  const answer = async ({
    params,
    query,
    reply,
    refresh,
  }: {
    params: { network: string; contract: string; id: string };
    query: { issuers?: string };
    reply: FastifyReply;
    refresh: boolean;
  }) => {
    const { network } = params;
    app.networks.info(network);
    const contract = parseAddress(params.contract, "contract").toLowerCase();
    const id = parseTokenId(params.id);
    const max = app.config.metadata.answerMaxIssuers;
    const named = namedIssuers(query.issuers, max);
    // Side by side: the holding and the statements; then the metadata (the cache, and a read of what it lacks). The
    // holding from the index, which a read replica may answer; the metadata cache and the statements from the primary:
    // this service writes them, and a client may read right after writing.
    const [{ indexed, holding }, signed] = await Promise.all([
      fromIndex({
        app,
        reply,
        network,
        read: async (db) => {
          const read = await tokenHolding(db, network, contract, id);
          return read.indexed === null ? undefined : { ...read, indexed: read.indexed };
        },
      }),
      signedMetadataJson(app.db, { network, contract, id, named, max }),
    ]);
    if (!holding) throw notFound(`Token ${id} of ${contract} is not in the index of ${network} (never minted, burned, or not indexed)`);
    reply.header("x-indexed-block", String(indexed));
    if (signed.omitted > 0) reply.header("x-signed-omitted", String(signed.omitted));
    await app.tokenMetadata.answer(
      network,
      contract,
      [{ id, standard: holding.standard }],
      ({ fields }) =>
        void reply
          .type(JSON_TYPE)
          .send(tokenJson({ contract, id, holding, fields: fields.get(id.toString())!, signed: signedJson(signed, max) })),
      { refresh },
    );
    return reply;
  };

  app.get(
    "/token/:network/:contract/:id",
    {
      schema: {
        tags: ["data"],
        summary: "A token: holder(s), tokenURI, resolved metadata and image, issuer-signed metadata",
        description:
          "The holder (ERC-721) or holders (ERC-1155) from the index, the tokenURI and the metadata document it names with an " +
          "image URL a browser can load, and the issuer-signed metadata of the metadata service. Metadata is cached (every " +
          "instance shares it); a read waits at most METADATA_FETCH_WAIT_MS for it, then answers with what the cache holds " +
          '(metadataError "pending" when nothing yet). 404 `not_found` when the index has no such token (never minted, burned, ' +
          "or not indexed). Counts against the data routes' rate limit.",
        ...TokenExchange,
      },
    },
    (request, reply) => answer({ params: request.params, query: request.query, reply, refresh: false }),
  );

  app.post(
    "/token/:network/:contract/:id/refresh",
    {
      config: { rateLimit: {} },
      schema: {
        tags: ["data"],
        summary: "Read a token's metadata again now (rate-limited per client), then answer like GET",
        description:
          "Reads the tokenURI and its document again whatever the cache holds, then answers as GET /token does. No body. " +
          "Counts against the data routes' rate limit and METADATA_FETCH_REFRESH_RATE_LIMIT per minute and client (429 `too_many_requests`).",
        ...TokenExchange,
      },
    },
    (request, reply) => answer({ params: request.params, query: request.query, reply, refresh: true }),
  );
};

export default fp(
  async function tokenMetadata(app: FastifyInstance) {
    const resolver = new TokenMetadataResolver(app.config.tokenMetadata, app.db, app.networks, app.log, app.clock);
    app.decorate("tokenMetadata", resolver);
    const { sweepBatch, sweepIntervalMs, ttlMs, errorTtlMs } = app.config.tokenMetadata;
    const sweeper =
      sweepBatch > 0
        ? new MetadataSweeper(
            app.db,
            resolver,
            {
              batch: sweepBatch,
              intervalMs: sweepIntervalMs,
              retentionMs: Math.max(ttlMs, errorTtlMs),
              backoffMs: errorTtlMs,
              clock: app.clock,
            },
            {
              swept: (outcome) => app.metrics?.metadataSweep(outcome),
              failed: (error) => app.log.warn({ err: error }, "token metadata: sweep of stale documents failed"),
            },
          )
        : undefined;
    app.addHook("onReady", async () => sweeper?.start());
    app.addHook("preClose", async () => {
      await sweeper?.stop();
      resolver.close();
    });
    await app.register(routes);
  },
  { name: "token-metadata", dependencies: ["db", "chain"] },
);
