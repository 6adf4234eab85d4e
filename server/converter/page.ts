import path from "node:path";
import type { FastifyReply } from "fastify";
import { IERC721Errors__factory, NFTConverter__factory } from "../../typechain-types";
import type { Networks } from "../chain/networks";
import type { ConverterRef } from "../config";
import { languageSwitch, sendHtmlPage } from "../http/html-page";
import { negotiateLanguage } from "../http/language";
import { pageAsset, type PageAsset } from "../http/page-assets";
import { noWalletHelp } from "../http/no-wallet";
import { escapeHtml } from "../lib/html";
import { fillText } from "../lib/template";
import { TEXT, type Lang } from "./text";

const STATIC = path.join(__dirname, "static");

/** The page's script (an ES module) and style. */
export const CONVERT_ASSETS: Record<string, PageAsset> = {
  "/convert/page.js": pageAsset(path.join(STATIC, "convert-page.js")),
  "/convert/page.css": pageAsset(path.join(STATIC, "convert-page.css")),
};

/**
 * The custom errors a conversion can revert with, by selector: the page turns revert data into a sentence of its
 * language without an ABI library. Arguments are static types (one 32-byte word each).
 */
const REVERTS: Record<string, [string, string[]]> = (() => {
  const errors: Record<string, [string, string[]]> = {};
  for (const abi of [NFTConverter__factory.createInterface(), IERC721Errors__factory.createInterface()]) {
    abi.forEachError((error) => {
      errors[error.selector] = [error.name, error.inputs.map((input) => input.type)];
    });
  }
  return errors;
})();

function pageLanguage(lang: unknown, acceptLanguage: string | undefined): Lang {
  return negotiateLanguage(["en", "ja"], lang, acceptLanguage);
}

interface Language {
  lang?: unknown;
  acceptLanguage?: string;
}

/** The converter page for one configured converter. */
export function convertPage(
  reply: FastifyReply,
  input: Language & { converter: ConverterRef; networks: Networks; rpcUrls: Record<string, string[]>; localDemo: boolean },
) {
  const lang = pageLanguage(input.lang, input.acceptLanguage);
  const text = TEXT[lang];
  const { network, address } = input.converter;
  const info = input.networks.info(network);
  // A wallet that does not know the chain is given a public RPC URL; our own node's URL only for the local chain.
  const rpcUrl = network === "localhost" ? input.rpcUrls.localhost?.[0] : info.publicRpcUrl;
  const config = {
    network,
    chainId: info.chainId,
    converter: address,
    explorer: info.explorer ?? null,
    currency: info.currency ?? "ETH",
    rpcUrl: rpcUrl ?? null,
    reverts: REVERTS,
  };
  const body = `<main id="convert" data-config="${escapeHtml(JSON.stringify(config))}" data-text="${escapeHtml(JSON.stringify(text))}">
${languageLinks(lang, `/convert/${network}/${address}`)}
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.intro)}</p>
<p class="small">${escapeHtml(fillText(text.converterOn, { network }))} <code>${escapeHtml(address)}</code></p>
<div id="wallets" role="group" aria-label="${escapeHtml(text.wallets)}"></div>
<p id="status" role="status" aria-live="polite" tabindex="-1">${escapeHtml(text.looking)}</p>
<p id="alert" role="alert" tabindex="-1"></p>
${noWalletHelp(lang, input.localDemo ? text.demoLogin : undefined)}
<div id="result" aria-live="polite" tabindex="-1"></div>
<section id="tokens" hidden>
<p id="notice"></p>
<h2 id="alice-heading"></h2>
<p id="alice-collection" class="small" hidden></p>
<p id="alice-spam" class="spam" hidden></p>
<ul id="alice-list" aria-labelledby="alice-heading"></ul>
<h2 id="bob-heading"></h2>
<p id="bob-collection" class="small" hidden></p>
<p id="bob-spam" class="spam" hidden></p>
<ul id="bob-list" aria-labelledby="bob-heading"></ul>
<button type="button" id="refresh" class="secondary">${escapeHtml(text.refresh)}</button>
</section>
<noscript><p>${escapeHtml(text.noscript)}</p></noscript>
</main>`;
  return sendPage(reply, lang, text.title, body, 200);
}

/** `/convert` with no or several converters configured, or a converter that is not offered here. */
export function converterListPage(reply: FastifyReply, input: Language & { converters: ConverterRef[]; missing?: boolean }) {
  const lang = pageLanguage(input.lang, input.acceptLanguage);
  const text = TEXT[lang];
  const items = input.converters
    .map(
      (c) =>
        `<li><a href="/convert/${escapeHtml(c.network)}/${escapeHtml(c.address)}?lang=${lang}">${escapeHtml(c.network)} <code>${escapeHtml(c.address)}</code></a></li>`,
    )
    .join("\n");
  const body = `<main id="choose">
${languageLinks(lang, "/convert")}
<h1>${escapeHtml(text.title)}</h1>
${input.missing ? `<p role="alert" data-error="not_found">${escapeHtml(text.notOffered)}</p>` : ""}
${items ? `<p>${escapeHtml(text.chooseConverter)}</p>\n<ul>\n${items}\n</ul>` : `<p>${escapeHtml(text.noConverter)}</p>`}
</main>`;
  return sendPage(reply, lang, text.title, body, input.missing ? 404 : 200);
}

function languageLinks(lang: Lang, href: string): string {
  const other: Lang = lang === "en" ? "ja" : "en";
  return languageSwitch(href, { lang: other, name: TEXT[other].languageName });
}

function sendPage(reply: FastifyReply, lang: Lang, title: string, body: string, status: number) {
  return sendHtmlPage(reply, { status, lang, title, assets: "/convert", body, vary: "accept-language" });
}
