import { expect } from "chai";
import { startTestApp, type TestApp } from "../../helpers/app";
import { axeViolations } from "../../helpers/axe";
import { launchBrowser } from "../../helpers/browser";
import type { PageDocument } from "../../helpers/page-globals";
import { expectRefusal } from "../../helpers/refusal";
import { sharedNode } from "../../helpers/chain";
import { PAGE_CSP } from "../../../server/http/html-page";
import { prefersJson } from "../../../server/http/negotiation";
import type { ServiceIndex } from "../../../server/home/service-index";

const CONVERTER = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

// Functions below run in the page (tsconfig has no DOM library): this names its document for the type checker.
declare const document: PageDocument;

/** The hrefs of a page's links, in order. */
const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));

describe("front page (GET /)", function () {
  let nodeUrl: string;
  let production: TestApp;

  before(async function () {
    nodeUrl = (await sharedNode()).url;
    // As an operator runs it: a public issuer, real networks (the RPC URL is a secret of theirs), a converter offered.
    production = await startTestApp({
      env: { RPC_URL_LOCALHOST: nodeUrl, ISSUER: "https://login.example.com", CONVERTERS: `localhost:${CONVERTER}` },
    });
  });
  after(async function () {
    await production?.close();
  });

  it("says what runs here and links each part's start, under the pages' CSP, without a script", async function () {
    const response = await production.fetch("/", { headers: { accept: BROWSER_ACCEPT } });
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.equal("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).to.equal(PAGE_CSP);
    expect(response.headers.get("cache-control")).to.equal("no-store");
    expect(response.headers.get("vary")).to.equal("accept, accept-language");
    const html = await response.text();
    expect(html).to.include('<html lang="en">').and.include("<h1>Wallet login, NFT data and converter</h1>");
    expect(html).to.include("Login service").and.include("NFT data API").and.include("Converter").and.include("Service status");
    expect(html).to.include("<code>https://login.example.com</code>").and.include("Networks: localhost");
    expect(hrefs(html)).to.deep.equal([
      "/?lang=ja",
      "/.well-known/openid-configuration",
      "/docs",
      "/openapi.json",
      "/convert?lang=en",
      "/health",
      "/ready",
    ]);
    expect(html).to.not.match(/<script/);
    // Nothing an operator keeps to themselves: the node's URL (its port, for a provider its key), the database, clients.
    expect(html).to.not.include(nodeUrl).and.not.include(new URL(nodeUrl).port).and.not.include("PGlite").and.not.include("demo-login");
    for (const link of hrefs(html).filter((href) => href.startsWith("/") && !href.startsWith("/?"))) {
      expect((await production.fetch(link)).status, link).to.equal(200);
    }
  });

  it("speaks Japanese to a Japanese browser, and takes ?lang= over the browser's language", async function () {
    const ja = await (await production.fetch("/", { headers: { "accept-language": "ja-JP,ja;q=0.9,en;q=0.5" } })).text();
    expect(ja).to.include('<html lang="ja">').and.include("<h1>ウォレットログイン、NFT データ、コンバーター</h1>");
    expect(hrefs(ja)).to.include("/?lang=en").and.include("/convert?lang=ja");
    const en = await (await production.fetch("/?lang=en", { headers: { "accept-language": "ja" } })).text();
    expect(en).to.include('<html lang="en">');
  });

  it("answers a JSON client the same index as JSON", async function () {
    const response = await production.fetch("/", { headers: { accept: "application/json" } });
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expect(response.headers.get("vary")).to.equal("accept, accept-language");
    expect(await response.json()).to.deep.equal({
      service: "Wallet login, NFT data and converter",
      issuer: "https://login.example.com",
      // In the order the page links them.
      links: {
        discovery: "/.well-known/openid-configuration",
        docs: "/docs",
        openapi: "/openapi.json",
        convert: "/convert",
        health: "/health",
        ready: "/ready",
      },
      networks: ["localhost"],
      converters: [{ network: "localhost", address: CONVERTER }],
    });
  });

  it("on the local demo, says how to log in without a wallet; without a converter, links none", async function () {
    // As `npm start` runs it: the local chain, no converter named (the list page then says none is offered).
    const demo = await startTestApp({ env: { RPC_URL_LOCALHOST: nodeUrl, LOCAL_CHAIN: "true" } });
    try {
      const html = await (await demo.fetch("/")).text();
      expect(html)
        .to.include('<section id="local-demo"')
        .and.include("<code>npm run demo-login</code>")
        .and.include("<code>npm start</code>");
      expect(hrefs(html)).to.not.include("/convert?lang=en");
      expect(html).to.not.include(nodeUrl);
      const index = (await (await demo.fetch("/", { headers: { accept: "application/json" } })).json()) as ServiceIndex;
      expect(index.localDemo).to.deep.equal({ login: "npm run demo-login" });
      expect(index.links).to.not.have.property("convert");
      expect(index.converters).to.deep.equal([]);
    } finally {
      await demo.close();
    }
  });

  it("sends a page's address with a trailing slash to the page, its query kept (308)", async function () {
    for (const [from, to] of [
      ["/convert/", "/convert"],
      ["/convert/?lang=ja", "/convert?lang=ja"],
      [`/convert/localhost/${CONVERTER}/`, `/convert/localhost/${CONVERTER}`],
    ]) {
      const response = await production.fetch(from, { redirect: "manual" });
      expect(response.status, from).to.equal(308);
      expect(response.headers.get("location"), from).to.equal(to);
    }
    const followed = await production.fetch("/convert/?lang=ja");
    expect(followed.status).to.equal(200);
    expect(await followed.text()).to.include("トークンを変換");
    // /docs/ is the API docs page already; an API route keeps its one address.
    expect((await production.fetch("/docs/")).status).to.equal(200);
    await expectRefusal(await production.fetch("/health/"), 404, "not_found", {
      message: "Route GET /health/ not found; the API is described at /docs",
    });
  });

  it("takes JSON only when the client ranks it above HTML", function () {
    expect(prefersJson("application/json")).to.equal(true);
    expect(prefersJson("application/json, text/html;q=0.5")).to.equal(true);
    expect(prefersJson("application/*")).to.equal(true);
    expect(prefersJson(undefined)).to.equal(false);
    expect(prefersJson("*/*")).to.equal(false);
    expect(prefersJson(BROWSER_ACCEPT)).to.equal(false);
    expect(prefersJson("text/html, application/json")).to.equal(false);
    expect(prefersJson("text/html;q=0.1, application/json;q=0.2")).to.equal(true);
  });

  it("in Chromium: passes axe-core's checks in both languages and fits a 360 px wide screen, without an error", async function () {
    const listening = await startTestApp({
      listen: true,
      env: { RPC_URL_LOCALHOST: nodeUrl, LOCAL_CHAIN: "true", CONVERTERS: `localhost:${CONVERTER}` },
    });
    const browser = await launchBrowser();
    try {
      for (const locale of ["en-US", "ja-JP"]) {
        const context = await browser.newContext({ locale, viewport: { width: 360, height: 740 } });
        try {
          const page = await context.newPage();
          const errors: string[] = [];
          page.on("pageerror", (error) => errors.push(error.message));
          page.on("console", (message) => errors.push(message.text()));
          await page.goto(`${listening.url}/`);
          expect(await page.getAttribute("html", "lang"), locale).to.equal(locale.slice(0, 2));
          expect(await axeViolations(page), locale).to.deep.equal([]);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(overflow, locale).to.equal(360);
          expect(errors, errors.join("\n")).to.deep.equal([]);
        } finally {
          await context.close();
        }
      }
    } finally {
      await browser.close();
      await listening.close();
    }
  });
});
