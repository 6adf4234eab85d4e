import type { Config } from "../config";

/**
 * The schema keyword that names the example a parameter or request body takes in the OpenAPI document. Route schemas
 * say what a value is (an owner, a collection, a token id); which value plays that part depends on the deployment the
 * document describes, so the openapi plugin fills it in from {@link ApiExamples}. Declared to Ajv as a keyword of its
 * own (server/app.ts): it annotates, it never validates.
 */
export const EXAMPLE_KEYWORD = "x-example";

/** A body signed for the metadata service (docs/reference/metadata.md). */
export interface SignedStatement {
  iss: string;
  sig: string;
  metadata: string;
}

/**
 * The values the document's examples are made of. They work together: `owner` holds token `tokenId` of `contract` and
 * of `metadataContract`, `nftStatement` is signed for token `tokenId` of `metadataContract` on `network`, and
 * `accountStatement` for `owner` on `network`, both by the same issuer.
 */
export interface ApiExamples {
  /** A network name this service has a node and an index for. */
  network: string;
  /** An indexed ERC-721 collection. */
  contract: string;
  /** A token id of both collections, held by `owner`. */
  tokenId: string;
  /** The holder of token `tokenId`. */
  owner: string;
  /** An address asked about as operator of the owner's tokens. */
  operator: string;
  /** An NFTConverter contract. */
  converter: string;
  /** An ERC-721 collection whose token `tokenId` has metadata to read. */
  metadataContract: string;
  /** A block number at or below the head, at or after the first transfer of `contract` the index holds. */
  block: string;
  /** A registered login client and one of its redirect URIs. */
  clientId: string;
  redirectUri: string;
  nftStatement: SignedStatement;
  accountStatement: SignedStatement;
}

/** What a schema may name with {@link example}: a value of {@link ApiExamples}, or one derived from them. */
export type ExampleName = keyof ApiExamples | "issuer" | "loginRequest" | "tokenRequest" | "clientRegistration";

/** The annotation that gives a parameter or body schema the example `name` (spread into its options). */
export function example(name: ExampleName): { [EXAMPLE_KEYWORD]: ExampleName } {
  return { [EXAMPLE_KEYWORD]: name };
}

/** Neutral values: well-formed, tied to no deployment (addresses without letters are valid in any case). */
const NEUTRAL_ISSUER = "0x3333333333333333333333333333333333333333";
const NEUTRAL_METADATA = Buffer.from('{"name":"Example"}').toString("base64");

/**
 * A production deployment's examples: its first network with a node, neutral addresses and a placeholder statement
 * (its signature is no one's: posting it is refused with `invalid_signature`). `npm start` gives the demo's instead.
 */
export function neutralExamples(config: Pick<Config, "rpcUrls" | "issuer">): ApiExamples {
  const placeholder = { iss: NEUTRAL_ISSUER, sig: `0x${"11".repeat(65)}`, metadata: NEUTRAL_METADATA };
  return {
    network: Object.keys(config.rpcUrls)[0] ?? "mainnet",
    contract: "0x1111111111111111111111111111111111111111",
    tokenId: "1",
    owner: "0x2222222222222222222222222222222222222222",
    operator: "0x4444444444444444444444444444444444444444",
    converter: "0x5555555555555555555555555555555555555555",
    metadataContract: "0x1111111111111111111111111111111111111111",
    block: "1",
    clientId: "your-client-id",
    redirectUri: "https://dapp.example/callback",
    nftStatement: placeholder,
    accountStatement: placeholder,
  };
}

/** Every value a schema may name, from a deployment's examples. */
export function exampleValues(examples: ApiExamples): Record<ExampleName, unknown> {
  return {
    ...examples,
    issuer: examples.nftStatement.iss,
    // A signature is over a message the service hands out at each /api/authorize: no example can carry a valid one.
    loginRequest: {
      address: examples.owner,
      signature: `0x${"11".repeat(65)}`,
      client_id: examples.clientId,
      redirect_uri: examples.redirectUri,
      state: "af0ifjsldkj",
    },
    // A code works once, minutes after /api/login gave it: the example shows the form's fields.
    tokenRequest: {
      grant_type: "authorization_code",
      code: "the-code-from-api-login",
      redirect_uri: examples.redirectUri,
      client_id: examples.clientId,
      client_secret: "your-client-secret",
    },
    clientRegistration: { client_name: "My dApp", redirect_uris: [examples.redirectUri] },
  };
}
