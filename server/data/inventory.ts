import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { checksummer, parseAddress } from "../chain/values";
import { contractsPage, inventoryPage, type InventoryItem } from "../indexer/store/reads";
import { decodeCursor, indexed, markIncomplete, pageHeaders as headers, pageLimit, sendPage } from "./paging";
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
  const metadataOf = async (network: string, contract: string, page: InventoryItem[]) => {
    const tokens = page.map((r) => ({ id: BigInt(r.tokenId), standard: r.balance === null ? ("erc721" as const) : ("erc1155" as const) }));
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
          metadata: Type.Optional(
            Type.Boolean({ description: "Add tokenURI, metadata, image and metadataError to each item (as GET /token gives them)" }),
          ),
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
      const after = decodeCursor(request.query.cursor, 1)?.[0];
      const page = indexed(app.networks, network, await inventoryPage(app.db, { network, owner, contract, after, limit }));
      await markIncomplete(app.db, reply, network, contract);
      // Written directly (the hot path of the service): ids and balances are the database's canonical decimals, so
      // they go out as JSON numbers with all their digits; contract and owner are the same in every item.
      const head = `{"contract":"${checksum(contract)}","id":`;
      const tail = `,"owner":"${checksum(owner)}"`;
      const extra = request.query.metadata ? await metadataOf(network, contract, page.items) : undefined;
      const body = `[${page.items.map((r) => `${head}${r.tokenId}${tail}${r.balance === null ? "" : `,"balance":${r.balance}`}${extra ? `,${extra.get(r.tokenId)}` : ""}}`).join(",")}]`;
      return sendPage(request, reply, page, body, limit);
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
      const after = decodeCursor(request.query.cursor, 1)?.[0];
      const page = indexed(app.networks, network, await contractsPage(app.db, { network, owner, after, limit }));
      return sendPage(request, reply, page, page.items.map(checksum), limit);
    },
  );
};

export default inventory;
