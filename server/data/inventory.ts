import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { parseAddress } from "../http/wire";
import { CONTRACTS_SQL, INVENTORY_SQL } from "./queries";
import { checksummer, decodeCursor, notIndexed, pageHeaders as headers, pageLimit, sendPage } from "./paging";
import { metadataFields } from "../token/token";
import { Address, AddressParam, NetworkParam, Paging } from "./schemas";

const Item = Type.Object({
  contract: Address,
  id: Type.Integer({ description: "Token id: a JSON number with all its digits (ids above 2^53 are not rounded)" }),
  owner: Address,
  balance: Type.Optional(Type.Integer({ description: "ERC-1155 only: how many of this id the owner holds (all digits)" })),
});

/**
 * Inventory from our own index (README, "Data service"): an owner's tokens, or the contracts it holds tokens of. Each answer
 * says how fresh it is (`X-Indexed-Block`, read in the same statement as the items) and pages with `limit` and
 * `cursor`, the next page in a `Link: <...>; rel="next"` header; the body stays a plain array.
 */
const inventory: FastifyPluginAsyncTypebox = async (app) => {
  const checksum = checksummer();

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
      const limit = pageLimit(request.query.limit);
      const after = decodeCursor(request.query.cursor, 1)?.[0] ?? "-1";
      // ERC-721 owners and ERC-1155 balances in one id order (a contract is one or the other).
      const { rows } = await app.db.query<{ indexed: string; token_id: string | null; balance: string | null }>(
        INVENTORY_SQL,
        [network, owner, contract, after, limit + 1],
      );
      if (rows.length === 0) throw notIndexed(app.networks, network);
      const found = rows.filter((r) => r.token_id !== null);
      const page = found.slice(0, limit);
      // Written directly (the hot path of the service): ids and balances are the database's canonical decimals, so
      // they go out as JSON numbers with all their digits; contract and owner are the same in every item.
      const head = `{"contract":"${checksum(contract)}","id":`;
      const tail = `,"owner":"${checksum(owner)}"`;
      const extra = request.query.metadata ? await metadataOf(network, contract, page) : undefined;
      const body = `[${page.map((r) => `${head}${r.token_id}${tail}${r.balance === null ? "" : `,"balance":${r.balance}`}${extra ? `,${extra.get(r.token_id!)}` : ""}}`).join(",")}]`;
      const next = found.length > limit ? [page[page.length - 1].token_id!] : undefined;
      return sendPage(request, reply, Number(rows[0].indexed), body, next, limit);
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
      const limit = pageLimit(request.query.limit);
      const after = decodeCursor(request.query.cursor, 1)?.[0] ?? "";
      const { rows } = await app.db.query<{ indexed: string; contract: string | null }>(
        CONTRACTS_SQL,
        [network, owner, after, limit + 1],
      );
      if (rows.length === 0) throw notIndexed(app.networks, network);
      const contracts = rows.filter((r) => r.contract !== null).map((r) => r.contract!);
      const page = contracts.slice(0, limit);
      return sendPage(request, reply, Number(rows[0].indexed), page.map(checksum), contracts.length > limit ? [page[page.length - 1]] : undefined, limit);
    },
  );
};

export default inventory;
