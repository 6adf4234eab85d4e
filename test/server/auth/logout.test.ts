import { expect } from "chai";
import { expectRefusal } from "../../helpers/refusal";
import { Wallet } from "ethers";
import * as oidc from "openid-client";
import { PAGE_CSP } from "../../../server/http/html-page";
import { fetchJson, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { eoaSigner, registerClient, relyingPartyLogin, startLoginApp, type RegisteredClient } from "./helpers";

describe("RP-initiated logout", function () {
  let t: TestApp;
  let client: RegisteredClient;
  const signedOut = "https://rp.example/signed-out";

  before(async function () {
    t = await startLoginApp((await sharedNode()).url, { listen: true });
    client = await registerClient(t, { name: "Logout RP", postLogoutRedirectUris: [signedOut] });
  });
  after(async () => t?.close());

  /** What a browser accepts: errors come as a page. */
  const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

  /** The browser's first step: the logout request, answered with a page that posts itself to the confirmation. */
  async function logoutRequest(url: URL, headers: Record<string, string> = {}) {
    const response = await fetch(url, { redirect: "manual", headers: { ...html, ...headers } });
    const body = await response.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(body)?.[1];
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    return { response, body, xsrf, cookie };
  }

  /** The browser's second step: the page's form, posted with the cookies of the first. */
  async function confirm(step: { xsrf?: string; cookie: string }, headers: Record<string, string> = {}) {
    return fetch(`${t.config.issuer}/session/end/confirm`, {
      method: "POST",
      redirect: "manual",
      headers: { ...html, "content-type": "application/x-www-form-urlencoded", cookie: step.cookie, ...headers },
      body: new URLSearchParams({ xsrf: step.xsrf ?? "", logout: "yes" }).toString(),
    });
  }

  it("publishes the end_session_endpoint", async function () {
    const { body } = await fetchJson(t, "/.well-known/openid-configuration");
    expect(body.end_session_endpoint).to.equal(`${t.config.issuer}/session/end`);
  });

  it("sends the browser back to a registered post_logout_redirect_uri with the state (openid-client's buildEndSessionUrl)", async function () {
    const { config, tokens } = await relyingPartyLogin(t, client, eoaSigner(Wallet.createRandom()));
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: signedOut, state: "bye-1" });
    expect(url.href.startsWith(`${t.config.issuer}/session/end?`)).to.equal(true);
    const step = await logoutRequest(url);
    expect(step.response.status).to.equal(200);
    expect(step.xsrf).to.be.a("string");
    // The page's inline script (oidc-provider's) runs by its hash; its form may lead to the RP's origin only.
    const csp = step.response.headers.get("content-security-policy")!;
    expect(csp).to.match(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).to.include("form-action 'self' https://rp.example");
    const done = await confirm(step);
    expect(done.status).to.equal(303);
    expect(done.headers.get("location")).to.equal(`${signedOut}?state=bye-1`);
  });

  it("without a post_logout_redirect_uri, ends on a page in the login page's style and the browser's language", async function () {
    const { config } = await relyingPartyLogin(t, client, eoaSigner(Wallet.createRandom()));
    const step = await logoutRequest(oidc.buildEndSessionUrl(config, {}));
    const done = await confirm(step);
    expect(done.status).to.equal(303);
    const success = new URL(done.headers.get("location")!, t.config.issuer);
    expect(success.pathname).to.equal("/session/end/success");
    for (const [language, text] of [
      ["ja,en;q=0.5", "ログアウトしました。"],
      ["en", "You are signed out."],
    ]) {
      const page = await fetch(success, { headers: { "accept-language": language } });
      expect(page.status).to.equal(200);
      expect(page.headers.get("content-security-policy")).to.equal(PAGE_CSP);
      const html = await page.text();
      expect(html)
        .to.include(`<html lang="${language.slice(0, 2)}">`)
        .and.include(text)
        .and.include('href="/login/page.css"');
    }
  });

  it("refuses an unregistered post_logout_redirect_uri, a bad id_token_hint and an unknown client with an error page, never a redirect", async function () {
    const { config, tokens } = await relyingPartyLogin(t, client, eoaSigner(Wallet.createRandom()));
    const cases: Array<[Record<string, string>, string]> = [
      [
        { id_token_hint: tokens.id_token!, post_logout_redirect_uri: "https://evil.example/" },
        "invalid_request: post_logout_redirect_uri not registered",
      ],
      [{ id_token_hint: "not.a.jwt", post_logout_redirect_uri: signedOut }, "invalid_request: could not decode id_token_hint"],
      [{ client_id: "no-such-client", post_logout_redirect_uri: signedOut }, "invalid_client: client is invalid"],
    ];
    for (const [params, error] of cases) {
      const url = new URL(`${t.config.issuer}/session/end?${new URLSearchParams(params)}`);
      const { response, body } = await logoutRequest(url);
      await expectRefusal({ status: response.status, headers: response.headers, body }, 400, error.split(":")[0], {
        dialect: "html",
        message: new RegExp(error.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
      });
      expect(response.headers.get("location")).to.equal(null);
    }
    // A registered URI of another client is not this client's.
    const other = await registerClient(t, { name: "Other", postLogoutRedirectUris: ["https://other.example/bye"] });
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: "https://other.example/bye" });
    expect((await logoutRequest(url)).body).to.include("post_logout_redirect_uri not registered");
    expect(other.id).to.be.a("string");
  });

  it("answers a POSTed authorization or logout request with a 405 page naming GET, and a confirmation that is no form with a 400 page", async function () {
    const bodies: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ["application/x-www-form-urlencoded", "client_id=x&logout=yes"],
      ["application/json", '{"logout":"yes"}'],
      ["text/plain", "logout=yes"],
    ];
    const post = (path: string, type: string | undefined, body: string | undefined) =>
      fetch(`${t.config.issuer}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { ...html, ...(type ? { "content-type": type } : {}) },
        body,
      });
    for (const path of ["/authorize", "/session/end"]) {
      for (const [type, body] of bodies) {
        await expectRefusal(await post(path, type, body), 405, "method_not_allowed", {
          dialect: "html",
          label: `${path} ${type}`,
          headers: { allow: "GET" },
          message: new RegExp(`${path} takes GET requests \\(query parameters\\), not POST`),
        });
      }
    }
    for (const [type, body] of bodies.filter(([type]) => type !== "application/x-www-form-urlencoded")) {
      await expectRefusal(await post("/session/end/confirm", type, body), 400, "invalid_request", {
        dialect: "html",
        label: String(type),
        message: /POST \/session\/end\/confirm takes a form body/,
      });
    }
  });

  it("refuses a confirmation without the request's xsrf token and cookies", async function () {
    const answer = await confirm({ xsrf: "forged", cookie: "" });
    await expectRefusal(answer, 400, "invalid_request", { dialect: "html", message: /invalid_request: could not find logout details/ });
    expect(answer.headers.get("location")).to.equal(null);
  });
});
