import { expect } from "chai";
import type { LoginClient } from "../../../server/auth/clients";
import { errorPage } from "../../../server/auth/error-page";
import { escapeHtml } from "../../../server/lib/html";

/** A client as the store reads it, with only what the page looks at set. */
function client(
  name: string,
  redirectUris: string[],
  homeUrl: string | null = null,
  title: LoginClient["profile"]["title"] = {},
): LoginClient {
  return {
    id: "c1",
    name,
    redirectUris,
    public: false,
    secretHash: null,
    createdAt: new Date(0),
    profile: { title, description: {}, logoUrl: null, homeUrl },
    subjectFormat: "address",
    postLogoutRedirectUris: [],
    holdings: null,
  };
}

describe("the authorization endpoint's error page", function () {
  it("escapes the error and description with the pages' escaper", function () {
    const page = errorPage({ error: "invalid_request", description: `<script>alert("x")</script> & 'q'` });
    expect(page).to.include(`<p role="alert">invalid_request: ${escapeHtml(`<script>alert("x")</script> & 'q'`)}</p>`);
    expect(page).to.include("&lt;script&gt;").and.not.include("<script>alert");
  });

  it("shows an error of oidc-provider's that has no description", function () {
    expect(errorPage({ error: "server_error", description: undefined })).to.include('<p role="alert">server_error: </p>');
  });

  it("is a page of ours: the login pages' stylesheet and script, the code in data-error", function () {
    const page = errorPage({ error: "invalid_client", description: "client is invalid" });
    expect(page).to.match(/^<!doctype html>\n<html lang="en">/);
    expect(page).to.include("<title>Sign-in error</title>");
    expect(page).to.include('<link rel="stylesheet" href="/login/page.css">');
    expect(page).to.include('<script type="module" src="/login/page.js"></script>');
    expect(page).to.include('<main id="login" data-error="invalid_client"><h1>Sign-in error</h1>');
  });

  it("links back to the client's home page, else its first web redirect URI's origin, else our root", function () {
    const links = [
      errorPage({ error: "e", description: "d", client: client("Shop", ["https://shop.example/cb"], "https://shop.example/home") }),
      errorPage({ error: "e", description: "d", client: client("Shop", ["myapp://cb", "https://shop.example:8443/cb?x=1"]) }),
      errorPage({ error: "e", description: "d", client: client("App", ["myapp://cb"]) }),
      errorPage({ error: "e", description: "d" }),
    ].map((page) => /<p><a href="([^"]*)">([^<]*)<\/a><\/p>/.exec(page)?.slice(1));
    expect(links).to.deep.equal([
      ["https://shop.example/home", "Back to Shop"],
      ["https://shop.example:8443/", "Back to Shop"],
      ["/", "Back to the home page"],
      ["/", "Back to the home page"],
    ]);
  });

  it("speaks Japanese when ui_locales or the browser ask for it, naming the client by its Japanese title", function () {
    const shop = client("Shop", ["https://shop.example/cb"], null, { ja: "ショップ" });
    const byLocales = errorPage({ error: "e", description: "d", client: shop, uiLocales: "ja", acceptLanguage: "en" });
    expect(byLocales).to.include('<html lang="ja">').and.include("<h1>ログインエラー</h1>");
    expect(byLocales).to.include('<a href="https://shop.example/">ショップ に戻る</a>');
    const byBrowser = errorPage({ error: "e", description: "d", acceptLanguage: "ja-JP,en;q=0.5" });
    expect(byBrowser).to.include('<html lang="ja">').and.include('<a href="/">ホームページに戻る</a>');
    expect(errorPage({ error: "e", description: "d", client: shop })).to.include('<a href="https://shop.example/">Back to Shop</a>');
  });

  it("escapes a client's name and home URL", function () {
    const page = errorPage({ error: "e", description: "d", client: client(`<b>"x"</b>`, [], `https://a.example/?q="><script>`) });
    expect(page).to.include(`<a href="https://a.example/?q=&quot;&gt;&lt;script&gt;">Back to &lt;b&gt;&quot;x&quot;&lt;/b&gt;</a>`);
  });
});
