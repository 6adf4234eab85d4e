import type { FastifyInstance } from "fastify";
import { JsonRpcProvider } from "ethers";
import type { ApiExamples, SignedStatement } from "../server/http/openapi-examples";
import { boundText, encodeMetadata, type Target } from "../server/signed-metadata/signed-text";
import type { Demo } from "./demo";
import type { DemoClient } from "./demo-client";

/** Signed metadata the demo posts, so that the metadata routes' examples find something to read. */
export interface DemoStatements {
  /** About MetadataNFT token 1. */
  nft: SignedStatement;
  /** About the demo user. */
  account: SignedStatement;
}

/** Hardhat account #2 issues the demo's statements: the user (#1) is the one they are about. */
const ISSUER_ACCOUNT = 2;

const nftTarget = (demo: Demo): Target => ({ kind: "nft", network: "localhost", contract: demo.metadataNft.toLowerCase(), tokenId: 1n });
const accountTarget = (demo: Demo): Target => ({ kind: "account", network: "localhost", account: demo.user.toLowerCase() });

/** Signs the demo's statements with the node's unlocked account (the same text gives the same signature every start). */
export async function signDemoStatements(rpcUrl: string, demo: Demo): Promise<DemoStatements> {
  const provider = new JsonRpcProvider(rpcUrl, 31337, { staticNetwork: true });
  try {
    const issuer = await provider.getSigner(ISSUER_ACCOUNT);
    const iss = await issuer.getAddress();
    const sign = async (target: Target, metadata: object): Promise<SignedStatement> => {
      const encoded = encodeMetadata(metadata);
      return { iss, sig: await issuer.signMessage(boundText(target, encoded)), metadata: encoded };
    };
    return {
      nft: await sign(nftTarget(demo), { rarity: "legendary", note: "signed by the demo's issuer (Hardhat account #2)" }),
      account: await sign(accountTarget(demo), { name: "Demo user", note: "signed by the demo's issuer (Hardhat account #2)" }),
    };
  } finally {
    provider.destroy();
  }
}

/** Posts the demo's statements through the app's own routes (posting a current statement again is accepted). */
export async function postDemoStatements(app: FastifyInstance, demo: Demo, statements: DemoStatements): Promise<void> {
  for (const [url, body] of [
    [`/metadata/localhost/${demo.metadataNft}/1`, statements.nft],
    [`/metadata/ethereum/localhost/${demo.user}`, statements.account],
  ] as const) {
    const answer = await app.inject({ method: "POST", url, payload: body });
    if (answer.statusCode !== 200) throw new Error(`posting the demo's metadata to ${url} failed: ${answer.statusCode} ${answer.body}`);
  }
}

/** The OpenAPI document's examples on the local demo: its network, contracts, user, login client and statements. */
export function demoApiExamples(demo: Demo, client: DemoClient, statements: DemoStatements): ApiExamples {
  return {
    network: "localhost",
    contract: demo.alice,
    tokenId: "1",
    owner: demo.user,
    operator: demo.converter,
    converter: demo.converter,
    metadataContract: demo.metadataNft,
    block: String(demo.aliceMinted),
    clientId: client.id,
    redirectUri: client.redirectUri,
    nftStatement: statements.nft,
    accountStatement: statements.account,
  };
}
