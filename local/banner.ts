import path from "node:path";
import type { FastifyInstance } from "fastify";
import { loadConfig, type Config } from "../server/config";
import type { Demo } from "./demo";
import type { DemoReceiver } from "./demo-webhook";
import { demoClientFile, type DemoClient } from "./demo-client";
import { isLoopbackUrl } from "./loopback";
import type { LocalNode } from "./node";

function loginLines(base: string, client: DemoClient, user: string | undefined, dataDir: string): string[] {
  const demoFile = path.relative(process.cwd(), demoClientFile(dataDir));
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
    `      ${base}/authorize?${request}`,
    `    Without a wallet, log in as the demo user (its key is Hardhat's account #1) and see the ID token:`,
    `      ${demoLoginCommand(base, dataDir)}`,
    `    Or with the JSON API (then personal_sign the message and POST it to /api/login; docs/reference/login.md):`,
    `    curl '${base}/api/authorize?${apiRequest}'`,
    `    OpenID discovery: ${base}/.well-known/openid-configuration`,
  ];
}

/** `npm run demo-login` as it reaches this service: the URL and DATA_DIR are named where they are not the defaults. */
function demoLoginCommand(base: string, dataDir: string): string {
  const defaults = loadConfig({});
  const env = dataDir === defaults.dataDir ? "" : `DATA_DIR=${dataDir} `;
  return `${env}npm run demo-login${base === defaults.issuer ? "" : ` -- ${base}`}`;
}

/**
 * Where the banner's URLs point: the issuer, so that they name the host that discovery, the OpenAPI document and
 * the messages users sign name. Only a default issuer on `PORT=0` (any free port) says port 0: then the port taken.
 */
export function bannerBase(issuer: string, listeningPort: number): string {
  const url = new URL(issuer);
  if (url.port !== "0") return issuer;
  url.port = String(listeningPort);
  return url.origin;
}

/** The local node's `url` on the host of `base` when both are this machine (it listens on 127.0.0.1, which localhost reaches). */
function onHostOf(url: string, base: string): string {
  if (!isLoopbackUrl(url) || !isLoopbackUrl(base)) return url;
  const moved = new URL(url);
  moved.hostname = new URL(base).hostname;
  return moved.origin;
}

/**
 * What `npm start` prints once the service listens: its URLs, and with the local chain the demo contracts, curl lines
 * to try (each works as printed), how to log in through the demo client and what the local webhook receiver got.
 */
export function printBanner({
  config,
  app,
  node,
  demo,
  demoClient,
  receiver,
}: {
  config: Config;
  app: FastifyInstance;
  node?: LocalNode;
  demo?: Demo;
  demoClient?: DemoClient;
  receiver?: DemoReceiver;
}): void {
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const base = bannerBase(config.issuer, port);
  const chainUrl = node && onHostOf(node.url, base);
  const lines = [
    "",
    `  Service   ${base}  (its front page: what runs here, and links to the rest)`,
    `  API docs  ${base}/docs  (OpenAPI: ${base}/openapi.json)`,
    ...(config.converters.length > 0 ? [`  Convert   ${base}/convert  (the token holders' page; Japanese: ${base}/convert?lang=ja)`] : []),
    `  Database  ${config.database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.database.dataDir}`}`,
    node
      ? `  Chain     ${chainUrl} (local Hardhat node, chain id ${node.chainId})`
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
          `    spam airdrop  ${demo.spamAirdrop}  (a lure in its name, airdropped to the user and 29 others: flagged as spam)`,
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
          `    curl '${base}/holders/localhost/${demo.alice}?block=${demo.aliceMinted}&format=csv'`,
          `    curl ${base}/collection/localhost/${demo.alice}`,
          `    curl ${base}/collection/localhost/${demo.spamAirdrop}`,
          `    curl -X POST ${base}/collection/localhost/${demo.metadataNft}/refresh`,
          `    curl '${base}/inventory/localhost/${demo.user}?details=true&spam=exclude'`,
          `    curl ${base}/transfers/localhost/${demo.alice}/1`,
          `    curl ${base}/transfers/localhost/owner/${demo.user}`,
          `    curl -N '${base}/events/localhost?owner=${demo.user}'`,
        ]
      : []),
    ...(receiver
      ? [
          "",
          `  Webhooks: ${receiver.verified} signed deliveries of the demo user's transfers arrived at a local receiver and verified`,
          `    (${receiver.url}, subscribed at start; each new one is printed below as it arrives: docs/reference/webhooks.md)`,
        ]
      : []),
    ...(demoClient ? loginLines(base, demoClient, demo?.user, config.dataDir) : []),
    ...(demo && node
      ? [
          "",
          "  Convert Alice 1 to Bob 1 as the user, in one transaction (the events stream above shows it, and the local webhook receiver prints it):",
          `    RPC_URL_LOCALHOST=${chainUrl} SIGNER_INDEX=1 npx hardhat convert --alice-id 1 --network localhost --converter ${demo.converter}`,
        ]
      : []),
    "",
    "  Ctrl-C stops everything.",
    "",
  ];
  console.log(lines.join("\n"));
}
