import path from "node:path";
import type { FastifyReply } from "fastify";
import { languageSwitch, sendHtmlPage } from "../http/html-page";
import { pageAsset, type PageAsset } from "../http/page-assets";
import { escapeHtml } from "../lib/html";
import { fillText } from "../lib/template";
import type { ServiceIndex } from "./service-index";
import { TEXT, type Lang } from "./text";

/** The page's style; it has no script. */
export const HOME_ASSETS: Record<string, PageAsset> = {
  "/home/page.css": pageAsset(path.join(__dirname, "static", "home-page.css")),
};

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

/** The front page (`GET /`): what runs here and where each part starts, from `index`. */
export function homePage(reply: FastifyReply, input: { lang: Lang; index: ServiceIndex }) {
  const { lang, index } = input;
  const text = TEXT[lang];
  const other: Lang = lang === "en" ? "ja" : "en";
  const { links } = index;
  const sections = [
    `<section aria-labelledby="login-heading">
<h2 id="login-heading">${escapeHtml(text.loginTitle)}</h2>
<p>${escapeHtml(text.login)}</p>
<p>${escapeHtml(text.issuer)} <code>${escapeHtml(index.issuer)}</code></p>
<ul><li>${link(links.discovery, text.discovery)}</li></ul>
</section>`,
    `<section aria-labelledby="data-heading">
<h2 id="data-heading">${escapeHtml(text.dataTitle)}</h2>
<p>${escapeHtml(text.data)}</p>
${index.networks.length > 0 ? `<p>${escapeHtml(fillText(text.networks, { networks: index.networks.join(", ") }))}</p>` : ""}
<ul><li>${link(links.docs, text.docs)}</li><li>${link(links.openapi, text.openapi)}</li></ul>
</section>`,
    ...(links.convert
      ? [
          `<section aria-labelledby="converter-heading">
<h2 id="converter-heading">${escapeHtml(text.converterTitle)}</h2>
<p>${escapeHtml(text.converter)}</p>
<ul><li>${link(`${links.convert}?lang=${lang}`, text.convert)}</li></ul>
</section>`,
        ]
      : []),
    `<section aria-labelledby="status-heading">
<h2 id="status-heading">${escapeHtml(text.statusTitle)}</h2>
<ul><li>${link(links.health, text.health)}</li><li>${link(links.ready, text.ready)}</li></ul>
</section>`,
    ...(index.localDemo
      ? [
          `<section id="local-demo" aria-labelledby="demo-heading">
<h2 id="demo-heading">${escapeHtml(text.demoTitle)}</h2>
<p>${fillText(escapeHtml(text.demo), { command: "<code>npm start</code>" })}</p>
<p>${escapeHtml(text.demoLogin)} <code>${escapeHtml(index.localDemo.login)}</code></p>
</section>`,
        ]
      : []),
  ];
  const body = `<main id="home">
${languageSwitch("/", { lang: other, name: TEXT[other].languageName })}
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.intro)}</p>
${sections.join("\n")}
</main>`;
  return sendHtmlPage(reply, {
    status: 200,
    lang,
    title: text.title,
    assets: "/home",
    body,
    vary: "accept, accept-language",
    script: false,
  });
}
