import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getAddress } from "ethers";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { BoundedCache } from "../chain/cache";
import { badRequest, HttpError } from "../http/http-error";
import { JSON_TYPE, parseAddress, sendJson } from "../http/wire";
import { metadataFields } from "../token/token";
import { Address, AddressParam, NetworkParam, Paging } from "./schemas";

const Item = Type.Object({
  contract: Address,
  id: Type.Integer({ description: "Token id: a JSON number with all its digits (ids above 2^53 are not rounded)" }),
  owner: Address,
  balance: Type.Optional(Type.Integer({ description: "ERC-1155 only: how many of this id the owner holds (all digits)" })),
});
const headers = {
  "X-Indexed-Block": { type: "integer", description: "The block the index is complete to" },
  Link: { type: "string", description: '`<...>; rel="next"` when there are more items' },
};

/** Opaque paging cursors: base64url of the last item's sort key. */
const encodeCursor = (key: string[]) => Buffer.from(JSON.stringify(key)).toString("base64url");
function decodeCursor(cursor: string | undefined, parts: number): string[] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(key) && key.length === parts && key.every((k) => typeof k === "string" && /^(0x[0-9a-f]{40}|\d{1,78})$/.test(k))) return key;
  } catch {
    // fall through
  }
  throw badRequest("invalid_cursor", "cursor is not one this service gave");
}

/**
 * Inventory from our own index (DESIGN §8): an owner's tokens, or the contracts it holds tokens of. Each answer
 * says how fresh it is (`X-Indexed-Block`, read in the same statement as the items) and pages with `limit` and
 * `cursor`, the next page in a `Link: <...>; rel="next"` header; the body stays a plain array.
 */
