import path from "node:path";
import type { FastifyReply } from "fastify";
import type { Networks } from "../chain/networks";
import { NETWORKS } from "../chain/registry";
import { sendHtmlPage } from "../http/html-page";
import { negotiateLanguage } from "../http/language";
import { pageAsset, type PageAsset } from "../http/page-assets";
import { noWalletHelp } from "../http/no-wallet";
import { escapeHtml } from "../lib/html";
import { fillText } from "../lib/template";
import type { LoginClient } from "./clients";
import { backLink, errorMain } from "./error-page";
import { TEXT, type Lang } from "./text";
import { claimedCollections, describeCollection, describeGate, type HoldingsConfig } from "./holdings";

const STATIC = path.join(__dirname, "static");

/** The page's script (an ES module) and style. */
export const PAGE_ASSETS: Record<string, PageAsset> = {
  "/login/page.js": pageAsset(path.join(STATIC, "login-page.js")),
  "/login/page.css": pageAsset(path.join(STATIC, "login-page.css")),
};

/** The authorization request's parameters the page passes on to /api/authorize. */
const PASSED = ["client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method", "claims"];

export interface PageInput {
  params?: Record<string, unknown>;
  clientName?: string;
  /** On a refusal, the registered client of the request, when it is known: the page links back to it. */
  client?: LoginClient;
  networks?: Networks;
  /** A refusal: its code, which the page names in `data-error` for scripts and tests (docs/reference/login.md#errors). */
  error?: "interaction_expired" | "unsupported_response_mode";
  /** Shown instead of the expired-request text. */
  problem?: string;
  acceptLanguage?: string;
  /** The local demo of `npm start`: without a wallet, the page says how to log in without one. */
  localDemo?: boolean;
  /** The client's holdings configuration: the page says, before anyone signs, what the client will learn. */
  holdings?: HoldingsConfig | null;
  /** ISSUER: the `iss` of the error the page sends back to the client when a gate refuses (RFC 9207). */
  issuer?: string;
}

/** What the client will learn of the signer's holdings and what its gate requires, said before the user signs. */
function holdingsConsent(holdings: HoldingsConfig | null | undefined, client: string, lang: Lang): string {
  if (!holdings) return "";
  const text = TEXT[lang];
  const items = claimedCollections(holdings)
    .map((c) => `<li>${escapeHtml(describeCollection(c, lang))}</li>`)
    .join("");
  const gate = holdings.gate
    ? `\n<p id="gate">${escapeHtml(fillText(text.gateIntro, { client, gate: describeGate(holdings.gate, lang) }))}</p>`
    : "";
  const delegation = holdings.delegation ? `\n<p id="delegation">${escapeHtml(fillText(text.delegationIntro, { client }))}</p>` : "";
  return `<section id="holdings">
<p>${escapeHtml(fillText(text.holdingsIntro, { client }))}</p>
<ul>${items}</ul>${gate}${delegation}
</section>
`;
}

export function hostedPage(reply: FastifyReply, input: PageInput) {
  const lang = negotiateLanguage(["en", "ja"], input.params?.ui_locales, input.acceptLanguage);
  const text = TEXT[lang];
  const request = Object.fromEntries(
    PASSED.filter((k) => typeof input.params?.[k] === "string").map((k) => [k, input.params?.[k] as string]),
  );
  const configured = new Set(input.networks?.configured() ?? []);
  const networks = Object.fromEntries(
    Object.entries(NETWORKS)
      .filter(([name]) => configured.has(name))
      .map(([name, info]) => [String(info.chainId), name]),
  );
  const body = input.error
    ? errorMain({ code: input.error, title: text.title, problem: input.problem ?? text.expired, back: backLink(input.client, lang) })
    : `<main id="login" data-request="${escapeHtml(JSON.stringify(request))}" data-networks="${escapeHtml(JSON.stringify(networks))}" data-issuer="${escapeHtml(input.issuer ?? "")}" data-text="${escapeHtml(JSON.stringify(text))}">
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(fillText(text.intro, { client: input.clientName ?? String(request.client_id ?? "") }))}</p>
${holdingsConsent(input.holdings, input.clientName ?? String(request.client_id ?? ""), lang)}<div id="wallets" role="group" aria-label="${escapeHtml(text.title)}"></div>
<p id="status" role="status" aria-live="polite">${escapeHtml(text.looking)}</p>
<p id="alert" role="alert"></p>
${noWalletHelp(lang, input.localDemo ? text.demoLogin : undefined)}
<noscript><p>${escapeHtml(text.noscript)}</p></noscript>
</main>`;
  return sendHtmlPage(reply, { status: input.error ? 400 : 200, lang, title: text.title, assets: "/login", body });
}
