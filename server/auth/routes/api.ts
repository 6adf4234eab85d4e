import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { authorize, redeem, type LoginDeps } from "../login";
import { RATE_LIMITED } from "./rate-limited";
import { ErrorBody } from "../../http/schemas";

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
  signature: Type.String({
    description: "EIP-191 personal_sign signature (65 bytes), EIP-1271 wallet signature or EIP-6492 wrapper",
    maxLength: 65_536,
  }),
  client_id: Type.String({ maxLength: 256 }),
  redirect_uri: Str("Narrows the challenge to this redirect URI"),
  state: Str("Echoed in the answer and the redirect URL (falls back to the one given to /api/authorize)", 1024),
  network: Str("Chain on which a contract wallet is asked (defaults to the challenge's)", 64),
  message: Str("The message signed (optional: the open challenges of address and client are tried)", 4096),
});

/** The login's JSON API, which dApps and the hosted page use (docs/login.md). */
const apiRoutes: FastifyPluginAsyncTypebox<{ login: LoginDeps }> = async (app, { login }) => {
  const tags = ["login"];

  app.get(
    "/api/authorize",
    {
      config: RATE_LIMITED,
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
      return { message: await authorize(login, request.query, request.ip) };
    },
  );

  app.post(
    "/api/login",
    {
      config: RATE_LIMITED,
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
      const { code, redirectUrl, state } = await redeem(login, request.body, request.ip);
      return { code, redirect_url: redirectUrl, state };
    },
  );
};

export default apiRoutes;
