import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Address, AddressParam, BlockNumber, NetworkParam } from "../http/schemas";
import { NODE, refusals } from "../http/refusals";
import { badRequest } from "../http/http-error";
import { limitRequests } from "../http/rate-limit";
import { redirectTrailingSlash } from "../http/html-page";
import { servePageAssets } from "../http/page-assets";
import { sendJson } from "../http/wire";
import { parseAddress, parseTokenId } from "../chain/values";
import { CONVERT_ASSETS, convertPage, converterListPage } from "./page";
import { ConverterReads } from "./reads";

/** Most ids one pairs request may ask about. */
export const MAX_PAIR_IDS = 100;

const TokenId = Type.Integer({ minimum: 0, description: "Token id: a JSON number with all its digits (ids above 2^53 are not rounded)" });
const Refusal = Type.Union(
  [Type.Literal("not_paired"), Type.Literal("reverse_conversion_disabled"), Type.Literal("paused"), Type.Literal("out_of_stock")],
  {
    description: "Why the token cannot be converted now (null when it can)",
  },
);
const Params = Type.Object({ network: NetworkParam, converter: AddressParam("NFTConverter contract", "converter") });

const EXAMPLE_CONVERTER = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const StateReply = Type.Object(
  {
    network: Type.String(),
    converter: Address,
    block: BlockNumber,
    alice: Address,
    bob: Address,
    names: Type.Object({ alice: Type.Union([Type.String(), Type.Null()]), bob: Type.Union([Type.String(), Type.Null()]) }),
    paused: Type.Boolean(),
    reverseConversionEnabled: Type.Boolean(),
    stock: Type.Object({ alice: TokenId, bob: TokenId }, { description: "How many Alice and Bob tokens the converter holds" }),
  },
  {
    examples: [
      {
        network: "localhost",
        converter: EXAMPLE_CONVERTER,
        block: 12,
        alice: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        bob: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
        names: { alice: "AliceNFT", bob: "BobNFT" },
        paused: false,
        reverseConversionEnabled: true,
        stock: { alice: 0, bob: 10 },
      },
    ],
  },
);
const PairsReply = Type.Object(
  {
    network: Type.String(),
    converter: Address,
    block: BlockNumber,
    side: Type.Union([Type.Literal("alice"), Type.Literal("bob")], { description: "The side of the ids asked about" }),
    pairs: Type.Array(
      Type.Object({
        id: TokenId,
        counterpart: Type.Union([TokenId, Type.Null()], { description: "The paired id on the other side; null when not paired" }),
        convertible: Type.Boolean({ description: "Whether its holder can convert it now" }),
        reason: Type.Union([Refusal, Type.Null()]),
      }),
    ),
  },
  {
    examples: [
      {
        network: "localhost",
        converter: EXAMPLE_CONVERTER,
        block: 12,
        side: "alice",
        pairs: [
          { id: 1, counterpart: 1, convertible: true, reason: null },
          { id: 11, counterpart: null, convertible: false, reason: "not_paired" },
        ],
      },
    ],
  },
);

/**
 * The converter page and the two read routes it uses (open to any dApp): a converter's state, and per token id its
 * counterpart and whether it converts now. Any address answering the converter's ABI can be read; the page is
 * served only for the converters of CONVERTERS.
 */
