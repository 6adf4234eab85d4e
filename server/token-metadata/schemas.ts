import { Type } from "typebox";
import { Address, AddressParam, NetworkParam, TokenIdParam } from "../http/schemas";
import { INDEX, refusals } from "../http/refusals";
import { MetadataOmitted, MetadataUpdatedAt } from "./token";

export const TokenParams = Type.Object({
  network: NetworkParam,
  contract: AddressParam("ERC-721 or ERC-1155 contract", "metadataContract"),
  id: TokenIdParam,
});

const EXAMPLE = {
  contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  id: 1,
  standard: "erc721",
  owner: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  tokenURI: "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/1.json",
  metadata: {
    name: "Sword #1",
    description: "A sharp sword",
    image: "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/1.png",
  },
  image: "https://ipfs.io/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/1.png",
  metadataError: null,
  metadataUpdatedAt: "2026-11-28T12:00:00.000Z",
  signed: { "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC": { rarity: "legendary" } },
};
const PENDING_1155 = {
  contract: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  id: 7,
  standard: "erc1155",
  balances: [{ owner: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", balance: 12 }],
  tokenURI: "https://example.com/meta/0000000000000000000000000000000000000000000000000000000000000007.json",
  metadata: null,
  image: null,
  metadataError: "pending",
  metadataUpdatedAt: null,
  signed: {},
};

export const Token = Type.Object(
  {
    contract: Address,
    id: Type.Integer({ description: "Token id: a JSON number with all its digits" }),
    standard: Type.Union([Type.Literal("erc721"), Type.Literal("erc1155")]),
    owner: Type.Optional({ ...Address, description: "ERC-721: the owner (from the index)" }),
    balances: Type.Optional(
      Type.Array(Type.Object({ owner: Address, balance: Type.Integer() }), {
        description: "ERC-1155: holders and balances (from the index), largest first, at most 100",
      }),
    ),
    tokenURI: Type.Union([Type.String(), Type.Null()], { description: "tokenURI(id), or uri(id) with {id} substituted for ERC-1155" }),
    metadata: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
      description: "The metadata JSON object as served, or null",
    }),
    image: Type.Union([Type.String(), Type.Null()], {
      description: "The image as a URL a browser can load (ipfs:// and ar:// through the gateways)",
    }),
    metadataError: Type.Union([Type.String(), Type.Null()], { description: 'Why metadata is null; "pending" while it is being read' }),
    metadataUpdatedAt: MetadataUpdatedAt,
    metadataOmitted: MetadataOmitted,
    signed: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "Issuer-signed metadata from the metadata service, by issuer: at most SIGNED_METADATA_ANSWER_MAX_ISSUERS issuers, " +
        "those named in the issuers parameter first, then the most recently posted",
    }),
    signedOmitted: Type.Optional(
      Type.Integer({
        description: "Present when signed left out issuers' statements (more than SIGNED_METADATA_ANSWER_MAX_ISSUERS): how many",
      }),
    ),
    signedError: Type.Optional(Type.String({ description: "With signedOmitted: why, and how to ask for the others" })),
  },
  { examples: [EXAMPLE, PENDING_1155] },
);

/** The refusals of the token routes. */
export const TokenRefusals = refusals(
  ...INDEX,
  "invalid_address",
  "invalid_token_id",
  "not_found",
  "metadata_busy",
  "uri_too_long",
  "too_many_requests",
);
