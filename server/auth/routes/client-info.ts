import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { notFound } from "../../http/http-error";
import { clientInfo, type CachedClients } from "../clients";
import { invalidLang, invalidRequest } from "../errors";
import { LANGS, type Lang } from "../messages";
import { DATABASE_READ, refusals } from "../../http/refusals";
import { example } from "../../http/openapi-examples";

const Query = Type.Object({
  client_id: Type.Optional(Type.String({ description: "Registered client id (required)", maxLength: 256, ...example("clientId") })),
  lang: Type.Optional(
    Type.String({
      description: 'Language of the texts: "en" (default) or "ja"; others fall back to English',
      maxLength: 35,
      examples: ["en"],
    }),
  ),
});

const Info = Type.Object({
  client_id: Type.String(),
  title: Type.String({ description: "In lang, else English, else the client's name" }),
  description: Type.String({ description: 'In lang, else English, else ""' }),
  logo_url: Type.String({ description: 'http(s) URL or ""' }),
  home_url: Type.String({ description: 'http(s) URL or ""; also an audience of the client\'s ID tokens' }),
});

/** A language tag's primary subtag when we have texts in it ("ja-JP" → ja); any other well-formed tag → English. */
function textLanguage(tag: string | undefined): Lang {
  if (tag === undefined || tag === "") return "en";
  if (!/^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$/.test(tag)) throw invalidLang("lang must be a language tag such as en or ja");
  const primary = tag.split(/[-_]/)[0].toLowerCase();
  return (LANGS as readonly string[]).includes(primary) ? (primary as Lang) : "en";
}

/** `GET /api/client`: what a relying party shows about itself, as the predecessor's clients read it at start. */
const clientInfoRoutes: FastifyPluginAsyncTypebox<{ clients: CachedClients }> = async (app, { clients }) => {
  app.get(
    "/api/client",
    {
      schema: {
        tags: ["login"],
        summary: "A client's title, description, logo and home page (the predecessor's client endpoint)",
        description:
          "What a relying party shows about itself, in lang when it has texts in it. Public: cached a minute (Cache-Control). " +
          "400 `invalid_request` without client_id, 404 `not_found` for an unknown one.",
        querystring: Query,
        response: { 200: Info, ...refusals("invalid_lang", "not_found", ...DATABASE_READ) },
      },
    },
    async (request, reply) => {
      const { client_id: id, lang } = request.query;
      if (id === undefined || id === "") throw invalidRequest("client_id is required");
      const language = textLanguage(lang);
      // PostgreSQL text cannot hold NUL, so no client has such an id (and the query would fail).
      const client = id.includes("\u0000") ? undefined : await clients.find(id);
      if (!client) throw notFound("Unknown client_id");
      // Public and rarely changed; a minute of caching spares the database the pages that ask at every load.
      reply.header("cache-control", "public, max-age=60");
      return clientInfo(client, language);
    },
  );
};

export default clientInfoRoutes;
