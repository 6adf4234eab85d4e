import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { authorize, redeem, type LoginDeps } from "../login";
import { COUNTED_IN_STATEMENT } from "./rate-limited";
import { DATABASE_WRITE, JSON_BODY, refusals } from "../../http/refusals";
import { example, type ExampleName } from "../../http/openapi-examples";

/** An optional string field with its example: a value, or the name of a deployment's example. */
const Str = (description: string, maxLength: number, sample: string | { name: ExampleName }) =>
  Type.Optional(Type.String({ description, maxLength, ...(typeof sample === "string" ? { examples: [sample] } : example(sample.name)) }));

const AuthorizeQuery = Type.Object({
  client_id: Str("Registered client id", 256, { name: "clientId" }),
  redirect_uri: Str("One of the client's redirect URIs, byte for byte", 2048, { name: "redirectUri" }),
  response_type: Str('"code"', 64, "code"),
  scope: Str('Space-separated; must contain "openid" (profile, offline_access, siwe and holdings are also granted)', 512, "openid"),
  address: Str("The address that will sign", 64, { name: "owner" }),
  state: Str("Opaque value echoed in the redirect", 1024, "af0ifjsldkj"),
  nonce: Str("Echoed in the ID token", 1024, "n-0S6_WzA2Mj"),
  code_challenge: Str("PKCE S256 challenge (required for public clients)", 128, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
  code_challenge_method: Str('"S256"', 16, "S256"),
  lang: Str('"en" (default) or "ja"', 8, "en"),
  message_format: Str('"text" (default: the four-line message) or "siwe" (EIP-4361)', 8, "text"),
  network: Str("Chain whose wallet contracts are asked (EIP-1271); also the SIWE Chain ID", 64, { name: "network" }),
  claims: Str(
    'OpenID Connect claims request parameter (JSON): {"id_token": {"holdings": {"collections": [...]}}} asks for the holdings claim of these collections, for this login',
    4096,
    '{"id_token":{"holdings":null}}',
  ),
});

const Opt = (description: string, maxLength: number) => Type.Optional(Type.String({ description, maxLength }));

const LoginBody = Type.Object(
  {
    address: Type.String({ description: "The address that signed", maxLength: 64 }),
    signature: Type.String({
      description: "EIP-191 personal_sign signature (65 bytes), EIP-1271 wallet signature or EIP-6492 wrapper",
      maxLength: 65_536,
    }),
    client_id: Type.String({ maxLength: 256 }),
    redirect_uri: Opt("Narrows the challenge to this redirect URI", 2048),
    state: Opt("Echoed in the answer and the redirect URL (falls back to the one given to /api/authorize)", 1024),
    network: Opt("Chain on which a contract wallet is asked (defaults to the challenge's)", 64),
    message: Opt("The message signed (optional: the open challenges of address and client are tried)", 4096),
    lang: Opt('Language of a gate\'s refusal: "en" (default) or "ja"', 8),
  },
  // The signature must be the wallet's, over a message /api/authorize just handed out: the example shows the shape.
  example("loginRequest"),
);

/** The login's JSON API, which dApps and the hosted page use (docs/reference/login.md). */
const apiRoutes: FastifyPluginAsyncTypebox<{ login: LoginDeps }> = async (app, { login }) => {
  const tags = ["login"];

  app.get(
    "/api/authorize",
    {
      config: COUNTED_IN_STATEMENT,
      schema: {
        tags,
        summary: "A message for the address to sign, bound to this authorization request",
        description:
          "Step 1 of a login without the hosted page (docs/reference/login.md): checks the request as /authorize would and answers the " +
          "message the address signs with personal_sign (the four-line text, or SIWE). The message works once, within 5 minutes; " +
          "each address holds a bounded number of open messages per client (429 `too_many_challenges`). Never cached (no-store). " +
          "Counts against LOGIN_RATE_LIMIT.",
        querystring: AuthorizeQuery,
        response: {
          200: Type.Object({ message: Type.String() }),
          ...refusals(
            "invalid_client",
            "invalid_redirect_uri",
            "unsupported_response_type",
            "invalid_scope",
            "invalid_address",
            "invalid_lang",
            "unknown_network",
            "unindexed_network",
            "too_many_requests",
            "too_many_challenges",
            ...DATABASE_WRITE,
          ),
        },
      },
    },
    async (request, reply) => {
      // Answers are single-use secrets in the making (challenges, codes): never cached (RFC 6749 §5.1).
      reply.header("cache-control", "no-store");
      return { message: await authorize(login, request.query, { ip: request.ip, count: request.countInStatement?.statement }) };
    },
  );

  app.post(
    "/api/login",
    {
      config: COUNTED_IN_STATEMENT,
      schema: {
        tags,
        summary: "Redeem a signed message for an authorization code",
        description:
          "Step 2: the signature of a message /api/authorize handed out (an EOA's, or a contract wallet's checked on its " +
          "network's node, EIP-1271/6492) becomes an authorization code, which the dApp's backend exchanges at /api/token. " +
          "The example body shows the shape only: its signature is no one's, so it is refused (401 `invalid_challenge` or " +
          "`invalid_signature`); sign the message of step 1 in a wallet. Never cached (no-store). Counts against LOGIN_RATE_LIMIT.",
        body: LoginBody,
        response: {
          200: Type.Object({ code: Type.String(), redirect_url: Type.String(), state: Type.Union([Type.String(), Type.Null()]) }),
          ...refusals(
            ...JSON_BODY,
            "invalid_client",
            "invalid_redirect_uri",
            "invalid_address",
            "invalid_lang",
            "unknown_network",
            "malformed_signature",
            "network_mismatch",
            "unsupported_network",
            "invalid_challenge",
            "invalid_signature",
            "access_denied",
            "too_many_requests",
            "upstream_error",
            "upstream_timeout",
            "upstream_rate_limited",
            ...DATABASE_WRITE,
          ),
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const { code, redirectUrl, state } = await redeem(login, request.body, {
        ip: request.ip,
        count: request.countInStatement?.statement,
      });
      return { code, redirect_url: redirectUrl, state };
    },
  );
};

export default apiRoutes;
