import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { negotiateLanguage } from "../http/language";
import { prefersJson } from "../http/negotiation";
import { servePageAssets } from "../http/page-assets";
import { HOME_ASSETS, homePage } from "./page";
import { serviceIndex } from "./service-index";

/**
 * The front page, `GET /`: what runs here (login, NFT data, converter) and links to each part's start, for people
 * who open the service's bare URL, operators included. A client that asks for JSON (`Accept: application/json`)
 * gets the same index as JSON.
 */
const home: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    { schema: { hide: true, querystring: Type.Object({ lang: Type.Optional(Type.String({ maxLength: 16 })) }) } },
    async (request, reply) => {
      const index = serviceIndex(app.config, app.networks.configured());
      if (prefersJson(request.headers.accept)) return reply.header("vary", "accept, accept-language").send(index);
      const lang = negotiateLanguage(["en", "ja"], request.query.lang, request.headers["accept-language"]);
      return homePage(reply, { lang, index });
    },
  );
  servePageAssets(app, HOME_ASSETS);
};

export default home;
