import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import formbody from "@fastify/formbody";
import rateLimit from "@fastify/rate-limit";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { hashMessage, isHexString } from "ethers";
import { verifyEoa, verifySignature } from "../chain/signatures";
import { toErrorReply } from "../http/errors";
import { badRequest, HttpError } from "../http/http-error";
import { parseAddress } from "../http/wire";
import { clientAuthentication, holdWrites, insertHeldWrites, inRequestScope, LEGACY_PATH } from "./adapter";
import clientInfoRoutes from "./client-info";
import { consumeChallenge, openChallenges, requesterOf, saveChallenge } from "./challenges";
import { findClient, findClientCached, type LoginClient } from "./clients";
import { loadKeys, publicPems } from "./keys";
import { recordLogin } from "./logins";
import { checkForm, errorPage, pinToIssuer, withBody } from "./oidc-guard";
import { CHALLENGE_TTL_MS, FORMATS, LANGS, loginMessage, newRandom, siweMessage, siweStatement, type Lang, type MessageFormat } from "./messages";
import { hostedPage, PAGE_ASSETS } from "./page";
import { createProvider, mintCode, OIDC_ROUTES, SCOPES, subjectFor } from "./provider";

const Str = (description: string, maxLength = 2048) => Type.Optional(Type.String({ description, maxLength }));

const AuthorizeQuery = Type.Object({
  client_id: Str("Registered client id", 256),
  redirect_uri: Str("One of the client's redirect URIs, byte for byte"),
  response_type: Str('"code"', 64),
  scope: Str('Space-separated; must contain "openid" (profile and offline_access are also granted)', 512),
  address: Str("The address that will sign", 64),
  state: Str("Opaque value echoed in the redirect", 1024),
  nonce: Str("Echoed in the ID token", 1024),
  code_challenge: Str("PKCE S256 challenge (required for public clients)", 128),
  code_challenge_method: Str('"S256"', 16),
  lang: Str('"en" (default) or "ja"', 8),
  message_format: Str('"text" (default: the four-line message) or "siwe" (EIP-4361)', 8),
  network: Str("Chain whose wallet contracts are asked (EIP-1271); also the SIWE Chain ID", 64),
});

const LoginBody = Type.Object({
  address: Type.String({ description: "The address that signed", maxLength: 64 }),
  signature: Type.String({ description: "EIP-191 personal_sign signature (65 bytes), EIP-1271 wallet signature or EIP-6492 wrapper", maxLength: 65_536 }),
  client_id: Type.String({ maxLength: 256 }),
  redirect_uri: Str("Narrows the challenge to this redirect URI"),
  state: Str("Echoed in the answer and the redirect URL (falls back to the one given to /api/authorize)", 1024),
  network: Str("Chain on which a contract wallet is asked (defaults to the challenge's)", 64),
  message: Str("The message signed (optional: the open challenges of address and client are tried)", 4096),
});

const ErrorBody = Type.Object({ error: Type.String(), message: Type.String() });
const OAuthError = Type.Object({ error: Type.String(), error_description: Type.String() });

/**
 * The login service (README, "Login service"): the JSON API (`/api/authorize`, `/api/login`) that dApps and the hosted page use,
 * oidc-provider mounted for the standard endpoints, the predecessor's `/api/token` and `/api/metadata/x509`.
 */
