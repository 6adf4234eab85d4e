import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Challenge } from "../../../server/auth/challenges";
import { addClient, type ProfileChange } from "../../../server/auth/clients";
import { parseHoldingsConfig } from "../../../server/auth/holdings";
import type { SubjectFormat } from "../../../server/auth/subjects";
import type { DatabaseConfig } from "../../../server/config";
import { openDatabase, type Database } from "../../../server/db/database";
import * as oidc from "openid-client";
import { fetchJson, INJECT_ORIGIN, startTestApp, type TestApp, type TestAppOptions } from "../../helpers/app";
import { providerFor } from "../../helpers/chain";
import { freePort } from "../../../support/net";
import { deployTestSigners, type TestSigner, type TestSignerKind } from "../../helpers/signers";
import { createTestDatabase, openFreshPglite, type TestDatabase } from "../../helpers/database";

export { freePort };

/**
 * A database that the CLIs (each opening it as `npm run` does) and the service share: the test's PostgreSQL database,
 * or a PGlite directory (PGlite is one opener at a time, so the service must be closed while a CLI runs).
 */
export async function scriptDatabase(): Promise<{ database: TestDatabase; env: Record<string, string>; cleanup(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "login-"));
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    return {
      database,
      env: { DATABASE_URL: (database.config as { url: string }).url },
      cleanup: async () => {
        await database.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const config: DatabaseConfig = { kind: "pglite", dataDir: path.join(dir, "pglite") };
  // Laid out once here, so that the CLI runs do not each pay for creating it.
  await (await openFreshPglite(config.dataDir)).close();
  let opened: Database | undefined;
  const database: TestDatabase = {
    kind: "pglite",
    config,
    appOptions: async () => ({ database: config }),
    open: async () => (opened = await openDatabase(config)),
    drop: async () => opened?.close(),
  };
  return {
    database,
    env: { DATA_DIR: dir, DATABASE_URL: "" },
    cleanup: async () => {
      await opened?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The service with the login plugin, contract wallets asked on the local node. Its issuer is the URL it answers on:
 * with `listen: true`, 127.0.0.1 and a port picked before it starts (issuers must match URLs); otherwise the origin that
 * `t.fetch` pretends to reach through `app.inject`.
 */
export async function startLoginApp(nodeUrl: string, options: TestAppOptions = {}): Promise<TestApp> {
  const listening = options.listen === true || options.port !== undefined;
  // The issuer names the port, so it is chosen before listening; another test process may take it in between (parallel
  // workers): a few more free ports are tried then, each start cleaning up after itself.
  for (let attempt = 1; ; attempt++) {
    const port = listening ? (options.port ?? (await freePort())) : undefined;
    try {
      return await startTestApp({
        ...options,
        port,
        env: {
          RPC_URL_LOCALHOST: nodeUrl,
          DEFAULT_NETWORK: "localhost",
          ISSUER: port === undefined ? INJECT_ORIGIN : `http://127.0.0.1:${port}`,
          LOGIN_RATE_LIMIT: "100000",
          ...options.env,
        },
      });
    } catch (error) {
      const taken = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
      if (!taken || options.port !== undefined || attempt === 5) throw error;
    }
  }
}

export interface RegisteredClient {
  id: string;
  secret?: string;
  redirectUri: string;
  name: string;
}

export async function registerClient(
  t: TestApp,
  options: {
    name?: string;
    redirectUris?: string[];
    public?: boolean;
    profile?: ProfileChange;
    subjectFormat?: SubjectFormat;
    postLogoutRedirectUris?: string[];
  } = {},
): Promise<RegisteredClient> {
  const redirectUris = options.redirectUris ?? ["https://rp.example/callback"];
  const name = options.name ?? "Example RP";
  const { client, secret } = await addClient(t.app.db, {
    name,
    redirectUris,
    public: options.public ?? false,
    profile: options.profile,
    subjectFormat: options.subjectFormat,
    postLogoutRedirectUris: options.postLogoutRedirectUris,
  });
  return { id: client.id, secret, redirectUri: redirectUris[0], name };
}

export async function postJson(t: Pick<TestApp, "fetch">, path: string, payload: unknown) {
  return fetchJson(t, path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

export async function postForm(
  t: Pick<TestApp, "fetch">,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetchJson(t, path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

/** `/api/authorize`'s query for `address` to log in to `client` with scope openid (`extra` adds or replaces fields). */
export function authorizeQuery(client: { id: string; redirectUri: string }, address: string, extra: Record<string, string> = {}) {
  return new URLSearchParams({
    client_id: client.id,
    redirect_uri: client.redirectUri,
    response_type: "code",
    scope: "openid",
    address,
    ...extra,
  });
}

/**
 * One login through the JSON API: `/api/authorize` for `wallet`'s address, the wallet signs the message, `/api/login`
 * redeems it. Returns the login's answer (its `code` when it succeeded); the caller checks the status.
 */
export async function signedLogin(
  t: Pick<TestApp, "fetch">,
  client: { id: string; redirectUri: string },
  wallet: { address: string; signMessage(message: string): Promise<string> },
  extra: Record<string, string> = {},
) {
  const { body } = await fetchJson(t, `/api/authorize?${authorizeQuery(client, wallet.address, extra)}`);
  return postJson(t, `/api/login`, { address: wallet.address, signature: await wallet.signMessage(body.message), client_id: client.id });
}

/** The code exchange a confidential client's backend makes: `code` for tokens at `path` (the predecessor's is `/api/token`). */
export function exchangeCode(t: Pick<TestApp, "fetch">, client: RegisteredClient, code: string, path = "/token") {
  return postForm(t, path, {
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    client_id: client.id,
    client_secret: client.secret!,
  });
}

/** The refresh a confidential client's backend makes: `refreshToken` for new tokens at `path` (the predecessor's is `/api/token`). */
export function refreshTokens(t: Pick<TestApp, "fetch">, client: RegisteredClient, refreshToken: string, path = "/token") {
  return postForm(t, path, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: client.id,
    client_secret: client.secret!,
  });
}

/** The test wallets of every kind, deployed on the node at `nodeUrl` (the CREATE2 one left undeployed). */
export async function deploySigners(nodeUrl: string): Promise<Record<TestSignerKind, TestSigner>> {
  const provider = providerFor(nodeUrl);
  try {
    return await deployTestSigners(await provider.getSigner(0));
  } finally {
    provider.destroy();
  }
}

/**
 * What any OIDC relying party does before sending the browser: discovery, then an authorization request with PKCE,
 * nonce and state (openid-client v6).
 */
export async function relyingPartyRequest(
  t: TestApp,
  client: RegisteredClient,
  clientAuth: oidc.ClientAuth,
  extra: Record<string, string> = {},
) {
  const config = await oidc.discovery(new URL(t.config.issuer), client.id, undefined, clientAuth, {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: client.redirectUri,
    scope: "openid",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    nonce,
    state,
    ...extra,
  });
  return { config, verifier, nonce, state, url };
}

/**
 * The relying party's code exchange for the authorization response that came back to `redirectUrl`, checking the
 * PKCE verifier, nonce and state of `request` (relyingPartyRequest's) as any OIDC library does.
 */
export function relyingPartyCodeGrant(request: Awaited<ReturnType<typeof relyingPartyRequest>>, redirectUrl: string) {
  return oidc.authorizationCodeGrant(request.config, new URL(redirectUrl), {
    pkceCodeVerifier: request.verifier,
    expectedNonce: request.nonce,
    expectedState: request.state,
    idTokenExpected: true,
  });
}

/** A challenge's fields as authorize stores them (a text message of its own), for tests that save or remember one. */
export function challengeFields(requester: string, over: Partial<Omit<Challenge, "id">> = {}): Omit<Challenge, "id"> {
  return {
    address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    clientId: "rp",
    redirectUri: "https://rp.example/cb",
    scope: "openid",
    state: null,
    nonce: null,
    codeChallenge: null,
    codeChallengeMethod: null,
    network: "localhost",
    message: `a message for ${requester}`,
    format: "text",
    requester,
    holdings: null,
    ...over,
  };
}

/**
 * A whole login with openid-client as the relying party (the app must listen): discovery, an authorization request
 * with PKCE, nonce and state, the user's side through the JSON API with the request's own parameters and a SIWE
 * message (as the hosted page does), then the code exchange. Returns the tokens, the ID token's claims and the RP's
 * configuration.
 */
export async function relyingPartyLogin(
  t: TestApp,
  client: RegisteredClient,
  signer: { address: string; sign(message: string): Promise<string> },
  options: { scope?: string; clientAuth?: oidc.ClientAuth; extra?: Record<string, string> } = {},
) {
  const clientAuth = options.clientAuth ?? (client.secret ? oidc.ClientSecretPost(client.secret) : oidc.None());
  const request = await relyingPartyRequest(t, client, clientAuth, { scope: options.scope ?? "openid", ...options.extra });
  const query = new URLSearchParams(request.url.search);
  query.set("address", signer.address);
  query.set("message_format", "siwe");
  const challenge = await fetchJson(t, `/api/authorize?${query}`);
  if (challenge.status !== 200) throw new Error(`authorize: ${challenge.status} ${JSON.stringify(challenge.body)}`);
  const login = await postJson(t, `/api/login`, {
    address: signer.address,
    signature: await signer.sign(challenge.body.message),
    client_id: client.id,
    redirect_uri: client.redirectUri,
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  const tokens = await relyingPartyCodeGrant(request, login.body.redirect_url);
  return { config: request.config, tokens, claims: tokens.claims()!, message: challenge.body.message };
}

/** An ethers wallet as relyingPartyLogin's signer. */
export const eoaSigner = (wallet: { address: string; signMessage(message: string): Promise<string> }) => ({
  address: wallet.address,
  sign: (message: string) => wallet.signMessage(message),
});

/** A confidential client of https://rp.example/callback with `holdings` as `npm run client -- --holdings` takes them (on localhost). */
export async function registerHoldingsClient(t: TestApp, name: string, holdings: unknown): Promise<RegisteredClient> {
  const redirectUri = "https://rp.example/callback";
  const { client, secret } = await addClient(t.app.db, {
    name,
    redirectUris: [redirectUri],
    public: false,
    holdings: parseHoldingsConfig(holdings, ["localhost"]),
  });
  return { id: client.id, secret, redirectUri, name };
}

/** The block localhost's index is complete to. */
export async function localhostCursor(t: TestApp): Promise<number> {
  const { rows } = await t.app.db.query<{ b: string }>("SELECT block_number AS b FROM indexer_cursors WHERE network = 'localhost'");
  return Number(rows[0].b);
}
