import type { FastifyInstance, FastifyReply } from "fastify";
import { escapeHtml } from "../lib/html";

/** No inline script or style, no framing, requests only to us; wallet icons are data: URIs. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * A page of ours (the login page, the converter page, the front page): one stylesheet and, unless `script` is false,
 * one module script from `assets` (deferred, as modules are), under PAGE_CSP, never cached or framed. `vary` names
 * the request headers the page was chosen by.
 */
export function sendHtmlPage(
  reply: FastifyReply,
  page: { status: number; lang: string; title: string; assets: string; body: string; vary?: string; script?: boolean },
) {
  if (page.vary) reply.header("vary", page.vary);
  return reply.code(page.status).headers(PAGE_HEADERS).type("text/html; charset=utf-8").send(htmlPage(page));
}

/** The headers of every page of ours (besides its content type). */
export const PAGE_HEADERS = { "content-security-policy": PAGE_CSP, "cache-control": "no-store", "x-frame-options": "DENY" } as const;

/** The link to a page in its other language (`?lang=`), at the top of the page. */
export function languageSwitch(href: string, other: { lang: string; name: string }): string {
  return `<nav class="lang"><a href="${escapeHtml(href)}?lang=${escapeHtml(other.lang)}" lang="${escapeHtml(other.lang)}" hreflang="${escapeHtml(other.lang)}">${escapeHtml(other.name)}</a></nav>`;
}

/**
 * `path/` answers 308 to `path`, its query kept: a page has one URL, and a link or a typed address with a trailing
 * slash still finds it. `path` may have parameters (`/convert/:network/:converter`).
 */
export function redirectTrailingSlash(app: FastifyInstance, path: string): void {
  app.get(`${path}/`, { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.indexOf("?");
    const pathname = query === -1 ? request.url : request.url.slice(0, query);
    return reply.redirect(`${pathname.replace(/\/+$/, "")}${query === -1 ? "" : request.url.slice(query)}`, 308);
  });
}

/** The HTML of a page of ours (see sendHtmlPage), for a sender other than Fastify (oidc-provider's pages). */
export function htmlPage(page: { lang: string; title: string; assets: string; body: string; script?: boolean }): string {
  return `<!doctype html>
<html lang="${page.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)}</title>
<link rel="stylesheet" href="/static/page-base.css">
<link rel="stylesheet" href="${page.assets}/page.css">${page.script === false ? "" : `\n<script type="module" src="${page.assets}/page.js"></script>`}
</head>
<body>
${page.body}
</body>
</html>
`;
}
