import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply } from "fastify";
import { Type } from "typebox";
import { parseAddress, parseTokenId } from "../chain/values";
import { badRequest, notFound } from "../http/http-error";
import { limitRequests } from "../http/rate-limit";
import { JSON_TYPE } from "../http/wire";
import { readPost } from "./body";
import { prove } from "./proof";
import type { Target } from "./signed-text";
import { byIssuer, metadataObject, rawRecord, servable } from "./served";
import { currentStatements, saveStatement } from "./store";

const FORMATS = ["json", "raw"] as const;
const Query = Type.Object({
  iss: Type.Optional(Type.String({ description: "Only this issuer's statement (the metadata object itself in json format)" })),
  format: Type.Optional(
    Type.Union(
      FORMATS.map((f) => Type.Literal(f)),
      { description: "json (default) or raw" },
    ),
  ),
  Format: Type.Optional(
    Type.Union(
      FORMATS.map((f) => Type.Literal(f)),
      { description: "Same as format (the predecessor's spelling)" },
    ),
  ),
});
const NftParams = Type.Object({ network: Type.String(), contract: Type.String(), id: Type.String({ description: "Decimal uint256" }) });
const AccountParams = Type.Object({ network: Type.String(), account: Type.String() });
const PostBody = Type.Object(
  {
    iss: Type.Optional(Type.Unknown({ description: "Issuer address" })),
    sig: Type.Optional(Type.Unknown({ description: "EIP-191 signature by iss of the signed text" })),
    metadata: Type.Optional(Type.Unknown({ description: "Base64 of the UTF-8 JSON object" })),
    data: Type.Optional(Type.Unknown({ description: "The same three fields, wrapped" })),
  },
  { description: 'Also accepted wrapped as {"data": {...}}' },
);
const Ok = Type.Literal("ok");
const Anything = Type.Unknown({ description: "Issuer → metadata object (json) or signed record (raw)" });

/**
 * Issuer-signed metadata (docs/metadata.md) for NFTs and accounts: posts are verified (EIP-191, EIP-1271 wallets for NFT
 * metadata, EOAs only for accounts), kept with their history, and read back as `{issuer: metadata}` or raw records.
 */
const metadata: FastifyPluginAsyncTypebox = async (app) => {
  const { maxBytes } = app.config.metadata;
  const bodyLimit = Math.min(app.config.bodyLimit, Math.ceil(maxBytes / 3) * 4 + 16 * 1024);
  const tags = ["metadata"];
  // Each post is a signature check (an eth_call for a contract wallet) and a stored version that is kept: counted.
  await limitRequests(app, { max: app.config.rateLimits.metadataPosts, global: false, family: "metadata-post" });
  const limited = { rateLimit: {} };

  const nftTarget = (params: { network: string; contract: string; id: string }): Target => ({
    kind: "nft",
    network: app.networks.info(params.network).name,
    contract: parseAddress(params.contract, "contract").toLowerCase(),
    tokenId: parseTokenId(params.id),
  });
  const accountTarget = (params: { network: string; account: string }): Target => ({
    kind: "account",
    network: app.networks.info(params.network).name,
    account: parseAddress(params.account, "account").toLowerCase(),
  });

  const post = async (reply: FastifyReply, target: Target, body: unknown) => {
    const statement = readPost(body, maxBytes);
    const proof = await prove(app.networks, app.config.metadata, target, statement);
    // readPost has held the JSON to the rules it is served by.
    const checked = { issuer: statement.iss, metadataB64: statement.metadata, signature: statement.sig, jsonChecked: true };
    await saveStatement(app.db, target, { ...checked, ...proof });
    // The JSON string "ok" (a returned string would go out as bare text).
    return reply.type(JSON_TYPE).send('"ok"');
  };

  for (const path of ["/metadata/:network/:contract/:id", "/metadata/ethereum/:network/:contract/:id"]) {
    app.post(
      path,
      {
        bodyLimit,
        config: limited,
        schema: { tags, summary: "Post an issuer's metadata of an NFT", params: NftParams, body: PostBody, response: { 200: Ok } },
      },
      (request, reply) => post(reply, nftTarget(request.params), request.body),
    );
    app.get(
      path,
      {
        schema: {
          tags,
          summary: "Current metadata of an NFT, by issuer",
          params: NftParams,
          querystring: Query,
          response: { 200: Anything },
        },
      },
      (request, reply) => read(app, reply, nftTarget(request.params), request.query),
    );
  }
  app.post(
    "/metadata/ethereum/:network/:account",
    {
      bodyLimit,
      config: limited,
      schema: {
        tags,
        summary: "Post an issuer's metadata of an account (issuer must be an EOA)",
        params: AccountParams,
        body: PostBody,
        response: { 200: Ok },
      },
    },
    (request, reply) => post(reply, accountTarget(request.params), request.body),
  );
  app.get(
    "/metadata/ethereum/:network/:account",
    {
      schema: {
        tags,
        summary: "Current metadata of an account, by issuer",
        params: AccountParams,
        querystring: Query,
        response: { 200: Anything },
      },
    },
    (request, reply) => read(app, reply, accountTarget(request.params), request.query),
  );
};

async function read(
  app: FastifyInstance,
  reply: FastifyReply,
  target: Target,
  query: { iss?: string; format?: "json" | "raw"; Format?: "json" | "raw" },
): Promise<FastifyReply> {
  if (query.format && query.Format && query.format !== query.Format) throw badRequest("invalid_request", "format and Format disagree");
  const format = query.format ?? query.Format ?? "json";
  const issuer = query.iss === undefined ? undefined : parseAddress(query.iss, "iss");
  const served = servable(await currentStatements(app.db, target, issuer));
  if (served.length === 0) throw notFound();
  const entry = format === "raw" ? rawRecord : metadataObject;
  return reply.type(JSON_TYPE).send(issuer ? entry(served[0]) : byIssuer(served, entry));
}

export default metadata;
