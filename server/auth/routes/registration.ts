import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { toErrorReply } from "../../http/errors";
import { authorizedToRegister, invalidInitialToken, registerClient, REGISTRATION_PATH } from "../registration";
import { sendOAuthError } from "./oauth-error";
import { RATE_LIMITED } from "./rate-limited";
import { example } from "../../http/openapi-examples";
import { OAUTH_LIMITS, oauthRefusals } from "../../http/refusals";

const REFUSALS = oauthRefusals({
  400: {
    invalid_client_metadata: "the body is not a JSON object of client metadata this service takes (the description says which field)",
  },
  401: { invalid_token: "no Bearer token, or not the initial access token" },
  413: { payload_too_large: "the body is over BODY_LIMIT" },
  415: { unsupported_media_type: "the body is not application/json" },
  ...OAUTH_LIMITS,
  500: { internal_error: "our fault: the details are in the log under the x-request-id" },
});

/** `POST /register`: dynamic client registration (RFC 7591), registration.ts. */
const registrationRoutes: FastifyPluginAsyncTypebox<{ accessToken: string }> = async (app, { accessToken }) => {
  app.post(
    REGISTRATION_PATH,
    {
      config: RATE_LIMITED,
      errorHandler: registrationErrors,
      // Before the body is read: who has no token learns nothing from how its metadata is judged, and costs no parsing.
      onRequest: async (request) => {
        if (!authorizedToRegister(request.headers.authorization, accessToken)) throw invalidInitialToken();
      },
      schema: {
        tags: ["login"],
        summary: "Dynamic client registration (RFC 7591), with the initial access token as a Bearer token",
        description:
          "Registers a relying party from its client metadata (RFC 7591) and answers it with client_id and client_secret " +
          "(shown once, no-store). Needs LOGIN_REGISTRATION_ACCESS_TOKEN as a Bearer token, checked before the body is read. " +
          "Refusals are RFC 7591's `{error, error_description}`. Counts against LOGIN_RATE_LIMIT.",
        body: Type.Record(Type.String(), Type.Unknown(), example("clientRegistration")),
        response: { 201: Type.Record(Type.String(), Type.Unknown()), ...REFUSALS },
      },
    },
    async (request, reply) => {
      const registered = await registerClient(app.db, request.body, app.networks.configured());
      return reply.code(201).header("cache-control", "no-store").send(registered);
    },
  );
};

/** RFC 7591 §3.2.2's shape; a body that is no JSON object is metadata that cannot be read. */
function registrationErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body, headers } = toErrorReply(error, request);
  const code = body.error === "invalid_request" || body.error === "malformed_json" ? "invalid_client_metadata" : body.error;
  if (code === "invalid_token") reply.header("www-authenticate", 'Bearer error="invalid_token"');
  return sendOAuthError(reply, status, headers, code, body.message);
}

export default registrationRoutes;
