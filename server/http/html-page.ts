import type { FastifyReply } from "fastify";
import { escapeHtml } from "../lib/html";

/** No inline script or style, no framing, requests only to us; wallet icons are data: URIs. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * A page of ours (the login page, the converter page): one stylesheet and one module script from `assets` (deferred, as modules are), under
 * PAGE_CSP, never cached or framed. `vary` names the request headers the page was chosen by.
 */
export function sendHtmlPage(
  reply: FastifyReply,
  page: { status: number; lang: string; title: string; assets: string; body: string; vary?: string },
) {
  if (page.vary) reply.header("vary", page.vary);
  return reply.code(page.status).headers(PAGE_HEADERS).type("text/html; charset=utf-8").send(htmlPage(page));
}

/** The headers of every page of ours (besides its content type). */
export const PAGE_HEADERS = { "content-security-policy": PAGE_CSP, "cache-control": "no-store", "x-frame-options": "DENY" } as const;

/** The HTML of a page of ours (see sendHtmlPage), for a sender other than Fastify (oidc-provider's pages). */
export function htmlPage(page: { lang: string; title: string; assets: string; body: string }): string {
  return `<!doctype html>
<html lang="${page.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)}</title>
<link rel="stylesheet" href="${page.assets}/page.css">
<script type="module" src="${page.assets}/page.js"></script>
</head>
<body>
${page.body}
</body>
</html>
`;
}