const auth: FastifyPluginAsyncTypebox = async (app) => {
  const { issuer, login: settings } = app.config;
  const keys = await loadKeys(app.db, settings.jwks);
  const provider = await createProvider(app.config, app.db, keys);
  const oidc = provider.callback();
  const pems = await publicPems(keys.signing);
  const issuerUrl = new URL(issuer);
  const issuerHost = issuerUrl.host;
  const tags = ["login"];

  // Forms (the predecessor's clients, the token endpoint) in this plugin's scope only.
  await app.register(formbody);
  await app.register(rateLimit, {
    global: false,
    max: settings.rateLimit,
    timeWindow: 60_000,
    // Counters are per instance: a limit against floods from one address, not an exact budget across instances.
    keyGenerator: (request) => request.ip,
  });
  const limited = { rateLimit: {} };

  app.get(
    "/api/authorize",
    {
      config: limited,
      schema: {
        tags,
        summary: "A message for the address to sign, bound to this authorization request",
        querystring: AuthorizeQuery,
        response: { 200: Type.Object({ message: Type.String() }), "4xx": ErrorBody },
      },
    },
    async (request, reply) => {
      // Answers are single-use secrets in the making (challenges, codes): never cached (RFC 6749 §5.1).
      reply.header("cache-control", "no-store");
      const q = request.query;
      const client = await knownClient(q.client_id);
      const redirectUri = registeredRedirect(client, q.redirect_uri);
      if (q.response_type !== "code") throw badRequest("unsupported_response_type", 'response_type must be "code"');
      const scope = grantedScope(q.scope);
      if (q.address === undefined) throw badRequest("invalid_request", "address is required");
      const address = parseAddress(q.address);
      const lang = oneOf(q.lang ?? "en", LANGS, "invalid_lang", 'lang must be "en" or "ja"') as Lang;
      const format = oneOf(q.message_format ?? "text", FORMATS, "invalid_request", 'message_format must be "text" or "siwe"') as MessageFormat;
      const network = app.networks.info(q.network ?? app.config.defaultNetwork);
      const pkce = readPkce(client, q.code_challenge, q.code_challenge_method);

      const now = new Date();
      const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
      const statement = siweStatement(client.name, issuerHost);
      const message =
        format === "siwe"
          ? siweMessage({ issuer, address, chainId: network.chainId, random: newSiweNonce(), issuedAt: now, expiresAt, redirectUri, statement })
          : loginMessage({ header: settings.messageHeader, clientName: client.name, issuerHost, random: newRandom(), lang });
      let saved: boolean;
      try {
        saved = await saveChallenge(
          app.db,
          {
            address,
            clientId: client.id,
            redirectUri,
            scope,
            state: q.state ?? null,
            nonce: q.nonce ?? null,
            codeChallenge: pkce?.challenge ?? null,
            codeChallengeMethod: pkce?.method ?? null,
            network: network.name,
            message,
            format,
            requester: requesterOf(request.ip),
          },
          expiresAt,
          settings.maxOpenChallenges,
        );
      } catch (error) {
        // The client was removed a moment ago (this instance had it cached).
        if ((error as { code?: string }).code === "23503") throw badRequest("invalid_client", "Unknown client_id");
        throw error;
      }
      if (!saved) {
        throw new HttpError(429, "too_many_challenges", `This client address holds ${settings.maxOpenChallenges} open sign-in messages; sign or wait for one to expire (5 minutes)`, { "retry-after": "60" });
      }
      return { message };
    },
  );

  app.post(
    "/api/login",
    {
      config: limited,
      schema: {
        tags,
        summary: "Redeem a signed message for an authorization code",
        body: LoginBody,
        response: {
          200: Type.Object({ code: Type.String(), redirect_url: Type.String(), state: Type.Union([Type.String(), Type.Null()]) }),
          "4xx": ErrorBody,
          "5xx": ErrorBody,
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const body = request.body;
      const address = parseAddress(body.address);
      if (body.network !== undefined) app.networks.info(body.network);
      // Challenges exist only for registered clients (foreign key), so the client is looked up only to explain a miss.
      const candidates = await openChallenges(app.db, {
        address,
        clientId: body.client_id,
        requester: requesterOf(request.ip),
        redirectUri: body.redirect_uri,
        message: body.message,
      });
      if (candidates.length === 0) {
        await knownClient(body.client_id);
        throw new HttpError(401, "invalid_challenge", "No open sign-in message for this address and client: ask /api/authorize for one (messages expire after 5 minutes and work once)");
      }
      for (const challenge of candidates) {
        let network = body.network ?? challenge.network;
        if (challenge.format === "siwe" && app.networks.info(network).chainId !== app.networks.info(challenge.network).chainId) {
          // The signed EIP-4361 text names its chain: the wallet is asked on that chain, not another.
          if (body.message !== undefined) throw badRequest("network_mismatch", `The message was issued for network ${challenge.network}`);
          network = challenge.network;
        }
        const chainId = app.networks.info(network).chainId;
        const result = await verify(network, address, challenge.message, body.signature);
        if (!result.ok) {
          if (result.reason === "malformed_signature") throw badRequest("malformed_signature", `signature: ${result.message}`);
          continue;
        }
        const sub = subjectFor(address, result.kind, chainId);
        const mint = () =>
          mintCode(provider, {
            clientId: challenge.clientId,
            sub,
            redirectUri: challenge.redirectUri,
            scope: challenge.scope,
            nonce: challenge.nonce,
            codeChallenge: challenge.codeChallenge,
            codeChallengeMethod: challenge.codeChallengeMethod,
          });
        // The code and its grant are stored by the statement that redeems the challenge (nothing is stored when it
        // was already used): one round trip instead of three.
        const held = LEGACY_PATH ? undefined : await holdWrites(mint);
        if (!(await consumeChallenge(app.db, challenge.id, held && ((condition, first) => insertHeldWrites(held.writes, condition, first))))) {
          throw new HttpError(401, "invalid_challenge", "This sign-in message was already used or has expired");
        }
        const code = held ? held.result : await mint();
        await recordLogin(app.db, sub, challenge.clientId);
        const state = body.state ?? challenge.state;
        const params = new URLSearchParams({ code, ...(state !== null ? { state } : {}), iss: issuer });
        // Appended to the registered URI as registered (no URL normalization), keeping its own query.
        const redirectUrl = `${challenge.redirectUri}${challenge.redirectUri.includes("?") ? "&" : "?"}${params}`;
        return { code, redirect_url: redirectUrl, state };
      }
      throw new HttpError(401, "invalid_signature", "The signature does not prove this address signed an open sign-in message of this client");
    },
  );

  app.get(
    "/api/metadata/x509",
    { schema: { tags, summary: "ID-token public keys as {kid: PEM} (the predecessor's key endpoint)", response: { 200: Type.Record(Type.String(), Type.String()) } } },
    async () => pems,
  );

  await app.register(clientInfoRoutes);

  // --- oidc-provider ---------------------------------------------------------------------------------------

  /**
   * oidc-provider's routes, in a scope where Fastify leaves request bodies unread: oidc-provider reads them itself
   * and answers malformed ones in RFC 6749 form. Fastify still applies rate limits and our error shape for the rest.
   */
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
    // Forms are read here so they can be checked like any input (input guard) before oidc-provider stores a value.
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "buffer", bodyLimit: 56 * 1024 }, (_request, body, done) => done(null, body));
    scope.addHook("preHandler", async (request) => {
      if (Buffer.isBuffer(request.body)) checkForm(request.body);
    });

    const forward = (request: FastifyRequest, reply: FastifyReply, url?: string) => {
      if (url) request.raw.url = url;
      reply.raw.setHeader("x-request-id", request.id);
      reply.hijack();
      pinToIssuer(request.raw, issuerUrl, request.ip);
      const raw = Buffer.isBuffer(request.body) ? withBody(request.raw, request.body) : request.raw;
      const basic = /^basic\s/i.test(request.headers.authorization ?? "");
      clientAuthentication.run({ basic }, () => inRequestScope(() => oidc(raw, reply.raw as ServerResponse)));
    };
    // Our own refusals on the authorization endpoint, as the browser page oidc-provider shows for its own.
    const pageErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const { status, body, headers } = toErrorReply(error, request);
      return reply.code(status).headers({ ...headers, "cache-control": "no-store" }).type("text/html; charset=utf-8").send(errorPage(body.error, body.message));
    };
    const oauthErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const { status, body, headers } = toErrorReply(error, request);
      reply.headers(headers);
      return oauthError(reply, status, status === 429 || status >= 500 ? body.error : "invalid_request", body.message);
    };

    for (const path of [OIDC_ROUTES.token, "/api/token"]) {
      scope.post(
        path,
        {
          config: limited,
          errorHandler: oauthErrors,
          schema: {
            tags,
            summary: path === "/api/token" ? "Token endpoint (the predecessor's path)" : "Token endpoint (oidc-provider)",
            description: "Form body: grant_type authorization_code (code, redirect_uri, code_verifier) or refresh_token (refresh_token); client secret in a Basic header or as client_id + client_secret.",
            response: { "4xx": OAuthError },
          },
        },
        (request, reply) => forward(request, reply, OIDC_ROUTES.token),
      );
    }
    scope.post(OIDC_ROUTES.revocation, { config: limited, errorHandler: oauthErrors, schema: { hide: true } }, (request, reply) => forward(request, reply));
    scope.route({
      method: ["GET", "POST"],
      url: OIDC_ROUTES.authorization,
      config: limited,
      errorHandler: pageErrors,
      schema: { hide: true },
      handler: (request, reply) => {
        // oidc-provider takes a POSTed authorization request as a form only, and answers anything else with a bare 404.
        if (request.method === "POST" && !Buffer.isBuffer(request.body)) throw badRequest("invalid_request", "POST /authorize takes a form body (application/x-www-form-urlencoded)");
        forward(request, reply);
      },
    });
    scope.route({ method: ["GET", "POST"], url: OIDC_ROUTES.userinfo, errorHandler: oauthErrors, schema: { hide: true }, handler: (request, reply) => forward(request, reply) });
    // The predecessor's path of the same endpoint (its Go client's GetUserInfo).
    scope.route({ method: ["GET", "POST"], url: "/api/userinfo", errorHandler: oauthErrors, schema: { hide: true }, handler: (request, reply) => forward(request, reply, OIDC_ROUTES.userinfo) });
    for (const path of ["/.well-known/openid-configuration", OIDC_ROUTES.jwks]) {
      // The same for everyone (URLs from ISSUER, public keys): shared caches may keep them a while.
      scope.get(path, { errorHandler: oauthErrors, schema: { hide: true } }, (request, reply) => {
        reply.raw.setHeader("cache-control", "public, max-age=300");
        forward(request, reply);
      });
    }
  });

  // --- hosted login page -----------------------------------------------------------------------------------

  app.get("/interaction/:uid", { schema: { hide: true, params: Type.Object({ uid: Type.String({ maxLength: 64 }) }) } }, async (request, reply) => {
    let params: Record<string, unknown>;
    try {
      // Checks the interaction cookie oidc-provider set on this browser: the uid alone does not open it.
      params = (await provider.interactionDetails(request.raw, reply.raw)).params;
    } catch {
      return hostedPage(reply, { error: true, acceptLanguage: request.headers["accept-language"] });
    }
    // The page hands the code back in the query only (the code flow's default response mode).
    if (params.response_mode !== undefined && params.response_mode !== "query") {
      return hostedPage(reply, { error: true, acceptLanguage: request.headers["accept-language"], problem: `response_mode=${String(params.response_mode)} is not supported; use query` });
    }
    const client = typeof params.client_id === "string" ? await findClient(app.db, params.client_id) : undefined;
    return hostedPage(reply, { params, clientName: client?.name, acceptLanguage: request.headers["accept-language"], networks: app.networks });
  });
  for (const [path, asset] of Object.entries(PAGE_ASSETS)) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) => reply.type(asset.type).header("cache-control", "public, max-age=300").send(asset.body));
  }

  // --- helpers ---------------------------------------------------------------------------------------------

  /** verifySignature, which proves an EOA by recovery before asking the node (an EOA login costs no RPC call). */
  async function verify(network: string, address: string, message: string, signature: string) {
    if (LEGACY_PATH && isHexString(signature, 65)) {
      const quick = verifyEoa(address, hashMessage(message), signature);
      if (quick.ok) return quick;
    }
    return verifySignature({ provider: () => app.networks.provider(network), network, address, message, signature });
  }

  async function knownClient(id: string | undefined): Promise<LoginClient> {
    if (id === undefined) throw badRequest("invalid_request", "client_id is required");
    const client = await findClientCached(app.db, id);
    if (!client) throw badRequest("invalid_client", "Unknown client_id");
    return client;
  }
};

