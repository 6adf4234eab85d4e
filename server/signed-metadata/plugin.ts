import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply } from "fastify";
import { Type, type TSchema } from "typebox";
import { parseAddress, parseTokenId } from "../chain/values";
import { badRequest, notFound } from "../http/http-error";
import { limitRequests } from "../http/rate-limit";
import { JSON_TYPE } from "../http/wire";
import { readPost } from "./body";
import { prove } from "./proof";
import type { Target } from "./signed-text";
import { byIssuer, metadataObject, rawRecord, servable } from "./served";
import { chosenStatements, issuerStatement, saveStatement } from "./store";
import { IssuersQuery, namedIssuers, SignedOmittedHeaders } from "./chosen";
import { AddressParam, NetworkParam, TokenIdParam } from "../http/schemas";
import { example } from "../http/openapi-examples";
import { DATABASE_READ, DATABASE_WRITE, JSON_BODY, refusals, type RefusalCode } from "../http/refusals";

const tags = ["metadata"];
const FORMATS = ["json", "raw"] as const;
const Query = Type.Object({
  issuers: IssuersQuery,
  iss: Type.Optional(
    Type.String({ description: "Only this issuer's statement (the metadata object itself in json format)", ...example("issuer") }),
  ),
  format: Type.Optional(
    Type.Union(
      FORMATS.map((f) => Type.Literal(f)),
      { description: "json (default) or raw", examples: ["json"] },
    ),
  ),
  Format: Type.Optional(
    Type.Union(
      FORMATS.map((f) => Type.Literal(f)),
      { description: "Same as format (the predecessor's spelling); when both are given they must agree", examples: ["json"] },
    ),
  ),
});
const NftParams = Type.Object({
  network: NetworkParam,
  contract: AddressParam("Contract", "metadataContract"),
  id: TokenIdParam,
});
const AccountParams = Type.Object({ network: NetworkParam, account: AddressParam("Account", "owner") });
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
const READ_REFUSALS = refusals("unknown_network", "invalid_address", "invalid_token_id", "not_found", "uri_too_long", ...DATABASE_READ);
const POSTED: RefusalCode[] = [
  ...JSON_BODY,
  "unknown_network",
  "invalid_address",
  "invalid_metadata",
  "malformed_signature",
  "invalid_signature",
  "binding_required",
  "replayed",
  "uri_too_long",
  "too_many_requests",
  ...DATABASE_WRITE,
];
const READ =
  "Reading needs no node. With iss, that issuer's statement alone: in json format the metadata object itself (what a " +
  "tokenURI can point at). format=raw gives per issuer the signed record (iss, sig, metadata, text, binding, signer, time, " +
  "posted_at, data). Without iss, at most SIGNED_METADATA_ANSWER_MAX_ISSUERS issuers: those named in issuers first, then the " +
  "most recently posted; X-Signed-Omitted counts the others. 404 `not_found` when nothing is stored.";
const POST =
  "The body is {iss, sig, metadata} (also wrapped as {data: {...}}): metadata the standard Base64 of a UTF-8 JSON object, " +
  "sig iss's EIP-191 signature of the text naming this target (docs/reference/metadata.md; `npm run sign-metadata` makes one). " +
  'Stored with its history; the issuer\'s current statement is replaced. Answers the JSON string "ok". ' +
  "Counts against METADATA_POST_RATE_LIMIT.";
const MetadataDocument = Type.Record(Type.String(), Type.Unknown(), {
  description: "A metadata object as its issuer signed it (key order and the digits of numbers kept)",
});
const SignedRecord = Type.Object(
  {
    iss: Type.String({ description: "The issuer's address, EIP-55" }),
    sig: Type.String({ description: "The issuer's EIP-191 signature of text" }),
    metadata: Type.String({ description: "The standard Base64 of the metadata's UTF-8 JSON, as posted" }),
    text: Type.String({ description: "The exact text the signature is over" }),
    binding: Type.Union([Type.Literal("target"), Type.Literal("none")], {
      description: "target: the text names this NFT or account; none: the predecessor's signature of the Base64 alone",
    }),
    signer: Type.Union([Type.Literal("eoa"), Type.Literal("erc1271"), Type.Literal("erc6492")], {
      description: "How the signature was checked: an EOA's key, a contract wallet (EIP-1271), one not yet deployed (EIP-6492)",
    }),
    time: Type.Integer({ description: "Unix seconds of the post" }),
    posted_at: Type.String({ description: "The post's time, ISO 8601" }),
    data: MetadataDocument,
  },
  { description: "A signed record (format=raw): everything a reader needs to check the statement" },
);
// The answers are written as JSON text (the documents as signed): this schema describes them to the document and the
// SDK's generated types, and the handlers' static type stays open, since they send text.
const Answer = Type.Unsafe<unknown>(
  Type.Union([
    Type.Record(Type.String(), MetadataDocument, { description: "Without iss, format=json: issuer → metadata object" }),
    Type.Record(Type.String(), SignedRecord, { description: "Without iss, format=raw: issuer → signed record" }),
    MetadataDocument,
    SignedRecord,
  ]),
);

