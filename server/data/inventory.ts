import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { checksummer, parseAddress } from "../chain/values";
import { contractsPage, inventoryPage } from "../indexer";
import { decodeKeyCursor, fromIndex, pageHeaders as headers, pageLimit, sendPage } from "./paging";
import { MetadataOmitted } from "../token-metadata";
import { Address, AddressParam, NetworkParam } from "../http/schemas";
import { AddressPaging, IdPaging, PAGED_FROM_INDEX } from "./schemas";
import { INDEX, NODE, refusals } from "../http/refusals";
import { Collection, SpamQuery } from "../collections";

const Item = Type.Object({
  contract: Address,
  id: Type.Integer({ description: "Token id: a JSON number with all its digits (ids above 2^53 are not rounded)" }),
  owner: Address,
  balance: Type.Optional(Type.Integer({ description: "ERC-1155 only: how many of this id the owner holds (all digits)" })),
  metadataOmitted: MetadataOmitted,
});

const metadataHeaders = {
  ...headers,
  "X-Metadata-Omitted": {
    type: "integer",
    description: "With metadata=true: how many items carry metadataOmitted (their metadata did not fit in METADATA_ANSWERS_MAX_BYTES)",
  },
};

/**
 * Inventory from our own index (docs/reference/data-api.md): an owner's tokens, or the contracts it holds tokens of. Each answer
 * says how fresh it is (`X-Indexed-Block`, read in the same statement as the items) and pages with `limit` and
 * `cursor`, the next page in a `Link: <...>; rel="next"` header; the body stays a plain array.
 */
const inventory: FastifyPluginAsyncTypebox = async (app) => {
  const checksum = checksummer();

  app.get(
    "/inventory/:network/:owner/:assetContract",
    {
      schema: {
        tags: ["data"],
        summary: "Tokens of one contract held by an owner, from the index",
        description:
          `The owner's tokens of one contract in id order: ERC-721 items, or ERC-1155 ones with their balance. ${PAGED_FROM_INDEX} ` +
          "With metadata=true each item also carries its token metadata (as GET /token gives it), read through the shared cache; " +
          "past METADATA_ANSWERS_CONCURRENCY such answers at once, 503 `metadata_busy`.",
        params: Type.Object({
          network: NetworkParam,
          owner: AddressParam("Owner", "owner"),
          assetContract: AddressParam("ERC-721 or ERC-1155 contract", "metadataContract"),
        }),
        querystring: Type.Object({
          ...IdPaging.properties,
          spam: SpamQuery,
          metadata: Type.Optional(
            Type.Boolean({
              description:
                "Add tokenURI, metadata, image, metadataError and metadataUpdatedAt to each item (as GET /token gives them). All items' metadata " +
                "together stays within METADATA_ANSWERS_MAX_BYTES: the items after that carry metadataOmitted (counted in X-Metadata-Omitted).",
              examples: [true],
            }),
          ),
        }),
        response: {
          200: { ...Type.Array(Item), headers: metadataHeaders },
          ...refusals(...INDEX, "invalid_address", "invalid_cursor", "metadata_busy", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const owner = parseAddress(request.params.owner, "owner").toLowerCase();
      const contract = parseAddress(request.params.assetContract, "assetContract").toLowerCase();
      const limit = pageLimit(request.query.limit);
      const after = decodeKeyCursor(request.query.cursor, "id");
      const spam = request.query.spam === "exclude";
      const page = await fromIndex({
        app,
        reply,
        network,
        read: (db) => inventoryPage(db, { network, owner, contract, after, limit, spam }),
      });
      if (spam && app.collections.isSpam(network, contract, page.spam))
        return sendPage(request, reply, { indexed: page.indexed }, [], limit);
      // Written directly (the hot path of the service): ids and balances are the database's canonical decimals, so
      // they go out as JSON numbers with all their digits; contract and owner are the same in every item.
      const head = `{"contract":"${checksum(contract)}","id":`;
      const tail = `,"owner":"${checksum(owner)}"`;
      const write = (extra?: Map<string, string>) =>
        `[${page.items.map((r) => `${head}${r.tokenId}${tail}${r.balance === null ? "" : `,"balance":${r.balance}`}${extra ? `,${extra.get(r.tokenId)}` : ""}}`).join(",")}]`;
      if (!request.query.metadata) return sendPage(request, reply, page, write(), limit);
      // A contract's tokens are all ERC-721 or all ERC-1155.
      const tokens = page.items.map((r) => ({
        id: BigInt(r.tokenId),
        standard: r.balance === null ? ("erc721" as const) : ("erc1155" as const),
      }));
      await app.tokenMetadata.answer(network, contract, tokens, ({ fields, omitted }) => {
        reply.header("x-metadata-omitted", String(omitted));
        void sendPage(request, reply, page, write(fields), limit);
      });
      return reply;
    },
  );

  app.get(
    "/inventory/:network/:owner",
    {
      schema: {
        tags: ["data"],
        summary: "Contracts an owner holds tokens of, each once, from the index",
        description:
          `The contracts (ERC-721 and ERC-1155) the owner holds at least one token of, in address order. ${PAGED_FROM_INDEX} ` +
          "With details=true each is a collection as GET /collection gives it (docs/reference/collections.md), the page's " +
          "summaries, deployments and cached documents read in one statement and name, symbol and totalSupply in multicalls; " +
          "a deployment not found before has a reason instead.",
        params: Type.Object({ network: NetworkParam, owner: AddressParam("Owner", "owner") }),
        querystring: Type.Object({
          ...AddressPaging.properties,
          spam: SpamQuery,
          details: Type.Optional(
            Type.Boolean({ description: "Each contract as a collection (GET /collection) instead of its address", examples: [true] }),
          ),
        }),
        response: {
          200: { ...Type.Union([Type.Array(Address), Type.Array(Collection)]), headers },
          ...refusals(...INDEX, ...NODE, "invalid_address", "invalid_cursor", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const owner = parseAddress(request.params.owner, "owner").toLowerCase();
      const limit = pageLimit(request.query.limit);
      const after = decodeKeyCursor(request.query.cursor, "address");
      if (request.query.details) {
        const excludeSpam = request.query.spam === "exclude";
        const query = { network, owner, after, limit, budget: app.tokenMetadata.answersMaxBytes, excludeSpam };
        const page = await app.collections.describeOwnerPage(query, (read) => fromIndex({ app, reply, network, read }));
        return sendPage(request, reply, page, page.json, limit);
      }
      const spam = request.query.spam === "exclude";
      const page = await fromIndex({ app, reply, network, read: (db) => contractsPage(db, { network, owner, after, limit, spam }) });
      // A page with spam left out may hold fewer items; its Link still follows on from the last contract read.
      const shown = spam ? page.items.filter((c) => !app.collections.isSpam(network, c.contract, c.spam)) : page.items;
      return sendPage(
        request,
        reply,
        page,
        shown.map((c) => checksum(c.contract)),
        limit,
      );
    },
  );
};

export default inventory;
