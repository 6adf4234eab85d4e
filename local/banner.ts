import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Config } from "../server/config";
import type { Demo } from "./demo";
import type { DemoClient } from "./demo-client";
import type { LocalNode } from "./node";

/** `issuer` for the browser (the page signs for the issuer's host), `base` for curl (where this process listens). */
function loginLines(base: string, issuer: string, client: DemoClient, user: string | undefined, dataDir: string): string[] {
  const demoFile = path.relative(process.cwd(), path.join(dataDir, "demo-client.json"));
  const request = new URLSearchParams({ client_id: client.id, redirect_uri: client.redirectUri, response_type: "code", scope: "openid" });
  const apiRequest = new URLSearchParams(request);
  if (user) apiRequest.set("address", user);
  return [
    "",
    `  Log in through the demo client "${client.name}" (local demo only: its secret is kept in ${demoFile}):`,
    `    client_id      ${client.id}`,
    `    client_secret  ${client.secret}`,
    `    redirect_uri   ${client.redirectUri}`,
    `    In a browser with a wallet extension, open:`,
    `      ${issuer}/authorize?${request}`,
    `    Or with the JSON API (then personal_sign the message and POST it to /api/login; docs/login.md):`,
    `    curl '${base}/api/authorize?${apiRequest}'`,
    `    OpenID discovery: ${issuer}/.well-known/openid-configuration`,
  ];
}

/**
 * What `npm start` prints once the service listens: its URLs, and with the local chain the demo contracts, curl lines
 * to try (each works as printed) and how to log in through the demo client.
 */
export function printBanner(
  config: Config,
  app: FastifyInstance,
  node: LocalNode | undefined,
  demo: Demo | undefined,
  demoClient?: DemoClient,
): void {
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const base = `http://${config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${port}`;
  const lines = [
    "",
    `  Service   ${base}`,
    `  API docs  ${base}/docs  (OpenAPI: ${base}/openapi.json)`,
    ...(config.converters.length > 0 ? [`  Convert   ${base}/convert  (the token holders' page; Japanese: ${base}/convert?lang=ja)`] : []),
    `  Database  ${config.database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.database.dataDir}`}`,
    node
      ? `  Chain     ${node.url} (local Hardhat node, chain id ${node.chainId})`
      : `  Networks  ${Object.keys(config.rpcUrls).join(", ")}`,
    ...(demo && node
      ? [
          "",
          "  Demo contracts on the local chain:",
          `    AliceNFT      ${demo.alice}`,
          `    BobNFT        ${demo.bob}`,
          `    NFTConverter  ${demo.converter}  (pairs Alice 1–10 ↔ Bob 1–10, Bob stock 1–10)`,
          `    user          ${demo.user}  (Hardhat account #1: holds Alice 1–10)`,
          `    wallet        ${demo.wallet}  (EIP-1271 wallet owned by the user)`,
          `    MetadataNFT   ${demo.metadataNft}  (token 1, held by the user: metadata and image in a data: tokenURI)`,
        ]
      : []),
    "",
    "  Try:",
    `    curl ${base}/health`,
    `    curl ${base}/ready`,
    `    curl ${base}/block/localhost/latest`,
    ...(demo && node
      ? [
          `    curl ${base}/gas/localhost/suggested-price`,
          `    curl ${base}/block/localhost/time/1`,
          `    curl ${base}/localhost/${demo.alice}/1`,
          `    curl ${base}/approval/localhost/${demo.alice}/${demo.user}/${demo.converter}`,
          `    curl -i '${base}/inventory/localhost/${demo.user}/${demo.alice}?limit=3'`,
          `    curl ${base}/inventory/localhost/${demo.user}`,
          `    curl ${base}/converter/localhost/${demo.converter}`,
          `    curl '${base}/converter/localhost/${demo.converter}/pairs?aliceIds=1,2,11'`,
          `    curl ${base}/token/localhost/${demo.metadataNft}/1`,
          `    curl -X POST ${base}/token/localhost/${demo.metadataNft}/1/refresh`,
          `    curl '${base}/inventory/localhost/${demo.user}/${demo.metadataNft}?metadata=true'`,
          `    curl -i '${base}/holders/localhost/${demo.alice}?limit=3'`,
          `    curl ${base}/holders/localhost/${demo.alice}/count`,
          `    curl ${base}/transfers/localhost/${demo.alice}/1`,
          `    curl ${base}/transfers/localhost/owner/${demo.user}`,
          `    curl -N '${base}/events/localhost?owner=${demo.user}'`,
        ]
      : []),
    ...(demoClient ? loginLines(base, config.issuer, demoClient, demo?.user, config.dataDir) : []),
    ...(demo && node
      ? [
          "",
          "  Convert Alice 1 to Bob 1 as the user, in one transaction (the events stream above shows it):",
          `    RPC_URL_LOCALHOST=${node.url} SIGNER_INDEX=1 npx hardhat convert --alice-id 1 --network localhost --converter ${demo.converter}`,
        ]
      : []),
    "",
    "  Ctrl-C stops everything.",
    "",
  ];
  console.log(lines.join("\n"));
}
