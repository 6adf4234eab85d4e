import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { badRequest } from "../http/http-error";
import { checksummer, parseAddress, parseTokenId } from "../chain/values";
import { HISTORY_KEY_MAX, historyPage, type HistoryItem, type HistoryOf, type TransferRow } from "../indexer";
import { decodeCursor, fromIndex, pageHeaders, pageLimit, sendPage } from "./paging";
import { Address, AddressParam, NetworkParam, TokenIdParam } from "../http/schemas";
import { paging, PAGED_FROM_INDEX } from "./schemas";
import { INDEX, refusals } from "../http/refusals";
import { SpamQuery } from "../collections";

/** One transfer on the wire, as the history routes and the live event stream give it. */
export const TransferItem = Type.Object({
  block: Type.Integer({ description: "Block number" }),
  time: Type.Union([Type.Integer(), Type.Null()], {
    description: "Unix time of the block (null for transfers indexed before times were kept)",
  }),
  tx: Type.String({ description: "Transaction hash" }),
  logIndex: Type.Integer({ description: "Position of the log in its block" }),
  batchIndex: Type.Optional(Type.Integer({ description: "ERC-1155 only: position of the id in a TransferBatch (0 for TransferSingle)" })),
  from: Address,
  to: Address,
  contract: Address,
  id: Type.Integer({ description: "Token id: a JSON number with all its digits" }),
  value: Type.Optional(Type.Integer({ description: "ERC-1155 only: how many units moved (all digits)" })),
});

export const TRANSFER_EXAMPLE = {
  block: 42,
  time: 1732351200,
  tx: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
  logIndex: 0,
  from: "0x0000000000000000000000000000000000000000",
  to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  id: 1,
};

/** The wire form of a transfer row (ids and values as bigints: JSON numbers with all their digits through toJson). */
export function transferItem(row: TransferRow, checksum: (address: string) => string) {
  return {
    block: Number(row.block_number),
    time: row.block_time === null ? null : Number(row.block_time),
    tx: row.tx_hash,
    logIndex: row.log_index,
    // ERC-721 rows carry the id's offset in a ConsecutiveTransfer range: a paging key, not part of the answer.
    ...(row.batch_index === null || row.amount === null ? {} : { batchIndex: row.batch_index }),
    from: checksum(row.from_address),
    to: checksum(row.to_address),
    contract: checksum(row.contract),
    id: BigInt(row.token_id),
    ...(row.amount === null ? {} : { value: BigInt(row.amount) }),
  };
}

/** A lower-case address, quoted, in a transfer's JSON text: the tx hash, 64 digits, is not one. */
const LOWER_CASE_ADDRESS = /"(0x[0-9a-f]{40})"/g;

/**
 * The JSON text of a transfer of a history page, which its statement writes as {@link transferItem}'s JSON, its
 * addresses in the EIP-55 forms the index keeps: one without a form yet (stored before the index kept them) is
 * checksummed here. A form that has no capitals reads as lower case too, and checksums to itself.
 */
function transferJson(item: HistoryItem, checksum: (address: string) => string): string {
  return item.checksummed ? item.json : item.json.replace(LOWER_CASE_ADDRESS, (_, address: string) => `"${checksum(address)}"`);
}

/** The (block, log index, batch index) a history cursor holds: none, or values the columns it is compared with can hold. */
function historyCursor(cursor: string | undefined): [string, string, string] | undefined {
  const key = decodeCursor(cursor, 3);
  if (!key) return undefined;
  if (key.some((part, i) => BigInt(part) > HISTORY_KEY_MAX[i])) throw badRequest("invalid_cursor", "cursor is not one this service gave");
  return [key[0], key[1], key[2]];
}

/**
 * Transfer history from the index, newest first (block, log index, batch index): of one token, or of an address as
 * sender or receiver. ERC-721 and ERC-1155 transfers in one list; transfers a reorg undid are gone with it.
 */
const history: FastifyPluginAsyncTypebox = async (app) => {
  const checksum = checksummer();
  // Newest first: the first page is the one before the largest key.
  const Paging = paging(HISTORY_KEY_MAX.map(String));
  /** What both lists take and answer: one page of transfers. */
  const PageExchange = {
    querystring: Type.Object({ ...Paging.properties, spam: SpamQuery }),
    response: {
      200: { ...Type.Array(TransferItem), headers: pageHeaders, examples: [[TRANSFER_EXAMPLE]] },
      ...refusals(...INDEX, "invalid_address", "invalid_token_id", "invalid_cursor", "uri_too_long", "too_many_requests"),
    },
  };
  const ORDER =
    "ERC-721 and ERC-1155 transfers in one list, newest first (block, log index, batch index); transfers a reorg undid are gone with it.";

  /** One page of the transfers of `of`. */
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    query: { limit?: number; cursor?: string; spam?: "include" | "exclude" },
    network: string,
    of: HistoryOf,
  ) => {
    const limit = pageLimit(query.limit);
    const before = historyCursor(query.cursor);
    const spam = query.spam === "exclude";
    const found = await fromIndex({ app, reply, network, read: (db) => historyPage(db, { network, of, before, limit, spam }) });
    // A page with spam left out may hold fewer items; its Link still follows on from the last transfer read.
    const items = spam ? found.items.filter((r) => !app.collections.isSpam(network, r.contract!, r.spam)) : found.items;
    return sendPage(request, reply, found, `[${items.map((r) => transferJson(r, checksum)).join(",")}]`, limit);
  };

  app.get(
    "/transfers/:network/owner/:owner",
    {
      schema: {
        tags: ["data"],
        summary: "Transfers from or to an address, newest first, from the index",
        description: `Transfers the address sent or received (one to itself is listed once). ${ORDER} ${PAGED_FROM_INDEX}`,
        params: Type.Object({ network: NetworkParam, owner: AddressParam("Sender or receiver", "owner") }),
        ...PageExchange,
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const owner = parseAddress(request.params.owner, "owner").toLowerCase();
      return page(request, reply, request.query, network, { owner });
    },
  );

  app.get(
    "/transfers/:network/:contract/:id",
    {
      schema: {
        tags: ["data"],
        summary: "Transfers of one token, newest first, from the index",
        description: `The transfers of one token, its mint included. ${ORDER} ${PAGED_FROM_INDEX}`,
        params: Type.Object({
          network: NetworkParam,
          contract: AddressParam("ERC-721 or ERC-1155 contract", "contract"),
          id: TokenIdParam,
        }),
        ...PageExchange,
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      app.networks.info(network);
      const contract = parseAddress(request.params.contract, "contract").toLowerCase();
      const tokenId = parseTokenId(request.params.id).toString();
      return page(request, reply, request.query, network, { contract, tokenId });
    },
  );
};

export default history;
