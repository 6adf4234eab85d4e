import fs from "node:fs";
import path from "node:path";
import type { FastifyReply } from "fastify";
import type { Networks } from "../chain/networks";
import { NETWORKS } from "../chain/registry";
import { sendHtmlPage } from "../http/html-page";
import { escapeHtml } from "../lib/html";
import { fillText } from "../lib/template";

const STATIC = path.join(__dirname, "static");

/** The page's script and style, served as files: the page's CSP allows no inline code. */
export const PAGE_ASSETS: Record<string, { type: string; body: string }> = {
  "/login/page.js": { type: "text/javascript; charset=utf-8", body: fs.readFileSync(path.join(STATIC, "login-page.js"), "utf8") },
  "/login/page.css": { type: "text/css; charset=utf-8", body: fs.readFileSync(path.join(STATIC, "login-page.css"), "utf8") },
};

const TEXT = {
  en: {
    lang: "en",
    title: "Sign in with your wallet",
    intro:
      "{client} asks you to sign in with your Ethereum wallet. Your wallet will show a message to sign: signing is free and sends no transaction.",
    signInWith: "Sign in with {wallet}",
    browserWallet: "browser wallet",
    choose: "Choose your wallet.",
    looking: "Looking for wallets…",
    noWallet: "No wallet was found in this browser. Install a wallet extension, or open this page in your wallet's browser.",
    noAccount: "The wallet gave no account.",
    connecting: "Connecting to your wallet…",
    signing: "Please sign the message in your wallet.",
    verifying: "Checking the signature…",
    done: "Signed in. Returning to the application…",
    failed: "Sign-in failed:",
    expired: "This sign-in request has expired or was opened in another browser. Go back to the application and start again.",
    noscript: "This page needs JavaScript to talk to your wallet.",
  },
  ja: {
    lang: "ja",
    title: "ウォレットでログイン",
    intro:
      "{client} が Ethereum ウォレットでのログインを求めています。ウォレットに署名するメッセージが表示されます。署名は無料で、トランザクションは送信されません。",
    signInWith: "{wallet} でログイン",
    browserWallet: "ブラウザのウォレット",
    choose: "ウォレットを選んでください。",
    looking: "ウォレットを探しています…",
    noWallet:
      "このブラウザにウォレットが見つかりません。ウォレットの拡張機能を入れるか、ウォレットのブラウザでこのページを開いてください。",
    noAccount: "ウォレットからアカウントが得られませんでした。",
    connecting: "ウォレットに接続しています…",
    signing: "ウォレットでメッセージに署名してください。",
    verifying: "署名を確認しています…",
    done: "ログインしました。アプリケーションに戻ります…",
    failed: "ログインできませんでした:",
    expired: "このログイン要求は期限切れか、別のブラウザで開かれました。アプリケーションに戻ってやり直してください。",
    noscript: "このページはウォレットとやり取りするために JavaScript が必要です。",
  },
};
type Lang = keyof typeof TEXT;

/** The authorization request's parameters the page passes on to /api/authorize. */
const PASSED = ["client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method"];

export function pageLang(uiLocales: unknown, acceptLanguage: string | undefined): Lang {
  const first = (value: string) => value.split(/[\s,;]+/)[0]?.toLowerCase() ?? "";
  if (typeof uiLocales === "string" && uiLocales) return first(uiLocales).startsWith("ja") ? "ja" : "en";
  return acceptLanguage && first(acceptLanguage).startsWith("ja") ? "ja" : "en";
}

export interface PageInput {
  params?: Record<string, unknown>;
  clientName?: string;
  networks?: Networks;
  error?: boolean;
  /** Shown instead of the expired-request text. */
  problem?: string;
  acceptLanguage?: string;
}

export function hostedPage(reply: FastifyReply, input: PageInput) {
  const lang = pageLang(input.params?.ui_locales, input.acceptLanguage);
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
    ? `<main id="login"><h1>${escapeHtml(text.title)}</h1><p role="alert">${escapeHtml(input.problem ?? text.expired)}</p></main>`
    : `<main id="login" data-request="${escapeHtml(JSON.stringify(request))}" data-networks="${escapeHtml(JSON.stringify(networks))}" data-text="${escapeHtml(JSON.stringify(text))}">
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(fillText(text.intro, { client: input.clientName ?? String(request.client_id ?? "") }))}</p>
<div id="wallets" role="group" aria-label="${escapeHtml(text.title)}"></div>
<p id="status" role="status" aria-live="polite">${escapeHtml(text.looking)}</p>
<noscript><p>${escapeHtml(text.noscript)}</p></noscript>
</main>`;
  return sendHtmlPage(reply, { status: input.error ? 400 : 200, lang, title: text.title, assets: "/login", body });
}
