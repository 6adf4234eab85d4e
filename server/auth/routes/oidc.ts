import type { ServerResponse } from "node:http";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { toErrorReply } from "../../http/errors";
import { PAGE_HEADERS } from "../../http/html-page";
import { HttpError } from "../../http/http-error";
import { invalidRequest } from "../errors";
import { logoutRequestCsp } from "../logout-page";
import { errorPage } from "../error-page";
import { checkForm, pinToIssuer, withBody } from "../oidc-guard";
import { inRequestScope, OIDC_ROUTES, type Provider } from "../oidc";
import { sendOAuthError } from "./oauth-error";
import { COUNTED_IN_STATEMENT, RATE_LIMITED } from "./rate-limited";
import { OAUTH_LIMITS, oauthRefusals } from "../../http/refusals";
import { example } from "../../http/openapi-examples";
import type { SwaggerTransform } from "@fastify/swagger";

/** The token endpoint's refusals (oidc-provider's, and ours in its dialect). */
const TOKEN_REFUSALS = oauthRefusals({
  400: {
    invalid_request: "a field is missing or malformed, the body is not a form, or a public client asked for client_credentials",
    invalid_grant: "the code or refresh token is unknown, used, expired, or was issued to another client or redirect_uri (or PKCE failed)",
    unsupported_grant_type: "grant_type is not authorization_code, refresh_token or client_credentials",
  },
  401: { invalid_client: "the client is unknown or its secret is wrong" },
  500: { server_error: "our fault: the details are in the log under the x-request-id" },
  ...OAUTH_LIMITS,
});

const Field = (description: string) => Type.Optional(Type.String({ description }));

/** The token endpoint's form, as oidc-provider reads it. */
const TokenForm = Type.Object(
  {
    grant_type: Type.String({
      description: "authorization_code, refresh_token, or client_credentials (a confidential client's own token)",
    }),
    code: Field("authorization_code: the code /api/login answered (it works once)"),
    redirect_uri: Field("authorization_code: the redirect_uri the code was asked for"),
    code_verifier: Field("authorization_code: the PKCE verifier, when the code was asked with a code_challenge"),
    refresh_token: Field("refresh_token: the refresh token a previous answer gave"),
    client_id: Field("The client, when its secret is not in a Basic header"),
    client_secret: Field("The client's secret, when not in a Basic header"),
  },
  example("tokenRequest"),
);

/**
 * The token endpoint's form for the OpenAPI document only: in this scope Fastify leaves bodies to oidc-provider, so a
 * body schema on the route would be checked against an unread body.
 */
const documentTokenForm: SwaggerTransform = ({ schema, url }) => ({
  schema: { ...schema, body: TokenForm, consumes: ["application/x-www-form-urlencoded"] } as typeof schema,
  url,
});

/**
 * oidc-provider's routes (token, revocation, authorization, userinfo, discovery, jwks), in a scope where Fastify leaves
 * request bodies unread: oidc-provider reads them itself and answers malformed ones in RFC 6749 form. Fastify still
 * applies rate limits and our error shape for the rest: RFC 6749's `{error, error_description}`, or on the
 * authorization endpoint, which a browser shows, an HTML page.
 */