/** The schema of a read route: the NFT's and the account's differ only in what they name and their params. */
const readSchema = <Params extends TSchema>({ target, about, params }: { target: string; about: string; params: Params }) => ({
  tags,
  summary: `Current metadata of ${target}, by issuer`,
  description: `The current statement of each issuer about ${about}: {issuer: metadata}. ${READ}`,
  params,
  querystring: Query,
  response: { 200: { ...Answer, headers: SignedOmittedHeaders }, ...READ_REFUSALS },
});

/**
 * Issuer-signed metadata (docs/reference/metadata.md) for NFTs and accounts: posts are verified (EIP-191, EIP-1271 wallets for NFT
 * metadata, EOAs only for accounts), kept with their history, and read back as `{issuer: metadata}` or raw records.
 */
const metadata: FastifyPluginAsyncTypebox = async (app) => {
  const { maxBytes } = app.config.metadata;
  const bodyLimit = Math.min(app.config.bodyLimit, Math.ceil(maxBytes / 3) * 4 + 16 * 1024);
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
        schema: {
          tags,
          summary: "Post an issuer's metadata of an NFT",
          description:
            `${POST} The issuer may be an EOA or a contract wallet (EIP-1271/6492), whose check needs the network's node ` +
            "(503 `network_unavailable` without one).",
          params: NftParams,
          body: { ...PostBody, ...example("nftStatement") },
          response: {
            200: Ok,
            ...refusals(...POSTED, "network_unavailable", "upstream_error", "upstream_timeout", "upstream_rate_limited"),
          },
        },
      },
      (request, reply) => post(reply, nftTarget(request.params), request.body),
    );
    app.get(path, { schema: readSchema({ target: "an NFT", about: "the token", params: NftParams }) }, (request, reply) =>
      read(app, reply, nftTarget(request.params), request.query),
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
        description: `${POST} Only an externally owned account may issue account metadata (403 \`eoa_required\`).`,
        params: AccountParams,
        body: { ...PostBody, ...example("accountStatement") },
        response: { 200: Ok, ...refusals(...POSTED, "eoa_required") },
      },
    },
    (request, reply) => post(reply, accountTarget(request.params), request.body),
  );
  app.get(
    "/metadata/ethereum/:network/:account",
    { schema: readSchema({ target: "an account", about: "the account", params: AccountParams }) },
    (request, reply) => read(app, reply, accountTarget(request.params), request.query),
  );
};

async function read(
  app: FastifyInstance,
  reply: FastifyReply,
  target: Target,
  query: { iss?: string; issuers?: string; format?: "json" | "raw"; Format?: "json" | "raw" },
): Promise<FastifyReply> {
  if (query.format && query.Format && query.format !== query.Format) throw badRequest("invalid_request", "format and Format disagree");
  if (query.iss !== undefined && query.issuers !== undefined) throw badRequest("invalid_request", "give iss or issuers, not both");
  const format = query.format ?? query.Format ?? "json";
  const entry = format === "raw" ? rawRecord : metadataObject;
  if (query.iss !== undefined) {
    const statement = await issuerStatement(app.db, target, parseAddress(query.iss, "iss"));
    const served = servable(statement ? [statement] : []);
    if (served.length === 0) throw notFound();
    return reply.type(JSON_TYPE).send(entry(served[0]));
  }
  const max = app.config.metadata.answerMaxIssuers;
  const named = namedIssuers(query.issuers, max);
  const { statements, omitted } = await chosenStatements(app.db, { target, named, max });
  const served = servable(statements);
  if (served.length === 0) throw notFound();
  if (omitted > 0) reply.header("x-signed-omitted", String(omitted));
  return reply.type(JSON_TYPE).send(byIssuer(served, entry));
}

export default metadata;
