import path from "node:path";
import { HDNodeWallet } from "ethers";
import {
  defaultHardhatNetworkHdAccountsConfigParams as HARDHAT_ACCOUNTS,
  HARDHAT_NETWORK_MNEMONIC,
} from "hardhat/internal/core/config/default-config";
import { loadConfig } from "../server/config";
import { demoClientFile, readDemoClient } from "./demo-client";
import { isLoopbackUrl } from "./loopback";

/** The chain id of the Hardhat node `npm start` runs. */
const HARDHAT_CHAIN_ID = 31337;

/** Why demo-login does not log in: said in one line, and the process exits with 1. */
export class DemoLoginRefusal extends Error {}

export interface DemoLoginResult {
  issuer: string;
  /** Where a relying party gets the keys that check the ID token's signature (discovery's `jwks_uri`). */
  jwksUri: string;
  clientName: string;
  /** The demo user: Hardhat account #1, which holds the demo tokens. */
  user: string;
  idToken: string;
  /** The ID token's payload, decoded (the signature is not checked here: the relying party checks it with /jwks). */
  claims: Record<string, unknown>;
  userinfo: Record<string, unknown>;
}

/** Hardhat account #1, as the local node derives it: the demo user (local/demo.ts). Its key is public knowledge. */
export function demoUserKey(): HDNodeWallet {
  return HDNodeWallet.fromPhrase(HARDHAT_NETWORK_MNEMONIC, undefined, `${HARDHAT_ACCOUNTS.path}/1`);
}

/**
 * The whole JSON login of the demo user through the demo client, against the local demo at `base`: discovery,
 * `/api/authorize`, the signature, `/api/login`, `/api/token` with the client's secret, `/api/userinfo`. It refuses
 * anything but the local demo: a `base` or an issuer off this machine, a default network that is not the Hardhat
 * chain, or no demo client in `dataDir`. Nothing is sent before `base` is known to be this machine, and the secret
 * only once discovery and the message say it is the local demo.
 */
export async function demoLogin({ base, dataDir }: { base: string; dataDir: string }): Promise<DemoLoginResult> {
  const file = path.relative(process.cwd(), demoClientFile(dataDir)) || demoClientFile(dataDir);
  const client = readDemoClient(dataDir);
  if (!client) throw new DemoLoginRefusal(`no demo client in ${file}: start the local demo with \`npm start\` first`);
  if (!isLoopbackUrl(base))
    throw new DemoLoginRefusal(`${base} is not this machine: demo-login only logs in to the local demo of \`npm start\``);

  const discovery = await call<{ issuer: string; jwks_uri: string }>(base, "/.well-known/openid-configuration");
  if (typeof discovery.issuer !== "string" || !isLoopbackUrl(discovery.issuer))
    throw new DemoLoginRefusal(
      `${base} is not the local demo: its issuer is ${String(discovery.issuer)}, not a loopback URL (localhost, 127.0.0.1 or [::1])`,
    );

  const key = demoUserKey();
  const query = new URLSearchParams({
    client_id: client.id,
    redirect_uri: client.redirectUri,
    response_type: "code",
    scope: "openid",
    address: key.address,
    message_format: "siwe",
  });
  const { message } = await call<{ message: string }>(base, `/api/authorize?${query}`);
  // The message names the chain of the service's default network, which the login is for.
  const chainId = Number(/^Chain ID: (\d+)$/m.exec(message)?.[1]);
  if (chainId !== HARDHAT_CHAIN_ID)
    throw new DemoLoginRefusal(
      `${base} is not the local demo: its default network is chain ${chainId}, not the local Hardhat chain (${HARDHAT_CHAIN_ID})`,
    );

  const login = await call<{ code: string }>(base, "/api/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      address: key.address,
      signature: await key.signMessage(message),
      client_id: client.id,
      redirect_uri: client.redirectUri,
    }),
  });
  const tokens = await call<{ id_token: string; access_token: string }>(base, "/api/token", {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: login.code,
      redirect_uri: client.redirectUri,
      client_id: client.id,
      client_secret: client.secret,
    }),
  });
  const userinfo = await call<Record<string, unknown>>(base, "/api/userinfo", {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  return {
    issuer: discovery.issuer,
    jwksUri: discovery.jwks_uri,
    clientName: client.name,
    user: key.address,
    idToken: tokens.id_token,
    claims: JSON.parse(Buffer.from(tokens.id_token.split(".")[1], "base64url").toString("utf8")),
    userinfo,
  };
}

/** A JSON answer of the service; any other status than 200 stops the login with what the service said. */
async function call<T>(base: string, route: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(new URL(route, base), { ...init, redirect: "manual" });
  } catch (error) {
    const cause = (error as Error).cause as Error | undefined;
    throw new DemoLoginRefusal(`cannot reach ${base} (${cause?.message ?? (error as Error).message}): is \`npm start\` running?`);
  }
  const text = await response.text();
  if (response.status !== 200) throw new DemoLoginRefusal(`${route.split("?")[0]} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export function describeLogin(result: DemoLoginResult): string {
  return [
    `Logged in to ${result.issuer} as the demo user ${result.user} (Hardhat account #1) through the demo client "${result.clientName}".`,
    "",
    "ID token:",
    result.idToken,
    "",
    `Its claims (decoded here, not verified: a relying party checks the signature with the keys at ${result.jwksUri}):`,
    JSON.stringify(result.claims, null, 2),
    "",
    "userinfo (GET /api/userinfo with the access token):",
    JSON.stringify(result.userinfo, null, 2),
  ].join("\n");
}

/**
 * `npm run demo-login [-- <service URL>]`: the URL defaults to the issuer the service's own settings give (ISSUER, else
 * http://localhost:$PORT), the demo client is read from DATA_DIR's demo-client.json, as `npm start` wrote it.
 */
if (require.main === module) {
  const config = loadConfig(process.env, { exitOnError: true });
  const base = process.argv[2] ?? config.issuer;
  demoLogin({ base, dataDir: config.dataDir }).then(
    (result) => console.log(describeLogin(result)),
    (error: unknown) => {
      console.error(error instanceof DemoLoginRefusal ? `demo-login: ${error.message}` : error);
      process.exit(1);
    },
  );
}
