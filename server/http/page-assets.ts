import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** A page's script or style, read once at start: the pages' CSP allows no inline code, so they are files. */
export interface PageAsset {
  type: string;
  body: string;
}

const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

export function pageAsset(file: string): PageAsset {
  const type = TYPES[path.extname(file)];
  if (!type) throw new Error(`${file}: a page asset is a .js or .css file`);
  return { type, body: fs.readFileSync(file, "utf8") };
}

/** Serves `assets` at their paths; browsers may keep them five minutes (they change only with a deploy). */
export function servePageAssets(app: FastifyInstance, assets: Record<string, PageAsset>): void {
  for (const [url, asset] of Object.entries(assets)) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      reply.type(asset.type).header("cache-control", "public, max-age=300").send(asset.body),
    );
  }
}

/**
 * The stylesheet every page links before its own, and the ES modules both wallet pages' scripts import, at one URL
 * so that a browser loads them once. The scripts import them as `../static/<name>`: from `/login/page.js` and
 * `/convert/page.js` that is `/static/<name>`, and on disk `tsconfig.pages.json` finds `server/http/static/<name>`
 * through its `rootDirs`.
 */
export const SHARED_PAGE_ASSETS: Record<string, PageAsset> = {
  "/static/page-base.css": pageAsset(path.join(__dirname, "static", "page-base.css")),
  "/static/messages.js": pageAsset(path.join(__dirname, "static", "messages.js")),
  "/static/wallets.js": pageAsset(path.join(__dirname, "static", "wallets.js")),
};

export default fp(async (app: FastifyInstance) => servePageAssets(app, SHARED_PAGE_ASSETS), { name: "page-assets" });