const converter: FastifyPluginAsyncTypebox = async (app) => {
  const reads = new ConverterReads(app.calls, app.heads);
  // The two read routes cost the node: one budget per client for both. The page and its files are not counted.
  await limitRequests(app, { max: app.config.rateLimits.converter, global: false, family: "converter" });
  const limited = { rateLimit: {} };

  const target = (params: { network: string; converter: string }) => {
    app.networks.provider(params.network); // 400 unknown_network, 503 network_unavailable
    return { network: params.network, address: parseAddress(params.converter, "converter") };
  };

  app.get(
    "/converter/:network/:converter",
    {
      config: limited,
      schema: {
        tags: ["converter"],
        summary: "A converter's tokens, pause and reverse switches, and stock",
        description:
          "Its Alice and Bob token contracts with their names, whether it is paused and converts back, and how many of each it " +
          "holds: read from the chain at the latest block (cached per block). Any address answering the NFTConverter ABI can be read. " +
          "404 `not_found` when the address does not answer it. Counts against CONVERTER_RATE_LIMIT.",
        params: Params,
        response: { 200: StateReply, ...refusals(...NODE, "invalid_address", "not_found", "uri_too_long", "too_many_requests") },
      },
    },
    async (request, reply) => {
      const { network, address } = target(request.params);
      return sendJson(reply, await reads.state(network, address));
    },
  );

  app.get(
    "/converter/:network/:converter/pairs",
    {
      config: limited,
      schema: {
        tags: ["converter"],
        summary: "Per token id: its counterpart, and whether it converts now (and why not)",
        description:
          `Give aliceIds or bobIds (not both: 400 \`invalid_request\`): up to ${MAX_PAIR_IDS} comma-separated decimal ids. ` +
          "Answers in the order asked, read at the latest block (cached per block); `reason` says why an id does not convert now. " +
          "Whether the caller holds a token is not checked here (see the inventory routes). 404 `not_found` when the address does not " +
          "answer the NFTConverter ABI. Counts against CONVERTER_RATE_LIMIT.",
        params: Params,
        querystring: Type.Object({
          aliceIds: Type.Optional(Type.String({ maxLength: 8_000, description: "Alice ids, e.g. 1,2,3", examples: ["1,2,11"] })),
          // Empty: the example asks about Alice ids, and Swagger UI leaves an empty optional parameter out.
          bobIds: Type.Optional(
            Type.String({
              maxLength: 8_000,
              description: "Bob ids, e.g. 1,2,3 (the example leaves it empty: aliceIds is given)",
              examples: [""],
            }),
          ),
        }),
        response: {
          200: PairsReply,
          ...refusals(...NODE, "invalid_address", "invalid_token_id", "not_found", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request, reply) => {
      const { network, address } = target(request.params);
      const { aliceIds, bobIds } = request.query;
      if ((aliceIds === undefined) === (bobIds === undefined)) throw badRequest("invalid_request", "give aliceIds or bobIds (one of them)");
      const side = aliceIds !== undefined ? "alice" : "bob";
      const ids = parseIdList((aliceIds ?? bobIds)!, `${side}Ids`);
      const { block, pairs } = await reads.pairs(network, address, side, ids);
      return sendJson(reply, { network, converter: address, block, side, pairs });
    },
  );

  // --- the page ---------------------------------------------------------------------------------------------

  const language = (request: { query: unknown; headers: Record<string, unknown> }) => ({
    lang: (request.query as { lang?: unknown }).lang,
    acceptLanguage: request.headers["accept-language"] as string | undefined,
  });
  const pageQuery = Type.Object({ lang: Type.Optional(Type.String({ maxLength: 16 })) });

  app.get("/convert", { schema: { hide: true, querystring: pageQuery } }, async (request, reply) => {
    const offered = app.config.converters;
    if (offered.length === 1)
      return convertPage(reply, {
        ...language(request),
        converter: offered[0],
        networks: app.networks,
        rpcUrls: app.config.rpcUrls,
        localDemo: app.config.localChain,
      });
    return converterListPage(reply, { ...language(request), converters: offered });
  });
  app.get(
    "/convert/:network/:converter",
    {
      schema: {
        hide: true,
        querystring: pageQuery,
        params: Type.Object({ network: Type.String({ maxLength: 64 }), converter: Type.String({ maxLength: 64 }) }),
      },
    },
    async (request, reply) => {
      const { network, converter: address } = request.params;
      const offered = app.config.converters.find((c) => c.network === network && c.address.toLowerCase() === address.toLowerCase());
      if (!offered) return converterListPage(reply, { ...language(request), converters: app.config.converters, missing: true });
      return convertPage(reply, {
        ...language(request),
        converter: offered,
        networks: app.networks,
        rpcUrls: app.config.rpcUrls,
        localDemo: app.config.localChain,
      });
    },
  );
  redirectTrailingSlash(app, "/convert");
  redirectTrailingSlash(app, "/convert/:network/:converter");
  servePageAssets(app, CONVERT_ASSETS);
};

/** Comma-separated decimal uint256 ids, 1 to MAX_PAIR_IDS of them. */
export function parseIdList(text: string, field: string): bigint[] {
  const parts = text.split(",");
  if (text === "" || parts.length > MAX_PAIR_IDS) throw badRequest("invalid_request", `${field} must list 1 to ${MAX_PAIR_IDS} ids`);
  return parts.map((part, i) => parseTokenId(part.trim(), `${field}[${i}]`));
}

export default converter;
