import { htmlPage } from "../http/html-page";
import { negotiateLanguage } from "../http/language";
import { escapeHtml } from "../lib/html";
import { fillText } from "../lib/template";
import type { LoginClient } from "./clients";
import { TEXT, type Lang } from "./text";

/**
 * Where a sign-in error page's link back goes: only somewhere the client registered (its home page, else the origin
 * of its first web redirect URI), never a URL the failed request named, which may be what it got wrong; else our root.
 */
export function backLink(client: LoginClient | undefined, lang: Lang): { href: string; text: string } {
  const text = TEXT[lang];
  const web = client?.redirectUris.map((uri) => URL.parse(uri)).find((url) => url?.protocol === "https:" || url?.protocol === "http:");
  const href = client?.profile.homeUrl ?? (web ? `${web.origin}/` : undefined);
  if (!client || href === undefined) return { href: "/", text: text.backHome };
  return { href, text: fillText(text.backTo, { client: client.profile.title[lang] ?? client.name }) };
}

/**
 * The body of a sign-in error page: the code in `data-error` (for scripts and tests), the problem as an alert, and a
 * link back ({@link backLink}).
 */
export function errorMain(input: { code: string; title: string; problem: string; back: { href: string; text: string } }): string {
  return `<main id="login" data-error="${escapeHtml(input.code)}"><h1>${escapeHtml(input.title)}</h1>
<p role="alert">${escapeHtml(input.problem)}</p>
<p><a href="${escapeHtml(input.back.href)}">${escapeHtml(input.back.text)}</a></p>
</main>`;
}

/**
 * The error page of the authorization and logout endpoints, ours and oidc-provider's (e.g. an unregistered
 * redirect_uri, which must not be redirected to): in the hosted page's style and languages, sent with PAGE_HEADERS.
 * It says `code: description`; oidc-provider may hand over an error without a description.
 */
export function errorPage(input: {
  error: string;
  description: string | undefined;
  /** The client of the request, when it is a registered one. */
  client?: LoginClient;
  /** The request's OIDC `ui_locales`, then the browser's Accept-Language, choose the language. */
  uiLocales?: unknown;
  acceptLanguage?: string;
}): string {
  const lang = negotiateLanguage(["en", "ja"], input.uiLocales, input.acceptLanguage);
  const title = TEXT[lang].errorTitle;
  const problem = `${input.error}: ${input.description ?? ""}`;
  return htmlPage({
    lang,
    title,
    assets: "/login",
    body: errorMain({ code: input.error, title, problem, back: backLink(input.client, lang) }),
  });
}
