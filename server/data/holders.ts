import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { checksummer, parseAddress, parseTokenId } from "../chain/values";
import { holderCount, holdersPage } from "../indexer";
import { decodeKeyCursor, fromIndex, pageHeaders, pageLimit, sendPage } from "./paging";
import { Address, AddressParam, IndexHeaders, NetworkParam } from "../http/schemas";
import { AddressPaging, PAGED_FROM_INDEX } from "./schemas";
import { INDEX, refusals } from "../http/refusals";
import { example } from "../http/openapi-examples";
import { SpamQuery } from "../collections";
import { sendSnapshot, snapshotCount, snapshotFormat, snapshotOf } from "./snapshot";

const Holder = Type.Object({
  owner: Address,
  count: Type.Integer({
    description:
      "What the owner holds: ERC-721 tokens, or ERC-1155 units (with `id`: its balance of that id). A JSON number with all its digits",
  }),
});
const Contract = AddressParam("ERC-721 or ERC-1155 contract", "contract");
const SnapshotBlock = Type.Optional(
  Type.String({
    maxLength: 15,
    description:
      "As at the end of this block (decimal), from the transfers the index holds: from the contract's first indexed block to X-Indexed-Block " +
      "(docs/reference/collections.md#holders-at-a-block)",
    ...example("block"),
  }),
);
const SnapshotHeaders = { "X-Snapshot-Block": { type: "integer", description: "With block: the block the holders are as at" } };
const SNAPSHOT_REFUSALS = ["invalid_block_number", "block_out_of_range", "snapshot_too_large", "not_found"] as const;

/**
 * Holders of a collection from the index, in address order (the paging order): each owner once with what it holds,
 * now or (`block`) as at the end of a block.
 * Counting them reads one row the indexer keeps as it writes, however large the collection.
 */
const holders: FastifyPluginAsyncTypebox = async (app) => {
  const checksum = checksummer();

  app.get(
    "/holders/:network/:contract",
    {
      schema: {
        tags: ["data"],
        summary: "Owners of a contract's tokens (or, with id, of one token) with what each holds, from the index",
        description:
          "Each owner once, in address order, with `count`: the ERC-721 tokens it holds or the ERC-1155 units over all ids; " +
          `with id, that token's holders (ERC-1155: each with its balance). ${PAGED_FROM_INDEX}`,
        params: Type.Object({ network: NetworkParam, contract: Contract }),
        querystring: Type.Object({
          ...AddressPaging.properties,
          id: Type.Optional(
            Type.String({
              maxLength: 78,
              description: "Only this token id's holders (ERC-1155: with their balances)",
              ...example("tokenId"),
            }),
          ),
          block: SnapshotBlock,
          spam: SpamQuery,
          format: Type.Optional(
            Type.Union([Type.Literal("json"), Type.Literal("ndjson"), Type.Literal("csv")], {
              description:
                "With block: `ndjson` or `csv` streams every holder (an export) instead of a page; the default is Accept's choice, else a JSON page",
              examples: ["csv"],
            }),
          ),
        }),
        response: {
          200: {
            ...Type.Array(Holder),
            headers: { ...pageHeaders, ...SnapshotHeaders },
            examples: [[{ owner: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", count: 10 }]],
          },
          ...refusals(
            ...INDEX,
            ...SNAPSHOT_REFUSALS,
            "invalid_address",
            "invalid_token_id",
            "invalid_cursor",
            "uri_too_long",
            "too_many_requests",
          ),
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const contract = parseAddress(request.params.contract, "contract").toLowerCase();
      const id = request.query.id === undefined ? undefined : parseTokenId(request.query.id).toString();
      const limit = pageLimit(request.query.limit);
      const after = decodeKeyCursor(request.query.cursor, "address");
      const spam = request.query.spam === "exclude";
      if (request.query.block !== undefined) {
        const { block, summary } = await snapshotOf(app, reply, { network, contract, block: request.query.block });
        const format = snapshotFormat(request.query.format, request.headers.accept);
        // The summary read to check the block carries the flag.
        const excluded = spam && app.collections.isSpam(network, contract, summary.spam?.flag);
        return sendSnapshot(app, request, reply, { network, contract, block, tokenId: id, after, limit, format, excluded });
      }
      const page = await fromIndex({
        app,
        reply,
        network,
        read: (db) => holdersPage(db, { network, contract, tokenId: id, after, limit, spam }),
      });
      if (spam && app.collections.isSpam(network, contract, page.spam))
        return sendPage(request, reply, { indexed: page.indexed }, [], limit);
      // Counts are the database's canonical decimals: written as they are, JSON numbers with all their digits.
      const body = `[${page.items.map((r) => `{"owner":"${checksum(r.owner)}","count":${r.count}}`).join(",")}]`;
      return sendPage(request, reply, page, body, limit);
    },
  );

  app.get(
    "/holders/:network/:contract/count",
    {
      schema: {
        tags: ["data"],
        summary: "How many owners hold tokens of a contract, from the index (kept as it writes: one row read)",
        description:
          "`{holders: n}`, 0 for a contract nobody holds: one row the indexer keeps as it writes, however large the collection. " +
          "`X-Indexed-Block` says how fresh.",
        params: Type.Object({ network: NetworkParam, contract: Contract }),
        querystring: Type.Object({ block: SnapshotBlock }),
        response: {
          200: {
            ...Type.Object({
              holders: Type.Integer({ minimum: 0, description: "Owners holding at least one token (ERC-1155: one unit)" }),
            }),
            headers: { ...IndexHeaders, ...SnapshotHeaders },
            examples: [{ holders: 1234 }],
          },
          ...refusals(...INDEX, ...SNAPSHOT_REFUSALS, "invalid_address", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const contract = parseAddress(request.params.contract, "contract").toLowerCase();
      if (request.query.block !== undefined) {
        const { block } = await snapshotOf(app, reply, { network, contract, block: request.query.block });
        return { holders: await snapshotCount(app, { network, contract, block }) };
      }
      const count = await fromIndex({ app, reply, network, read: (db) => holderCount(db, network, contract) });
      reply.header("x-indexed-block", String(count.indexed));
      return { holders: count.holders };
    },
  );
};

export default holders;
