import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { refusals } from "../../http/refusals";

/** `GET /api/metadata/x509`: the ID-token public keys as `{kid: PEM}`, the predecessor's key endpoint. */
const x509Routes: FastifyPluginAsyncTypebox<{ pems: Record<string, string> }> = async (app, { pems }) => {
  app.get(
    "/api/metadata/x509",
    {
      schema: {
        tags: ["login"],
        summary: "ID-token public keys as {kid: PEM} (the predecessor's key endpoint)",
        description:
          "The public keys ID tokens are signed with, by key id, in PEM: what the predecessor's clients read. New clients read " +
          "/jwks through OpenID discovery instead.",
        response: { 200: Type.Record(Type.String(), Type.String()), ...refusals() },
      },
    },
    async () => pems,
  );
};

export default x509Routes;
