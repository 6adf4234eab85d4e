import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getAddress, hashMessage, isHexString } from "ethers";
import type { FastifyInstance, FastifyReply } from "fastify";
import { Type } from "typebox";
import { rpc } from "../chain/networks";
import { rpcEnvName } from "../chain/registry";
import { ERC6492_MAGIC, verifyEoa, verifySignature, type VerifyResult } from "../chain/signatures";
import { badRequest, HttpError, notFound } from "../http/http-error";
import { JSON_TYPE, parseAddress, parseTokenId } from "../http/wire";
import { readPost, type MetadataPost } from "./body";
import { boundText, unboundText, type Target } from "./signed-text";
import { currentStatements, saveStatement, type Statement } from "./store";

const FORMATS = ["json", "raw"] as const;
const Query = Type.Object({
  iss: Type.Optional(Type.String({ description: "Only this issuer's statement (the metadata object itself in json format)" })),
  format: Type.Optional(Type.Union(FORMATS.map((f) => Type.Literal(f)), { description: "json (default) or raw" })),
  Format: Type.Optional(Type.Union(FORMATS.map((f) => Type.Literal(f)), { description: "Same as format (the predecessor's spelling)" })),
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

interface Proof {
  binding: "target" | "none";
  signerKind: string;
  signedText: string;
}

/**
 * Issuer-signed metadata (README, "Metadata service") for NFTs and accounts: posts are verified (EIP-191, EIP-1271 wallets for NFT
 * metadata, EOAs only for accounts), kept with their history, and read back as `{issuer: metadata}` or raw records.
 */
const metadata: FastifyPluginAsyncTypebox = async (app) => {
  const { maxBytes } = app.config.metadata;
  const bodyLimit = Math.min(app.config.bodyLimit, Math.ceil(maxBytes / 3) * 4 + 16 * 1024);
  const tags = ["metadata"];

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
    const proof = await prove(app, target, statement);
    await saveStatement(app.db, target, { issuer: statement.iss, metadataB64: statement.metadata, signature: statement.sig, ...proof });
    // The JSON string "ok" (a returned string would go out as bare text).
    return reply.type(JSON_TYPE).send('"ok"');
  };

  for (const path of ["/metadata/:network/:contract/:id", "/metadata/ethereum/:network/:contract/:id"]) {
    app.post(path, { bodyLimit, schema: { tags, summary: "Post an issuer's metadata of an NFT", params: NftParams, body: PostBody, response: { 200: Ok } } }, (request, reply) =>
      post(reply, nftTarget(request.params), request.body),
    );
    app.get(path, { schema: { tags, summary: "Current metadata of an NFT, by issuer", params: NftParams, querystring: Query, response: { 200: Anything } } }, (request, reply) =>
      read(app, reply, nftTarget(request.params), request.query),
    );
  }
  app.post(
    "/metadata/ethereum/:network/:account",
    { bodyLimit, schema: { tags, summary: "Post an issuer's metadata of an account (issuer must be an EOA)", params: AccountParams, body: PostBody, response: { 200: Ok } } },
    (request, reply) => post(reply, accountTarget(request.params), request.body),
  );
  app.get(
    "/metadata/ethereum/:network/:account",
    { schema: { tags, summary: "Current metadata of an account, by issuer", params: AccountParams, querystring: Query, response: { 200: Anything } } },
    (request, reply) => read(app, reply, accountTarget(request.params), request.query),
  );
};

/**
 * Verifies `sig` over the text bound to the target, or (unless METADATA_REQUIRE_BINDING) over the Base64 alone as
 * the predecessor's client signs it. Account metadata must come from an EOA.
 *
 * An EOA's signature is checked first, without the network's node: 65 bytes that recover to `iss` prove it whatever
 * is deployed there (no one holds the key of a contract's address), so EOA issuers post on every network, with or
 * without its RPC URL. Only a signature that is not one (a contract wallet's, EIP-1271 or EIP-6492) needs the node.
 */
async function prove(app: FastifyInstance, target: Target, post: MetadataPost): Promise<Proof> {
  const bound = boundText(target, post.metadata);
  const unbound = unboundText(post.metadata);
  const accept = (binding: Proof["binding"], signerKind: string, signedText: string): Proof => {
    if (binding === "none" && app.config.metadata.requireBinding) {
      throw new HttpError(401, "binding_required", "sig covers the metadata alone; this service requires the signed text to name the target (see the README)");
    }
    return { binding, signerKind, signedText };
  };
  if (!isHexString(post.sig) || post.sig.length <= 2 || post.sig.length % 2 !== 0) throw badRequest("malformed_signature", "sig: signature must be 0x-prefixed hex bytes");
  if (isHexString(post.sig, 65)) {
    if (verifyEoa(post.iss, hashMessage(bound), post.sig).ok) return accept("target", "eoa", bound);
    if (verifyEoa(post.iss, hashMessage(unbound), post.sig).ok) return accept("none", "eoa", unbound);
  }
  if (target.kind === "account" && post.sig.toLowerCase().endsWith(ERC6492_MAGIC.slice(2))) throw new HttpError(403, "eoa_required", "Account metadata must be issued by an externally owned account, not a contract wallet");
  const reachable = app.networks.configured().includes(target.network);
  if (target.kind === "account" && !reachable) {
    // Only an EOA may issue account metadata and this is not an EOA's signature of it: no node can change that.
    const result = verifyEoa(post.iss, hashMessage(bound), post.sig);
    if (!result.ok && result.reason === "malformed_signature") throw badRequest("malformed_signature", `sig: ${result.message}`);
    throw new HttpError(401, "invalid_signature", "sig is not a signature by iss of this target's text");
  }
  if (!reachable) {
    throw new HttpError(503, "network_unavailable", `sig is not an EOA's signature by iss, and a contract wallet's needs the ${target.network} node, which is not configured (${rpcEnvName(target.network)})`);
  }
  const provider = app.networks.provider(target.network);
  if (target.kind === "account") {
    const code = await rpc(target.network, provider.getCode(post.iss));
    // An EIP-7702 account (delegation prefix) is still an EOA: its own key signs.
    if (code !== "0x" && !code.startsWith("0xef0100")) throw new HttpError(403, "eoa_required", "Account metadata must be issued by an externally owned account, not a contract wallet");
  }
  const check = (text: string): Promise<VerifyResult> | VerifyResult =>
    target.kind === "account"
      ? verifyEoa(post.iss, hashMessage(text), post.sig)
      : verifySignature({ provider, network: target.network, address: post.iss, message: text, signature: post.sig });

  const result = await check(bound);
  if (result.ok) return accept("target", result.kind, bound);
  if (result.reason === "malformed_signature") throw badRequest("malformed_signature", `sig: ${result.message}`);
  const alone = await check(unbound);
  if (alone.ok) return accept("none", alone.kind, unbound);
  throw new HttpError(401, "invalid_signature", "sig is not a signature by iss of this target's text");
}

async function read(
  app: FastifyInstance,
  reply: FastifyReply,
  target: Target,
  query: { iss?: string; format?: "json" | "raw"; Format?: "json" | "raw" },
): Promise<FastifyReply> {
  if (query.format && query.Format && query.format !== query.Format) throw badRequest("invalid_request", "format and Format disagree");
  const format = query.format ?? query.Format ?? "json";
  const issuer = query.iss === undefined ? undefined : parseAddress(query.iss, "iss");
  const statements = await currentStatements(app.db, target, issuer);
  if (statements.length === 0) throw notFound();
  const entry = format === "raw" ? rawRecord : (s: Statement) => decoded(s.metadataB64);
  // The issuer's JSON is embedded as it was signed (key order, number digits): never parsed and re-serialized.
  const body = issuer ? entry(statements[0]) : `{${statements.map((s) => `${JSON.stringify(getAddress(s.issuer))}:${entry(s)}`).join(",")}}`;
  return reply.type(JSON_TYPE).send(body);
}

function decoded(metadataB64: string): string {
  return Buffer.from(metadataB64, "base64").toString("utf8");
}

/** Everything a reader needs to check the statement: the signed text can be verified against `sig` and `iss`. */
function rawRecord(s: Statement): string {
  const record = JSON.stringify({
    iss: getAddress(s.issuer),
    sig: s.signature,
    metadata: s.metadataB64,
    text: s.signedText,
    binding: s.binding,
    signer: s.signerKind,
    time: Math.floor(s.postedAt.getTime() / 1000),
    posted_at: s.postedAt.toISOString(),
  });
  return `${record.slice(0, -1)},"data":${decoded(s.metadataB64)}}`;
}

export default metadata;
