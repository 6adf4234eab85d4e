import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { servePageAssets } from "../../http/page-assets";
import { findClient } from "../clients";
import type { Provider } from "../oidc";
import { hostedPage, PAGE_ASSETS } from "../page";
import { holdingsAsked, withCollections, type Collection } from "../holdings";

/** The collections the request's `claims` parameter names; none when it is malformed (/api/authorize refuses it, in words). */
function collectionsAskedIn(claims: unknown): Collection[] {
  try {
    return typeof claims === "string" ? holdingsAsked(claims).collections : [];
  } catch {
    return [];
  }
}

/**
 * The hosted login page, where oidc-provider's authorization endpoint sends the browser (`/interaction/:uid`), and
 * its script and style.
 */
const hostedPageRoutes: FastifyPluginAsyncTypebox<{ provider: Provider }> = async (app, { provider }) => {
  app.get(
    "/interaction/:uid",
    { schema: { hide: true, params: Type.Object({ uid: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      let params: Record<string, unknown>;
      try {
        // Checks the interaction cookie oidc-provider set on this browser: the uid alone does not open it.
        params = (await provider.interactionDetails(request.raw, reply.raw)).params;
      } catch {
        return hostedPage(reply, { error: "interaction_expired", acceptLanguage: request.headers["accept-language"] });
      }
      const client = typeof params.client_id === "string" ? await findClient(app.db, params.client_id) : undefined;
      // The page hands the code back in the query only (the code flow's default response mode).
      if (params.response_mode !== undefined && params.response_mode !== "query") {
        return hostedPage(reply, {
          error: "unsupported_response_mode",
          client,
          acceptLanguage: request.headers["accept-language"],
          problem: `response_mode=${String(params.response_mode)} is not supported; use query`,
        });
      }
      return hostedPage(reply, {
        params,
        clientName: client?.name,
        holdings: withCollections(client?.holdings ?? null, collectionsAskedIn(params.claims)),
        acceptLanguage: request.headers["accept-language"],
        networks: app.networks,
        localDemo: app.config.localChain,
        issuer: app.config.issuer,
      });
    },
  );
  servePageAssets(app, PAGE_ASSETS);
};

export default hostedPageRoutes;
