import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { toErrorReply } from "../../http/errors";
import { authorizedToRegister, invalidInitialToken, registerClient, REGISTRATION_PATH } from "../registration";
import { sendOAuthError } from "./oauth-error";
import { RATE_LIMITED } from "./rate-limited";

const Refusal = Type.Object({ error: Type.String(), error_description: Type.String() });

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
        body: Type.Record(Type.String(), Type.Unknown()),
        response: { 201: Type.Record(Type.String(), Type.Unknown()), "4xx": Refusal },
      },
    },
    async (request, reply) => {
      const registered = await registerClient(app.db, request.body);
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
