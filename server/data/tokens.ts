import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Interface, ZeroAddress } from "ethers";
import { Type } from "typebox";
import { BoundedCache } from "../lib/bounded-cache";
import { rpc } from "../chain/networks";
import { HttpError, notFound } from "../http/http-error";
import { sendJson } from "../http/wire";
import { checksumAddress, parseAddress, parseTokenId } from "../chain/values";
import { indexesErc721, readCursor } from "../indexer";
import { Address, AddressParam, NetworkParam, TokenIdParam } from "../http/schemas";
import { DATABASE_READ, NODE, refusals } from "../http/refusals";

const ERC721 = new Interface([
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function isApprovedForAll(address owner, address operator) view returns (bool)",
  "function supportsInterface(bytes4 interfaceId) view returns (bool)",
]);
const ERC721_INTERFACE_ID = "0x80ac58cd";

/**
 * Token reads by eth_call: `isApprovedForAll` and `ownerOf`. An address without code, or a contract that is not
 * ERC-721 (neither by ERC-165 nor by the transfers the index holds), is a 400 `not_erc721` saying so (not a 500,
 * not a bare 502); answers are cached per block.
 */
const tokens: FastifyPluginAsyncTypebox = async (app) => {
  // Code does not go away (SELFDESTRUCT no longer removes it): a contract seen once is a contract.
  const contracts = new BoundedCache<boolean>(10_000);
  const erc165 = new BoundedCache<boolean>(10_000);
  // Never from a block older than the index's: right after a transfer the inventory (X-Indexed-Block) may already show
  // the new owner while the cached head still names the block before it. Read once per request, so that every call
  // of one answer reads at least the same block.
  const indexedBlock = async (network: string) => (await readCursor(app.db, network))?.block ?? 0;

  const requireContract = async (network: string, address: string) => {
    const provider = app.networks.provider(network);
    const hasCode = await contracts.getOrLoad(
      `${network}:${address}`,
      async () => (await rpc(network, provider.getCode(address))) !== "0x",
      Boolean,
    );
    if (!hasCode) throw notErc721(`${address} has no contract code on ${network}: it is an account, not an ERC-721 contract`);
  };

  const supportsErc721 = (network: string, address: string, atLeast: number) =>
    erc165.getOrLoad(`${network}:${address}`, async () => {
      const data = ERC721.encodeFunctionData("supportsInterface", [ERC721_INTERFACE_ID]);
      const outcome = await app.calls.call(network, address, data, atLeast);
      return outcome.ok && decodes(() => ERC721.decodeFunctionResult("supportsInterface", outcome.data)[0]) === true;
    });

  app.get(
    "/approval/:network/:assetContract/:owner/:operator",
    {
      schema: {
        tags: ["data"],
        summary: "Whether operator may move all of owner's tokens (isApprovedForAll)",
        description:
          "isApprovedForAll(owner, operator) by eth_call, at a block no older than the index's, cached per block. " +
          "400 `not_erc721` for an address without code or a contract that does not answer it.",
        params: Type.Object({
          network: NetworkParam,
          assetContract: AddressParam("ERC-721 contract", "contract"),
          owner: AddressParam("Owner", "owner"),
          operator: AddressParam("Operator", "operator"),
        }),
        response: {
          200: Type.Boolean(),
          ...refusals(...NODE, ...DATABASE_READ, "invalid_address", "not_erc721", "uri_too_long", "too_many_requests"),
        },
      },
    },
    async (request) => {
      const { network } = request.params;
      app.networks.info(network);
      const contract = parseAddress(request.params.assetContract, "assetContract");
      const owner = parseAddress(request.params.owner, "owner");
      const operator = parseAddress(request.params.operator, "operator");
      await requireContract(network, contract);
      const data = ERC721.encodeFunctionData("isApprovedForAll", [owner, operator]);
      const outcome = await app.calls.call(network, contract, data, await indexedBlock(network));
      const approved = outcome.ok ? decodes(() => ERC721.decodeFunctionResult("isApprovedForAll", outcome.data)[0] as boolean) : undefined;
      if (approved === undefined)
        throw notErc721(`${contract} on ${network} does not answer isApprovedForAll: it is not an ERC-721 contract`);
      return approved;
    },
  );

  app.get(
    "/:network/:assetContract/:id",
    {
      schema: {
        tags: ["data"],
        summary: "Owner of a token (ownerOf); 404 when the token does not exist",
        description:
          "ownerOf(id) by eth_call, at a block no older than the index's, cached per block: a JSON string, the checksummed owner. " +
          "404 `not_found` for a token that does not exist (or a path that names no network: this route takes any three segments); " +
          "400 `not_erc721` for an address without code or a contract that is not ERC-721.",
        params: Type.Object({
          network: NetworkParam,
          assetContract: AddressParam("ERC-721 contract", "contract"),
          id: TokenIdParam,
        }),
        response: {
          200: Address,
          ...refusals(
            ...NODE,
            ...DATABASE_READ,
            "invalid_address",
            "invalid_token_id",
            "not_erc721",
            "not_found",
            "uri_too_long",
            "too_many_requests",
          ),
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      // This route matches any three-segment path: one that does not start with a network is an unknown route.
      if (!app.networks.isKnown(network)) return reply.callNotFound();
      const contract = parseAddress(request.params.assetContract, "assetContract");
      const id = parseTokenId(request.params.id);
      await requireContract(network, contract);
      const atLeast = await indexedBlock(network);
      const outcome = await app.calls.call(network, contract, ERC721.encodeFunctionData("ownerOf", [id]), atLeast);
      const owner = outcome.ok ? decodes(() => ERC721.decodeFunctionResult("ownerOf", outcome.data)[0] as string) : undefined;
      // A JSON string (a returned string would go out as bare text).
      if (owner !== undefined && owner !== ZeroAddress) return sendJson(reply, checksumAddress(owner));
      // ownerOf reverts for a token that does not exist; a contract that is not ERC-721 says so through ERC-165, and
      // one from before ERC-165 (its supportsInterface reverts) is known by the ERC-721 transfers the index holds.
      if (
        owner === ZeroAddress ||
        (await supportsErc721(network, contract, atLeast)) ||
        (await indexesErc721(app.db, network, contract.toLowerCase()))
      )
        throw notFound(`Token ${id} does not exist in ${contract} on ${network}`);
      throw notErc721(`${contract} on ${network} does not answer ownerOf: it is not an ERC-721 contract`);
    },
  );
};

function notErc721(message: string): HttpError {
  return new HttpError(400, "not_erc721", message);
}

/** The decoded value, or undefined when the answer does not decode (garbage from a contract that is not ERC-721). */
function decodes<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}

export default tokens;
