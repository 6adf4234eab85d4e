import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { FastifyInstance, RouteOptions } from "fastify";

/** The order in which an `Allow` header lists methods: the common ones first, any other after them by name. */
const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Which methods each path of an app has, for the not-found handler's 405 and its `Allow` header. Fastify's
 * `hasRoute` and `findRoute` look a route up by its pattern (`/block/:network/latest`), not by a path a client sent,
 * and its router is not public: this is a second router of the same kind (find-my-way, Fastify's own) that learns
 * every route as it is added (an `onRoute` hook, so only routes added after `watch`) and matches paths as Fastify does.
 */
export class RouteMethods {
  private readonly router = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false });
  private readonly methods = new Set<string>();

  /** Learns the routes `app` and its child scopes add from now on. */
  watch(app: FastifyInstance): void {
    app.addHook("onRoute", (route: RouteOptions & { prefix?: string; routePath?: string }) => {
      // A plugin's `/` route is also served at its prefix with a trailing slash, which runs no onRoute hook of its own.
      const slashed = route.prefix && route.routePath === "" && route.prefixTrailingSlash !== "no-slash" ? [`${route.url}/`] : [];
      for (const method of [route.method].flat()) for (const url of [route.url, ...slashed]) this.add(method, url);
    });
  }

  private add(method: string, url: string): void {
    // A route whose first segment is a parameter or a wildcard matches nearly any path: a catch-all (`OPTIONS *`,
    // which answers every CORS preflight) or the predecessor's `/:network/:assetContract/:id`, which refuses any
    // other first segment as an unknown route. It says nothing about what a path has.
    if (url === "*" || /^\/[:*]/.test(url)) return;
    const typed = method as HTTPMethod;
    if (this.router.findRoute(typed, url) !== null) return;
    this.router.on(typed, url, () => undefined);
    this.methods.add(method);
  }

  /** The methods a route answers on `path` (a request's URL; its query is ignored), in `Allow` order. */
  of(path: string): string[] {
    return [...this.methods]
      .filter((method) => this.router.find(method as HTTPMethod, path) !== null)
      .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  }
}

function rank(method: string): number {
  const at = ORDER.indexOf(method);
  return at === -1 ? ORDER.length : at;
}
