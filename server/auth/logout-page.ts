import { htmlPage, PAGE_CSP, PAGE_HEADERS } from "../http/html-page";
import { negotiateLanguage } from "../http/language";
import { escapeHtml } from "../lib/html";
import { fillText } from "../lib/template";

/**
 * RP-initiated logout's pages (docs/reference/login.md: logout), in the hosted login page's style and languages: oidc-provider
 * calls them with its (Koa) context. There is no session here to end (every login is a signature of its own, and none
 * opens a session), so the confirmation page is shown only if one ever exists; the success page is what a browser sees
 * after a logout without a `post_logout_redirect_uri`.
 */
const TEXT = {
  en: {
    lang: "en",
    title: "Sign out",
    ask: "Sign out of {host}?",
    yes: "Sign out",
    no: "Stay signed in",
    done: "You are signed out.",
    doneOf: "You are signed out of {client}.",
  },
  ja: {
    lang: "ja",
    title: "ログアウト",
    ask: "{host} からログアウトしますか?",
    yes: "ログアウト",
    no: "ログインしたままにする",
    done: "ログアウトしました。",
    doneOf: "{client} からログアウトしました。",
  },
};

/** What oidc-provider's context offers these pages. */
interface LogoutContext {
  host: string;
  type: string;
  body: unknown;
  get(header: string): string;
  set(header: string, value: string): void;
  oidc: { client?: { clientId: string; clientName?: string }; params?: Record<string, unknown> };
}

function send(ctx: LogoutContext, lang: "en" | "ja", body: string, csp = PAGE_CSP) {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
  ctx.set("content-security-policy", csp);
  ctx.type = "html";
  ctx.body = htmlPage({ lang, title: TEXT[lang].title, assets: "/login", body });
}

const language = (ctx: LogoutContext) => negotiateLanguage(["en", "ja"], ctx.oidc.params?.ui_locales, ctx.get("accept-language"));

/** oidc-provider's `logoutSource`: its form (the xsrf token, posted to the confirmation endpoint) and two buttons. */
export async function logoutSource(ctx: LogoutContext, form: string): Promise<void> {
  const lang = language(ctx);
  const text = TEXT[lang];
  send(
    ctx,
    lang,
    `<main id="login"><h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(fillText(text.ask, { host: ctx.host }))}</p>
${form}
<div id="wallets"><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${escapeHtml(text.yes)}</button>
<button type="submit" form="op.logoutForm">${escapeHtml(text.no)}</button></div>
</main>`,
    PAGE_CSP.replace("form-action 'none'", "form-action 'self'"),
  );
}

/** oidc-provider's `postLogoutSuccessSource`. */
export async function postLogoutSuccessSource(ctx: LogoutContext): Promise<void> {
  const lang = language(ctx);
  const text = TEXT[lang];
  const client = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
  const done = client ? fillText(text.doneOf, { client }) : text.done;
  send(ctx, lang, `<main id="login"><h1>${escapeHtml(text.title)}</h1><p role="status">${escapeHtml(done)}</p></main>`);
}

/**
 * The policy of the page oidc-provider answers the logout request with when there is no session to confirm: a form
 * that its inline script submits at once (oidc-provider adds the script's hash to `script-src`). The confirmation
 * that form reaches redirects to the client's `post_logout_redirect_uri`, and browsers hold that redirect to the
 * page's `form-action`: it names this service and the origin (or, for an app's own scheme, the scheme) of the URI
 * asked for (in the query, or in the form body of a POST), which oidc-provider then checks against the client's
 * registered ones.
 */
export function logoutRequestCsp(query: unknown, form: unknown): string {
  const asked = Buffer.isBuffer(form)
    ? new URLSearchParams(form.toString("utf8")).get("post_logout_redirect_uri")
    : (query as Record<string, unknown> | undefined)?.post_logout_redirect_uri;
  const sources = ["'self'"];
  const url = typeof asked === "string" ? URL.parse(asked) : null;
  if (url && /^[a-z][a-z0-9+.-]*:$/.test(url.protocol))
    sources.push(url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol);
  return `default-src 'none'; script-src 'self'; base-uri 'none'; form-action ${sources.join(" ")}; frame-ancestors 'none'`;
}
