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
  const html = `<!doctype html>
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
  if (page.vary) reply.header("vary", page.vary);
  return reply
    .code(page.status)
    .header("content-security-policy", PAGE_CSP)
    .header("cache-control", "no-store")
    .header("x-frame-options", "DENY")
    .type("text/html; charset=utf-8")
    .send(html);
}
