import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";

/** `GET /api/metadata/x509`: the ID-token public keys as `{kid: PEM}`, the predecessor's key endpoint. */
const x509Routes: FastifyPluginAsyncTypebox<{ pems: Record<string, string> }> = async (app, { pems }) => {
  app.get(
    "/api/metadata/x509",
    {
      schema: {
        tags: ["login"],
        summary: "ID-token public keys as {kid: PEM} (the predecessor's key endpoint)",
        response: { 200: Type.Record(Type.String(), Type.String()) },
      },
    },
    async () => pems,
  );
};

export default x509Routes;
