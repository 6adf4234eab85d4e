import { expect } from "chai";
import { PAGE_ASSETS } from "../../../server/auth/page";
import { CONVERT_ASSETS } from "../../../server/converter/page";
import { negotiateLanguage } from "../../../server/http/language";
import { SHARED_PAGE_ASSETS } from "../../../server/http/page-assets";
import { appForSuite } from "../../helpers/suite-app";

describe("the pages' scripts and styles", function () {
  const t = appForSuite();

  const assets = { ...PAGE_ASSETS, ...CONVERT_ASSETS, ...SHARED_PAGE_ASSETS };

  it("serves each with its type and five minutes of browser caching", async function () {
    for (const [path, asset] of Object.entries(assets)) {
      const response = await t().fetch(path);
      expect(response.status, path).to.equal(200);
      expect(response.headers.get("content-type"), path).to.equal(
        path.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
      );
      expect(response.headers.get("cache-control"), path).to.equal("public, max-age=300");
      expect(response.headers.get("x-content-type-options"), path).to.equal("nosniff");
      expect(await response.text(), path).to.equal(asset.body);
    }
  });

  it("serves every module a page's script imports, at one URL for both pages", async function () {
    const imported = new Set<string>();
    for (const [path, asset] of Object.entries(assets)) {
      if (!path.endsWith(".js")) continue;
      const specifiers = [...asset.body.matchAll(/^import\b[^;]*?\bfrom\s+"([^"]+)";$/gm)].map((m) => m[1]);
      for (const specifier of specifiers) {
        const url = new URL(specifier, `http://page.example${path}`).pathname;
        expect(SHARED_PAGE_ASSETS, `${path} imports ${specifier}`).to.have.property(url);
        imported.add(url);
      }
    }
    expect([...imported].sort()).to.deep.equal(["/static/messages.js", "/static/wallets.js"]);
    for (const page of ["/login/page.js", "/convert/page.js"]) {
      expect(assets[page].body, page).to.include('from "../static/wallets.js"').and.include('from "../static/messages.js"');
    }
  });

  it("loads a page's script as an ES module", async function () {
    const html = await (await t().fetch("/convert")).text();
    expect(html).to.include('<script type="module" src="/convert/page.js"></script>');
  });

  it("speaks the browser's most preferred language it knows, not only its first one", async function () {
    const lang = async (path: string, acceptLanguage: string) => {
      const html = await (await t().fetch(path, { headers: { "accept-language": acceptLanguage } })).text();
      return /<html lang="(\w+)">/.exec(html)?.[1];
    };
    expect(await lang("/convert", "fr-CH, fr;q=0.9, ja;q=0.8, en;q=0.7")).to.equal("ja");
    expect(await lang("/convert", "en;q=0.5, ja-JP")).to.equal("ja");
    expect(await lang("/convert", "ja;q=0, en")).to.equal("en");
    expect(await lang("/convert?lang=fr", "ja")).to.equal("ja");
    expect(await lang("/convert?lang=ja-JP", "en")).to.equal("ja");
    expect(await lang("/convert?lang=en", "ja")).to.equal("en");
  });
});

describe("negotiateLanguage", function () {
  const pick = (requested: unknown, acceptLanguage?: string) => negotiateLanguage(["en", "ja"], requested, acceptLanguage);

  it("takes the first requested language it speaks (OIDC's space-separated ui_locales, or ?lang=)", function () {
    expect(pick("fr-CA ja en")).to.equal("ja");
    expect(pick("JA-jp", "en")).to.equal("ja");
    expect(pick("en", "ja")).to.equal("en");
  });

  it("falls back to Accept-Language by q-value, then to the first language it speaks", function () {
    expect(pick("fr", "de, ja;q=0.3, en;q=0.2")).to.equal("ja");
    expect(pick(undefined, "en;q=0.1, ja;q=0.9")).to.equal("ja");
    expect(pick(["ja"], "de")).to.equal("en");
    expect(pick("", undefined)).to.equal("en");
    expect(pick(undefined, "*")).to.equal("en");
    expect(pick(undefined, ";;,,q=1, ja;q=abc")).to.equal("ja");
  });
});
