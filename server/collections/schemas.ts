import { Type, type Static } from "typebox";
import { Address, BlockNumber } from "../http/schemas";

const Text = (description: string) => Type.Optional(Type.String({ description }));
const Url = (description: string) =>
  Type.Optional(Type.String({ description: `${description}: a URL a browser can load (gateways applied)` }));

/** The contract-level metadata of a collection (ERC-7572), as served. */
export const CollectionMetadata = Type.Object(
  {
    contractURI: Type.Union([Type.String(), Type.Null()], {
      description: "What contractURI() answered; null when it reverted or was not read",
    }),
    name: Text("The document's name, cleaned (invisible characters as U+FFFD) and cut to 200 characters"),
    description: Text("The document's description, cleaned, cut to 2,000 characters"),
    image: Url("image"),
    bannerImage: Url("banner_image"),
    featuredImage: Url("featured_image"),
    externalLink: Text("external_link, when it is an http(s) URL"),
    collaborators: Type.Optional(Type.Array(Address, { description: "collaborators that are addresses (at most 50), checksummed" })),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why there are no fields: contractURI() reverted, the document failed, or "pending" (being read; ask again)',
    }),
    omitted: Type.Optional(Type.Literal(true, { description: "Left out: the answer's metadata reached METADATA_ANSWERS_MAX_BYTES" })),
  },
  { description: "Contract-level metadata (ERC-7572) from contractURI(), through the token metadata fetcher and cache" },
);
/** What contract-metadata.ts builds is typed by the schema that documents it, so the two cannot drift apart. */
export type CollectionMetadata = Static<typeof CollectionMetadata>;

/** A collection: what the index holds of a contract and what its contract and the chain say (docs/reference/collections.md). */
export const Collection = Type.Object({
  contract: Address,
  standard: Type.Union([Type.Literal("erc721"), Type.Literal("erc1155")], { description: "The standard the index reads it as" }),
  name: Text("name() as the contract answers, cleaned and cut to 200 characters; absent when it has none"),
  symbol: Text("symbol() as the contract answers, cleaned and cut to 50 characters; absent when it has none"),
  totalSupply: Type.Optional(
    Type.Integer({ description: "totalSupply() as the contract answers at chainBlock (all digits); absent when it has none" }),
  ),
  indexedSupply: Type.Integer({ description: "ERC-721 tokens (ERC-1155 units) the index holds: minted less burned" }),
  holders: Type.Integer({ minimum: 0, description: "Owners holding at least one token (as GET /holders/…/count)" }),
  transfers: Type.Integer({ minimum: 0, description: "Transfers the index holds (ERC-1155: one per id moved)" }),
  firstIndexedBlock: BlockNumber,
  latestIndexedBlock: BlockNumber,
  indexComplete: Type.Boolean({ description: "false when a ConsecutiveTransfer range was not expanded" }),
  deployment: Type.Object(
    {
      block: Type.Union([BlockNumber, Type.Null()], { description: "The first block whose state holds the contract's code" }),
      deployer: Type.Union([Address, Type.Null()], { description: "The account whose transaction created it; null when a contract did" }),
      tx: Type.Union([Type.String(), Type.Null()], { description: "That transaction" }),
      reason: Type.Optional(Type.String({ description: "Why block or deployer is null" })),
    },
    { description: "Found by bisection of eth_getCode, then the block's transactions (docs/reference/collections.md#deployment)" },
  ),
  metadata: CollectionMetadata,
  spam: Type.Object(
    {
      flag: Type.Boolean({ description: "true: leave it out of a wallet's first screen (`?spam=exclude` does)" }),
      reasons: Type.Array(Type.String(), {
        description:
          "The rules that fired (LureText, DishonestTotalSupply, MassAirdrop, MintedToOthers, NeverMoved), the operator's word " +
          "(OperatorMarkedSpam, OperatorMarkedNotSpam) first, or Unclassified (docs/reference/collections.md#spam)",
      }),
    },
    { description: "Computed when the index changes, never per read: stable between reads" },
  ),
  chainBlock: Type.Integer({ minimum: 0, description: "The block name, symbol and totalSupply were read at" }),
});

export const COLLECTION_EXAMPLE = {
  contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  standard: "erc721",
  name: "Alice",
  symbol: "ALICE",
  totalSupply: 10,
  indexedSupply: 10,
  holders: 1,
  transfers: 10,
  firstIndexedBlock: 2,
  latestIndexedBlock: 2,
  indexComplete: true,
  deployment: { block: 1, deployer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", tx: "0x…" },
  metadata: { contractURI: null, error: "contractURI() reverted" },
  spam: { flag: false, reasons: [] },
  chainBlock: 42,
};

/** `?spam=`: whether flagged collections are left out (default include). */
export const SpamQuery = Type.Optional(
  Type.Union([Type.Literal("include"), Type.Literal("exclude")], {
    description: "exclude: leave out what belongs to collections flagged as spam (docs/reference/collections.md#spam); default include",
    examples: ["exclude"],
  }),
);
