// The example dApp's server: serves the page (src/app.tsx, bundled by esbuild when it starts), tells it where the
// service is, and exchanges a login's code for the ID token with the SDK's server entry, where the client secret stays.
//
// `npm run dapp` (beside `npm start`) runs it with the demo client `npm start` registered; see README.md.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";
// In your project: import { ApiError } from "wallet-login-nft-sdk"; import { createLoginServer } from "wallet-login-nft-sdk/server";
import { ApiError } from "../../sdk/src/index.ts";
import { createLoginServer } from "../../sdk/src/server.ts";

export interface DappOptions {
  /** The login and data service's URL, its issuer (`npm start`: http://localhost:3000). */
  service: string;
  network: string;
  clientId: string;
  clientSecret: string;
  /** The client's registered redirect URI; this server listens on its host and port. */
  redirectUri: string;
}

export interface Dapp {
  url: string;
  close(): Promise<void>;
}

/** How many logins may be under way at once, and for how long a nonce is good: every table here has a bound. */
const MAX_PENDING_NONCES = 1_000;
const NONCE_TTL_MS = 5 * 60_000;
const MAX_BODY_BYTES = 4_096;

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  let body = "";
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY_BYTES) throw new Refusal(413, "body_too_large", `a body over ${MAX_BODY_BYTES} bytes`);
  }
  try {
    const json = JSON.parse(body || "{}");
    if (typeof json === "object" && json !== null && !Array.isArray(json)) return json;
  } catch {
    // below
  }
  throw new Refusal(400, "malformed_json", "the body is not a JSON object");
}

/** Builds the page and listens on the redirect URI's host and port (0: any free one). */
export async function startDapp(options: DappOptions): Promise<Dapp> {
  const bundle = await build({
    entryPoints: [path.join(__dirname, "src", "app.tsx")],
    tsconfig: path.join(__dirname, "tsconfig.json"),
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0].text;
  const html = fs.readFileSync(path.join(__dirname, "src", "index.html"), "utf8");
  const config = JSON.stringify({
    service: options.service,
    network: options.network,
    clientId: options.clientId,
    redirectUri: options.redirectUri,
  });
  const login = createLoginServer({ issuer: options.service, clientId: options.clientId, clientSecret: options.clientSecret });
  const nonces = new Map<string, number>();

  function newNonce(): string {
    const now = Date.now();
    for (const [nonce, expires] of nonces) if (expires < now) nonces.delete(nonce);
    if (nonces.size >= MAX_PENDING_NONCES) throw new Refusal(503, "busy", "too many logins under way: try again in a minute");
    const nonce = randomBytes(16).toString("base64url");
    nonces.set(nonce, now + NONCE_TTL_MS);
    return nonce;
  }

  /** The wallet of a login's code, once: the code must be this client's and the ID token must carry a nonce we gave. */
  async function session(body: Record<string, unknown>): Promise<{ address: string }> {
    const { code, nonce } = body;
    if (typeof code !== "string" || typeof nonce !== "string") throw new Refusal(400, "invalid_request", "send {code, nonce}");
    const expires = nonces.get(nonce);
    nonces.delete(nonce);
    if (expires === undefined || expires < Date.now())
      throw new Refusal(400, "invalid_nonce", "this nonce was not given, is used or expired");
    try {
      const { claims } = await login.exchangeCode({ code, redirectUri: options.redirectUri, nonce });
      return { address: claims.address ?? claims.sub };
    } catch (error) {
      if (error instanceof ApiError) throw new Refusal(400, error.code, error.message);
      throw new Refusal(400, "invalid_id_token", (error as Error).message);
    }
  }

  async function answer(request: http.IncomingMessage): Promise<{ status: number; type: string; body: string }> {
    const { pathname } = new URL(request.url ?? "/", "http://dapp");
    if (request.method === "GET" && pathname === "/app.js") return { status: 200, type: "text/javascript", body: script };
    if (request.method === "GET" && pathname === "/config.json") return { status: 200, type: "application/json", body: config };
    if (request.method === "POST" && pathname === "/nonce")
      return { status: 200, type: "application/json", body: JSON.stringify({ nonce: newNonce() }) };
    if (request.method === "POST" && pathname === "/session") {
      return { status: 200, type: "application/json", body: JSON.stringify(await session(await readJson(request))) };
    }
    if (request.method === "GET" && (pathname === "/" || pathname === new URL(options.redirectUri).pathname)) {
      return { status: 200, type: "text/html", body: html };
    }
    throw new Refusal(404, "not_found", `no ${request.method} ${pathname} here`);
  }

  const server = http.createServer((request, response) => {
    answer(request).then(
      ({ status, type, body }) => response.writeHead(status, { "content-type": type }).end(body),
      (error) => {
        const refusal = error instanceof Refusal ? error : new Refusal(500, "internal_error", "something went wrong");
        response
          .writeHead(refusal.status, { "content-type": "application/json" })
          .end(JSON.stringify({ error: refusal.code, message: refusal.message }));
      },
    );
  });
  const { hostname, port } = new URL(options.redirectUri);
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(Number(port || 80), hostname, resolve));
  const url = `http://${hostname}:${(server.address() as AddressInfo).port}/`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** `npm run dapp`: against `npm start`'s service, with the demo client it registered (in DATA_DIR/demo-client.json). */
async function main(): Promise<void> {
  const service = process.env.SERVICE_URL ?? "http://localhost:3000";
  const file = path.join(process.env.DATA_DIR ?? ".data", "demo-client.json");
  if (!fs.existsSync(file))
    throw new Error(`${file} is not there: start the service with \`npm start\` first (it registers the demo client)`);
  const client = JSON.parse(fs.readFileSync(file, "utf8")) as { client_id: string; client_secret: string; redirect_uri: string };
  const dapp = await startDapp({
    service,
    network: process.env.NETWORK ?? "localhost",
    clientId: client.client_id,
    clientSecret: client.client_secret,
    redirectUri: client.redirect_uri,
  });
  console.log(`The example dApp: ${dapp.url} (service ${service})`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
