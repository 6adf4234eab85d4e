import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { parseAddress, parseTokenId } from "../http/wire";
import { HOLDER_COUNT_SQL, HOLDERS_SQL, TOKEN_HOLDERS_SQL } from "./queries";
import { checksummer, decodeCursor, notIndexed, pageHeaders, pageLimit, sendPage } from "./paging";
import { Address, AddressParam, NetworkParam, Paging } from "./schemas";

const Holder = Type.Object({
  owner: Address,
  count: Type.Integer({
    description: "What the owner holds: ERC-721 tokens, or ERC-1155 units (with `id`: its balance of that id). A JSON number with all its digits",
  }),
});
const Contract = AddressParam("ERC-721 or ERC-1155 contract");

/**
 * Holders of a collection from the index, in address order (the paging order): each owner once with what it holds.
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
        params: Type.Object({ network: NetworkParam, contract: Contract }),
        querystring: Type.Object({
          ...Paging.properties,
          id: Type.Optional(Type.String({ maxLength: 78, description: "Only this token id's holders (ERC-1155: with their balances)" })),
        }),
        response: {
          200: {
            ...Type.Array(Holder),
            headers: pageHeaders,
            examples: [[{ owner: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", count: 10 }]],
          },
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const contract = parseAddress(request.params.contract, "contract").toLowerCase();
      const id = request.query.id === undefined ? undefined : parseTokenId(request.query.id).toString();
      const limit = pageLimit(request.query.limit);
      const after = decodeCursor(request.query.cursor, 1)?.[0] ?? "";
      const { rows } = await app.db.query<{ indexed: string; owner: string | null; count: string | null }>(
        id === undefined ? HOLDERS_SQL : TOKEN_HOLDERS_SQL,
        id === undefined ? [network, contract, after, limit + 1] : [network, contract, after, limit + 1, id],
      );
      if (rows.length === 0) throw notIndexed(app.networks, network);
      const found = rows.filter((r) => r.owner !== null);
      const page = found.slice(0, limit);
      // Counts are the database's canonical decimals: written as they are, JSON numbers with all their digits.
      const body = `[${page.map((r) => `{"owner":"${checksum(r.owner!)}","count":${r.count}}`).join(",")}]`;
      return sendPage(request, reply, Number(rows[0].indexed), body, found.length > limit ? [page[page.length - 1].owner!] : undefined, limit);
    },
  );

  app.get(
    "/holders/:network/:contract/count",
    {
      schema: {
        tags: ["data"],
        summary: "How many owners hold tokens of a contract, from the index (kept as it writes: one row read)",
        params: Type.Object({ network: NetworkParam, contract: Contract }),
        response: {
          200: {
            ...Type.Object({ holders: Type.Integer({ minimum: 0, description: "Owners holding at least one token (ERC-1155: one unit)" }) }),
            headers: { "X-Indexed-Block": pageHeaders["X-Indexed-Block"] },
            examples: [{ holders: 1234 }],
          },
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const contract = parseAddress(request.params.contract, "contract").toLowerCase();
      const { rows } = await app.db.query<{ indexed: string; holders: string | null }>(HOLDER_COUNT_SQL, [network, contract]);
      if (rows.length === 0) throw notIndexed(app.networks, network);
      reply.header("x-indexed-block", rows[0].indexed);
      return { holders: Number(rows[0].holders ?? 0) };
    },
  );
};

export default holders;
