import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { badRequest } from "./http-error";

/**
 * Where a refused target is routed: a path no route has, so the refusal below is answered by the root scope in our
 * JSON shape whatever path the target named.
 */
const REFUSED_PATH = "/.refused-request-target";
const refused = new WeakSet<IncomingMessage>();

/** `scheme://authority` and the rest (path and query, possibly empty) of an absolute-form target. */
const ABSOLUTE_FORM = /^(https?:\/\/)([^/?#]*)(.*)$/is;

/**
 * The origin-form (path and query) a request target is read as, or undefined when it is refused. Everything we build
 * a URL from (ISSUER) is fixed, but oidc-provider's Koa takes an absolute-form target as the request's URL and builds
 * its published URLs from it: so an absolute-form target counts only on ISSUER's origin or on the Host's (RFC 9112
 * has servers accept absolute-form, and a proxy sends the two alike); any other origin, an authority-form target and
 * asterisk-form (OPTIONS * aside) are refused.
 */
export function originForm(target: string, method: string, host: string | undefined, issuer: URL): string | undefined {
  if (target.startsWith("/")) return target;
  if (target === "*") return method === "OPTIONS" ? target : undefined;
  const parts = ABSOLUTE_FORM.exec(target);
  if (!parts) return undefined;
  const [, scheme, authority, rest] = parts;
  let origin: URL;
  try {
    origin = new URL(`${scheme}${authority}`);
  } catch {
    return undefined;
  }
  if (origin.username || origin.password || rest.startsWith("#")) return undefined;
  if (origin.origin !== issuer.origin && !(host !== undefined && sameHost(origin, host))) return undefined;
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** Whether `url` names the Host header's host, on the default port of its scheme when the header names none. */
function sameHost(url: URL, host: string): boolean {
  try {
    return new URL(`${url.protocol}//${host}`).host === url.host;
  } catch {
    return false;
  }
}

/**
 * Fastify's `rewriteUrl` option: the URL every route and hook (and oidc-provider, which reads the raw request) sees is
 * the target's origin-form. A refused target is routed nowhere and answered by {@link requestTargets}'s hook.
 */
export function rewriteTarget(issuer: string): (request: IncomingMessage) => string {
  const issuerUrl = new URL(issuer);
  return (request) => {
    // Fastify keeps the target as it came in `originalUrl`, which oidc-provider reads as Express's: the part before
    // the URL is the mount path its published URLs start with. Nothing here is mounted.
    delete (request as IncomingMessage & { originalUrl?: string }).originalUrl;
    const path = originForm(request.url ?? "", request.method ?? "", request.headers.host, issuerUrl);
    if (path !== undefined) return path;
    refused.add(request);
    return REFUSED_PATH;
  };
}

/** Refuses, before anything else runs, the requests whose target {@link rewriteTarget} refused. */
export default fp(
  async function requestTargets(app: FastifyInstance) {
    app.addHook("onRequest", async (request) => {
      if (refused.has(request.raw))
        throw badRequest("invalid_request", "The request target must be a path, or an absolute URL on this service's origin");
    });
  },
  { name: "request-target" },
);