const inventory: FastifyPluginAsyncTypebox = async (app) => {
  // Checksumming hashes (keccak): a page repeats few contracts, so each is checksummed once.
  const checksums = new BoundedCache<string>(100_000);
  const checksum = (address: string) => {
    let done = checksums.get(address);
    if (!done) checksums.set(address, (done = getAddress(address)));
    return done;
  };

  /** `items`: the array, or its JSON text already written. */
  const answer = (request: FastifyRequest, reply: FastifyReply, indexed: number, items: unknown[] | string, next: string[] | undefined, limit: number) => {
    reply.header("x-indexed-block", String(indexed));
    if (next) {
      const url = new URL(request.url, "http://service");
      url.searchParams.set("limit", String(limit));
      url.searchParams.set("cursor", encodeCursor(next));
      reply.header("link", `<${url.pathname}${url.search}>; rel="next"`);
    }
    return typeof items === "string" ? reply.type(JSON_TYPE).send(items) : sendJson(reply, items);
  };

  // No index of a network: it has no node here (as the RPC routes say), or its indexer has not written yet.
  const notIndexed = (network: string) => {
    app.networks.provider(network);
    return new HttpError(503, "not_indexed", `The index of ${network} has not started yet`, { "retry-after": "5" });
  };

  /** The metadata fields of each token of a page, by decimal id (a contract's tokens are all ERC-721 or all ERC-1155). */
  const metadataOf = async (network: string, contract: string, page: Array<{ token_id: string | null; balance: string | null }>) => {
    const tokens = page.map((r) => ({ id: BigInt(r.token_id!), standard: r.balance === null ? ("erc721" as const) : ("erc1155" as const) }));
    const resolved = await app.tokenMetadata.lookup(network, contract, tokens);
    return new Map([...resolved].map(([id, entry]) => [id, metadataFields(entry)]));
  };

  app.get(
    "/inventory/:network/:owner/:assetContract",
    {
      schema: {
        tags: ["data"],
        summary: "Tokens of one contract held by an owner, from the index",
        params: Type.Object({ network: NetworkParam, owner: AddressParam("Owner"), assetContract: AddressParam("ERC-721 contract") }),
        querystring: Type.Object({
          ...Paging.properties,
          metadata: Type.Optional(Type.Boolean({ description: "Add tokenURI, metadata, image and metadataError to each item (as GET /token gives them)" })),
        }),
        response: { 200: { ...Type.Array(Item), headers } },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const owner = parseAddress(request.params.owner, "owner").toLowerCase();
      const contract = parseAddress(request.params.assetContract, "assetContract").toLowerCase();
      const limit = request.query.limit ?? 100;
      const after = decodeCursor(request.query.cursor, 1)?.[0] ?? "-1";
      // ERC-721 owners and ERC-1155 balances in one id order (a contract is one or the other).
      const { rows } = await app.db.query<{ indexed: string; token_id: string | null; balance: string | null }>(
        `SELECT c.block_number AS indexed, o.token_id, o.balance FROM indexer_cursors c
         LEFT JOIN LATERAL (
           (SELECT token_id, NULL::numeric AS balance FROM nft_owners
            WHERE network = c.network AND owner = $2 AND contract = $3 AND token_id > $4 ORDER BY token_id LIMIT $5)
           UNION ALL
           (SELECT token_id, balance FROM nft_balances
            WHERE network = c.network AND owner = $2 AND contract = $3 AND token_id > $4 AND balance > 0 ORDER BY token_id LIMIT $5)
           ORDER BY token_id LIMIT $5
         ) o ON true
         WHERE c.network = $1`,
        [network, owner, contract, after, limit + 1],
      );
      if (rows.length === 0) throw notIndexed(network);
      const found = rows.filter((r) => r.token_id !== null);
      const page = found.slice(0, limit);
      // Written directly (the hot path of the service): ids and balances are the database's canonical decimals, so
      // they go out as JSON numbers with all their digits; contract and owner are the same in every item.
      const head = `{"contract":"${checksum(contract)}","id":`;
      const tail = `,"owner":"${checksum(owner)}"`;
      const extra = request.query.metadata ? await metadataOf(network, contract, page) : undefined;
      const body = `[${page.map((r) => `${head}${r.token_id}${tail}${r.balance === null ? "" : `,"balance":${r.balance}`}${extra ? `,${extra.get(r.token_id!)}` : ""}}`).join(",")}]`;
      const next = found.length > limit ? [page[page.length - 1].token_id!] : undefined;
      return answer(request, reply, Number(rows[0].indexed), body, next, limit);
    },
  );

  app.get(
    "/inventory/:network/:owner",
    {
      schema: {
        tags: ["data"],
        summary: "Contracts an owner holds tokens of, each once, from the index",
        params: Type.Object({ network: NetworkParam, owner: AddressParam("Owner") }),
        querystring: Paging,
        response: { 200: { ...Type.Array(Address), headers } },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const owner = parseAddress(request.params.owner, "owner").toLowerCase();
      const limit = request.query.limit ?? 100;
      const after = decodeCursor(request.query.cursor, 1)?.[0] ?? "";
      const { rows } = await app.db.query<{ indexed: string; contract: string | null }>(
        `SELECT c.block_number AS indexed, o.contract FROM indexer_cursors c
         LEFT JOIN LATERAL (
           SELECT contract FROM (
             (SELECT DISTINCT contract FROM nft_owners WHERE network = c.network AND owner = $2 AND contract > $3 ORDER BY contract LIMIT $4)
             UNION
             (SELECT DISTINCT contract FROM nft_balances WHERE network = c.network AND owner = $2 AND contract > $3 AND balance > 0 ORDER BY contract LIMIT $4)
           ) held ORDER BY contract LIMIT $4
         ) o ON true
         WHERE c.network = $1`,
        [network, owner, after, limit + 1],
      );
      if (rows.length === 0) throw notIndexed(network);
      const contracts = rows.filter((r) => r.contract !== null).map((r) => r.contract!);
      const page = contracts.slice(0, limit);
      return answer(request, reply, Number(rows[0].indexed), page.map(checksum), contracts.length > limit ? [page[page.length - 1]] : undefined, limit);
    },
  );
};

export default inventory;