/** RFC 6749 §3.1.2.3: the exact string registered, compared byte for byte. A mismatch is an error, never a redirect. */
function registeredRedirect(client: LoginClient, uri: string | undefined): string {
  if (uri === undefined) throw badRequest("invalid_request", "redirect_uri is required");
  if (!client.redirectUris.includes(uri)) throw badRequest("invalid_redirect_uri", "redirect_uri is not registered for this client");
  return uri;
}

function grantedScope(scope: string | undefined): string {
  const asked = (scope ?? "").split(" ").filter(Boolean);
  if (!asked.includes("openid")) throw badRequest("invalid_scope", 'scope must contain "openid"');
  return SCOPES.filter((s) => asked.includes(s)).join(" ");
}

function oneOf(value: string, allowed: readonly string[], code: string, message: string): string {
  if (!allowed.includes(value)) throw badRequest(code, message);
  return value;
}

/** PKCE of RFC 7636 with S256 only (plain would let an eavesdropper of the request redeem the code). */
function readPkce(client: LoginClient, challenge: string | undefined, method: string | undefined): { challenge: string; method: "S256" } | undefined {
  if (challenge === undefined) {
    if (method !== undefined) throw badRequest("invalid_request", "code_challenge_method without code_challenge");
    if (client.public) throw badRequest("invalid_request", "PKCE is required for public clients: send code_challenge and code_challenge_method=S256");
    return undefined;
  }
  if (method !== "S256") throw badRequest("invalid_request", 'code_challenge_method must be "S256"');
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) throw badRequest("invalid_request", "code_challenge must be the 43-character base64url SHA-256 of the verifier");
  return { challenge, method: "S256" };
}

/** EIP-4361 nonces are alphanumeric: 32 hex digits carry the same 128 bits as the text message's random. */
function newSiweNonce(): string {
  return randomBytes(16).toString("hex");
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string, headers: Record<string, string> = {}) {
  return reply.code(status).headers({ "cache-control": "no-store", ...headers }).type("application/json; charset=utf-8").send({ error, error_description: description });
}

export default auth;