const oidcRoutes: FastifyPluginAsyncTypebox<{ provider: Provider; issuer: string }> = async (scope, { provider, issuer }) => {
  const oidc = provider.callback();
  const issuerUrl = new URL(issuer);
  const tags = ["login"];

  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
  // Forms are read here so they can be checked like any input (input guard) before oidc-provider stores a value.
  scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "buffer", bodyLimit: 56 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
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
    inRequestScope({ basic, count: request.countInStatement }, () => oidc(raw, reply.raw as ServerResponse));
  };

  for (const path of [OIDC_ROUTES.token, "/api/token"]) {
    scope.post(
      path,
      {
        config: { ...COUNTED_IN_STATEMENT, swaggerTransform: documentTokenForm },
        errorHandler: oauthErrors,
        schema: {
          tags,
          summary: path === "/api/token" ? "Token endpoint (the predecessor's path)" : "Token endpoint (oidc-provider)",
          description:
            "Step 3 of a login, from the dApp's backend: a form body (application/x-www-form-urlencoded), grant_type " +
            "authorization_code (code, redirect_uri, code_verifier) or refresh_token (refresh_token); the client secret in a " +
            "Basic header or as client_id + client_secret. Answers access, ID and refresh tokens (no-store). Refusals are " +
            "RFC 6749's `{error, error_description}`. A code comes from /api/login and works once, so the example shows the " +
            "form's fields only: see docs/reference/login.md. Counts against LOGIN_RATE_LIMIT.",
          response: {
            200: Type.Object({
              access_token: Type.String(),
              token_type: Type.Literal("Bearer"),
              expires_in: Type.Integer({ description: "Seconds" }),
              id_token: Type.Optional(Type.String({ description: "JWT (authorization_code grant)" })),
              refresh_token: Type.Optional(Type.String()),
              scope: Type.String(),
            }),
            ...TOKEN_REFUSALS,
          },
        },
      },
      (request, reply) => forward(request, reply, OIDC_ROUTES.token),
    );
  }
  for (const path of [OIDC_ROUTES.revocation, OIDC_ROUTES.introspection]) {
    scope.post(path, { config: RATE_LIMITED, errorHandler: oauthErrors, schema: { hide: true } }, (request, reply) =>
      forward(request, reply),
    );
  }
  scope.route({
    method: ["GET", "POST"],
    url: OIDC_ROUTES.authorization,
    config: RATE_LIMITED,
    errorHandler: pageErrors,
    schema: { hide: true },
    handler: (request, reply) => {
      refusePost(request);
      forward(request, reply);
    },
  });
  scope.route({
    method: ["GET", "POST"],
    url: OIDC_ROUTES.userinfo,
    errorHandler: oauthErrors,
    schema: { hide: true },
    handler: (request, reply) => forward(request, reply),
  });
  // The predecessor's path of the same endpoint (its Go client's GetUserInfo).
  scope.route({
    method: ["GET", "POST"],
    url: "/api/userinfo",
    errorHandler: oauthErrors,
    schema: { hide: true },
    handler: (request, reply) => forward(request, reply, OIDC_ROUTES.userinfo),
  });
  // RP-initiated logout: the request (a page that posts itself on), its confirmation and the page after it.
  const logoutPage = { config: RATE_LIMITED, errorHandler: pageErrors, schema: { hide: true } };
  scope.route({
    ...logoutPage,
    method: ["GET", "POST"],
    url: OIDC_ROUTES.end_session,
    handler: (request, reply) => {
      refusePost(request);
      // On the raw answer: oidc-provider writes it (the hash of its inline script is added to this policy).
      reply.raw.setHeader("content-security-policy", logoutRequestCsp(request.query, request.body));
      forward(request, reply);
    },
  });
  scope.post(`${OIDC_ROUTES.end_session}/confirm`, logoutPage, (request, reply) => {
    requireForm(request);
    forward(request, reply);
  });
  scope.get(`${OIDC_ROUTES.end_session}/success`, logoutPage, forward);
  for (const path of ["/.well-known/openid-configuration", OIDC_ROUTES.jwks]) {
    // The same for everyone (URLs from ISSUER, public keys): shared caches may keep them a while.
    scope.get(path, { errorHandler: oauthErrors, schema: { hide: true } }, (request, reply) => {
      reply.raw.setHeader("cache-control", "public, max-age=300");
      forward(request, reply);
    });
  }
};

/**
 * oidc-provider takes the authorization and logout requests by GET only (POST would need its cookies sent on
 * cross-site POSTs, SameSite=None) and answers a POST with a bare 404 in plain text: a 405 page naming GET instead.
 */
function refusePost(request: FastifyRequest): void {
  if (request.method === "POST")
    throw new HttpError(405, "method_not_allowed", `${request.routeOptions.url} takes GET requests (query parameters), not POST`, {
      allow: "GET",
    });
}

/** oidc-provider answers a POST that is no form with a bare 404 in plain text: a 400 page saying what it takes. */
function requireForm(request: FastifyRequest): void {
  if (!Buffer.isBuffer(request.body))
    throw invalidRequest(`POST ${request.routeOptions.url} takes a form body (application/x-www-form-urlencoded)`);
}

/**
 * Our own refusals on the authorization and logout endpoints, as the browser page oidc-provider shows for its own. Its
 * link back goes to our root: the request is malformed or over its rate, and naming its client would cost a lookup.
 */
function pageErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body, headers } = toErrorReply(error, request);
  const query = request.query as Record<string, unknown> | undefined;
  const page = errorPage({
    error: body.error,
    description: body.message,
    uiLocales: query?.ui_locales,
    acceptLanguage: request.headers["accept-language"],
  });
  return reply
    .code(status)
    .headers({ ...headers, ...PAGE_HEADERS })
    .type("text/html; charset=utf-8")
    .send(page);
}

/** Our own refusals on the other endpoints, in RFC 6749's dialect: any client error is an `invalid_request`. */
function oauthErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body, headers } = toErrorReply(error, request);
  const code = status === 429 || status >= 500 ? body.error : "invalid_request";
  return sendOAuthError(reply, status, headers, code, body.message);
}

export default oidcRoutes;
