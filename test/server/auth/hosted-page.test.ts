import { expect } from "chai";
import { getBytes, Wallet } from "ethers";
import * as oidc from "openid-client";
import type { Page } from "playwright-core";
import { axeViolations } from "../../helpers/axe";
import { launchBrowser } from "../../helpers/browser";
import type { PageDocument, PageWindow } from "../../helpers/page-globals";
import {
  deploySigners,
  registerClient,
  registerHoldingsClient,
  relyingPartyCodeGrant,
  relyingPartyRequest,
  startLoginApp,
} from "./helpers";
import { expectRefusal } from "../../helpers/refusal";
import { PAGE_CSP } from "../../../server/http/html-page";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { injectWallet } from "../../helpers/test-wallet";

// Functions below run in the page (tsconfig has no DOM library): these name its globals for the type checker.
declare const window: PageWindow & {
  /** The test wallet's signer in Node, exposed by the test. */
  __testSign(hex: string): Promise<string>;
};
declare const document: PageDocument;

const RP = "https://rp.example";

describe("hosted login page (headless Chromium)", function () {
  this.timeout(120_000);
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const wallet1271 = (await deploySigners(chain.url)).single;
    // It listens: Chromium opens the pages, and openid-client, the relying party, fetches the service by itself.
    const t = chain.closesWith(await startLoginApp(chain.url, { listen: true }));
    const client = await registerClient(t, { name: "Browser RP", redirectUris: [`${RP}/callback`] });
    return { t, client, wallet1271, browser: chain.closesWith(await launchBrowser()) };
  });

  const relyingParty = (extra: Record<string, string> = {}) => {
    const { t, client } = suite();
    return relyingPartyRequest(t, client, oidc.ClientSecretPost(client.secret!), extra);
  };

  /** A browser context whose wallet signs with `sign`; the RP's callback is answered locally (no network). */
  async function openPage(
    wallet: { address: string; sign(hex: string): Promise<string> },
    mode: "eip6963" | "window.ethereum" | "none",
    locale = "en-US",
    { walletName, viewport }: { walletName?: string; viewport?: { width: number; height: number } } = {},
  ) {
    const context = await suite().browser.newContext({ locale, viewport });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.exposeFunction("__testSign", (hex: string) => wallet.sign(hex));
    await injectWallet(page, { address: wallet.address, chainId: 31337, mode, name: walletName });
    await page.route(`${RP}/**`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>RP</title>" }),
    );
    return { page, context, errors };
  }

  async function logIn(
    wallet: { address: string; sign(hex: string): Promise<string> },
    mode: "eip6963" | "window.ethereum",
    buttonName: RegExp,
    request?: Awaited<ReturnType<typeof relyingParty>>,
  ) {
    const rp = request ?? (await relyingParty());
    const { page, context, errors } = await openPage(wallet, mode);
    try {
      await page.goto(rp.url.href);
      expect(page.url()).to.match(/\/interaction\/[\w-]+$/);
      await page.getByRole("button", { name: buttonName }).click();
      await page.waitForURL(`${RP}/callback?**`, { timeout: 30_000 });
      const tokens = await relyingPartyCodeGrant(rp, page.url());
      const claims = tokens.claims()!;
      const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, claims.sub);
      expect(errors, errors.join("\n")).to.deep.equal([]);
      return { claims, info };
    } finally {
      await context.close();
    }
  }

  it("logs an EOA in through an EIP-6963 wallet and sends the browser back to the relying party with the code", async function () {
    const key = Wallet.createRandom();
    const { claims, info } = await logIn(
      { address: key.address, sign: (hex) => key.signMessage(getBytes(hex)) },
      "eip6963",
      /Sign in with Test Wallet/,
    );
    expect(claims.sub).to.equal(key.address.toLowerCase());
    expect(info.address).to.equal(key.address);
  });

  it("logs an EIP-1271 wallet in through window.ethereum (a wallet without EIP-6963)", async function () {
    const { wallet1271 } = suite();
    const { claims } = await logIn(
      { address: wallet1271.address, sign: (hex) => wallet1271.sign(getBytes(hex) as unknown as string) },
      "window.ethereum",
      /Sign in with browser wallet/,
    );
    expect(claims.sub).to.equal(`eip155:31337:${wallet1271.address.toLowerCase()}`);
  });

  it("names a wallet whose name holds String.replace patterns ($', $`, $&, $1, $$) exactly as it announced itself", async function () {
    const name = "W $' $` $& $1 $$ <b>";
    const rp = await relyingParty();
    const { page, context, errors } = await openPage(
      { address: Wallet.createRandom().address, sign: async () => "0x" },
      "eip6963",
      "en-US",
      { walletName: name },
    );
    try {
      await page.goto(rp.url.href);
      await page.getByRole("button", { name: "Sign in with", exact: false }).waitFor();
      expect(await page.getByRole("button", { name: "Sign in with", exact: false }).textContent()).to.equal(`Sign in with ${name}`);
      expect(errors, errors.join("\n")).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it("is served with a strict CSP and no inline script or style", async function () {
    const rp = await relyingParty();
    const { page, context } = await openPage({ address: Wallet.createRandom().address, sign: async () => "0x" }, "eip6963");
    try {
      const response = await page.goto(rp.url.href);
      const csp = (await response!.allHeaders())["content-security-policy"];
      expect(csp).to.include("default-src 'none'").and.include("script-src 'self'").and.not.include("unsafe-inline");
      const html = await response!.text();
      expect(html).to.not.match(/<script(?![^>]*\bsrc=)/);
      expect(html).to.not.match(/\sstyle=|<style/);
      expect(html).to.not.match(/\son[a-z]+=/);
    } finally {
      await context.close();
    }
  });

  it("speaks Japanese to a Japanese browser and says so when no wallet is found", async function () {
    const rp = await relyingParty();
    const { page, context } = await openPage({ address: Wallet.createRandom().address, sign: async () => "0x" }, "none", "ja-JP");
    try {
      await page.goto(rp.url.href);
      expect(await page.getAttribute("html", "lang")).to.equal("ja");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).to.equal("ウォレットでログイン");
      await page.waitForFunction(() => document.getElementById("alert")?.textContent?.includes("見つかりません"));
      expect(await page.getByRole("alert").textContent()).to.equal(
        "このブラウザにウォレットが見つかりません。ウォレットの拡張機能を入れるか、ウォレットのブラウザでこのページを開いてください。",
      );
      expect(await page.getByRole("status").textContent()).to.equal("");
    } finally {
      await context.close();
    }
  });

  it("without a wallet, links where to get one, and only on the local demo names `npm run demo-login` (en and ja)", async function () {
    const { chain } = suite();
    const visibleHelp = async (page: Page) => {
      await page.locator("#no-wallet").waitFor({ state: "visible" });
      const link = page.locator("#no-wallet a");
      return {
        link: [await link.textContent(), await link.getAttribute("href")],
        demo: await page.locator("#no-wallet [data-demo]").count(),
      };
    };
    const noKey = { address: Wallet.createRandom().address, sign: async () => "0x" };
    const plain = await openPage(noKey, "none");
    try {
      await plain.page.goto((await relyingParty()).url.href);
      expect(await visibleHelp(plain.page)).to.deep.equal({
        link: ["Find a wallet extension for your browser (ethereum.org lists them)", "https://ethereum.org/en/wallets/find-wallet/"],
        demo: 0,
      });
    } finally {
      await plain.context.close();
    }
    // A browser with a wallet is not told to get one.
    const withWallet = await openPage(noKey, "eip6963");
    try {
      await withWallet.page.goto((await relyingParty()).url.href);
      await withWallet.page.getByRole("button", { name: "Sign in with Test Wallet" }).waitFor();
      expect(await withWallet.page.locator("#no-wallet").isVisible()).to.equal(false);
    } finally {
      await withWallet.context.close();
    }

    // The local demo of `npm start` (LOCAL_CHAIN on): the way in without a wallet, in both languages.
    const demo = await startLoginApp(chain.url, { listen: true, env: { LOCAL_CHAIN: "true" } });
    try {
      const demoClient = await registerClient(demo, { name: "Demo dApp", redirectUris: [`${RP}/callback`] });
      for (const [locale, link, sentence] of [
        [
          "en-US",
          ["Find a wallet extension for your browser (ethereum.org lists them)", "https://ethereum.org/en/wallets/find-wallet/"],
          "Trying the local demo without a wallet? In a terminal in the project, npm run demo-login logs the demo user in through the JSON API and prints its ID token.",
        ],
        [
          "ja-JP",
          ["ブラウザのウォレット拡張機能を探す (ethereum.org の一覧)", "https://ethereum.org/ja/wallets/find-wallet/"],
          "ウォレットなしでローカルデモを試すには、プロジェクトのターミナルで npm run demo-login を実行してください。デモユーザーとして JSON API でログインし、ID トークンを表示します。",
        ],
      ] as const) {
        const { page, context } = await openPage(noKey, "none", locale);
        try {
          const rp = await relyingPartyRequest(demo, demoClient, oidc.ClientSecretPost(demoClient.secret!));
          await page.goto(rp.url.href);
          expect(await visibleHelp(page), locale).to.deep.equal({ link, demo: 1 });
          expect(await page.locator("#no-wallet [data-demo]").textContent(), locale).to.equal(sentence);
          expect(await page.locator("#no-wallet [data-demo] code").textContent(), locale).to.equal("npm run demo-login");
        } finally {
          await context.close();
        }
      }
    } finally {
      await demo.close();
    }
  });

  it("takes ui_locales=ja from the authorization request, and signs a message in Japanese context", async function () {
    const rp = await relyingParty({ ui_locales: "ja" });
    const key = Wallet.createRandom();
    const { page, context } = await openPage({ address: key.address, sign: (hex) => key.signMessage(getBytes(hex)) }, "eip6963");
    try {
      await page.goto(rp.url.href);
      await page.getByRole("button", { name: "Test Wallet でログイン" }).click();
      await page.waitForURL(`${RP}/callback?**`);
      expect(new URL(page.url()).searchParams.get("code")).to.be.a("string");
    } finally {
      await context.close();
    }
  });

  it("shows an error page, not a login, when the interaction cookie is missing (the link was opened elsewhere)", async function () {
    const { t } = suite();
    const rp = await relyingParty();
    const first = await fetch(rp.url, { redirect: "manual" });
    const location = first.headers.get("location")!;
    const answer = await t.fetch(location);
    await expectRefusal(answer, 400, "interaction_expired", { dialect: "html" });
    const page = await answer.text();
    expect(page).to.include("expired").and.not.include("data-request");
    // The request's client is not known without the cookie: the way back is our root.
    expect(page).to.include('<p><a href="/">Back to the home page</a></p>');
  });

  it("speaks the browser's most preferred language it knows, also on the error page", async function () {
    const { t } = suite();
    const rp = await relyingParty();
    const location = (await fetch(rp.url, { redirect: "manual" })).headers.get("location")!;
    const answer = await t.fetch(location, { headers: { "accept-language": "fr-CH, fr;q=0.9, ja;q=0.8, en;q=0.7" } });
    await expectRefusal(answer, 400, "interaction_expired", { dialect: "html" });
    expect(await answer.text())
      .to.include('<html lang="ja">')
      .and.include("このログイン要求は期限切れ");
  });

  it("refuses a response_mode other than query with an error page", async function () {
    const rp = await relyingParty({ response_mode: "fragment" });
    const { page, context } = await openPage({ address: Wallet.createRandom().address, sign: async () => "0x" }, "eip6963");
    try {
      const response = (await page.goto(rp.url.href))!;
      await expectRefusal(
        { status: response.status(), headers: await response.allHeaders(), body: await response.text() },
        400,
        "unsupported_response_mode",
        {
          dialect: "html",
        },
      );
      expect(await page.getByRole("alert").textContent()).to.include("response_mode=fragment");
      // No home page registered: the origin of its redirect URI.
      expect(await page.getByRole("link", { name: "Back to Browser RP" }).getAttribute("href")).to.equal(`${RP}/`);
    } finally {
      await context.close();
    }
  });

  it("shows the authorization endpoint's own error page (an unregistered redirect_uri) in the pages' style, with a way back", async function () {
    const { t } = suite();
    const shop = await registerClient(t, {
      name: "Shop",
      redirectUris: [`${RP}/callback`],
      profile: { homeUrl: `${RP}/home`, title: { ja: "ショップ" } },
    });
    const authorize = (clientId: string) =>
      `${t.url}/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: "https://evil.example/cb", response_type: "code", scope: "openid" })}`;
    const cases = [
      {
        clientId: shop.id,
        locale: "en-US",
        code: "invalid_redirect_uri",
        link: "Back to Shop",
        href: `${RP}/home`,
        title: "Sign-in error",
      },
      {
        clientId: shop.id,
        locale: "ja-JP",
        code: "invalid_redirect_uri",
        link: "ショップ に戻る",
        href: `${RP}/home`,
        title: "ログインエラー",
      },
      // No client to go back to: our root.
      {
        clientId: "no-such-client",
        locale: "en-US",
        code: "invalid_client",
        link: "Back to the home page",
        href: "/",
        title: "Sign-in error",
      },
    ];
    for (const c of cases) {
      const { page, context, errors } = await openPage(
        { address: Wallet.createRandom().address, sign: async () => "0x" },
        "none",
        c.locale,
      );
      try {
        const response = (await page.goto(authorize(c.clientId)))!;
        await expectRefusal({ status: response.status(), headers: await response.allHeaders(), body: await response.text() }, 400, c.code, {
          dialect: "html",
          label: `${c.clientId} ${c.locale}`,
          headers: { "content-security-policy": PAGE_CSP, "cache-control": "no-store" },
        });
        expect(await page.getByRole("heading", { level: 1 }).textContent()).to.equal(c.title);
        expect(await page.getByRole("alert").textContent()).to.match(new RegExp(`^${c.code}: .+`));
        // The stylesheet loaded under the page's CSP: the card of the login page.
        const style = await page.evaluate(() => {
          const computed = window.getComputedStyle(document.getElementById("login")!);
          return { maxWidth: computed.maxWidth, background: computed.backgroundColor };
        });
        expect(style).to.deep.equal({ maxWidth: "448px", background: "rgb(255, 255, 255)" });
        expect(await axeViolations(page), c.locale).to.deep.equal([]);
        const back = page.getByRole("link", { name: c.link });
        expect(await back.getAttribute("href")).to.equal(c.href);
        if (c.href.startsWith(RP)) {
          await back.click();
          await page.waitForURL(c.href);
        }
        // Chromium logs the page's own 400; nothing else may fail (the stylesheet's load is checked above).
        expect(errors).to.deep.equal(["Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
      } finally {
        await context.close();
      }
    }
  });

  it("shows the wallet's refusal and lets the user try again", async function () {
    const rp = await relyingParty();
    const key = Wallet.createRandom();
    let refuse = true;
    const { page, context } = await openPage(
      {
        address: key.address,
        sign: async (hex) => {
          if (refuse) {
            refuse = false;
            return "0x1234";
          }
          return key.signMessage(getBytes(hex));
        },
      },
      "eip6963",
    );
    try {
      await page.goto(rp.url.href);
      const button = page.getByRole("button", { name: /Sign in with Test Wallet/ });
      await button.click();
      // The service's refusal, announced at once (role=alert), not as a polite status.
      await page.waitForFunction(() => document.getElementById("alert")?.textContent);
      expect(await page.getByRole("alert").textContent()).to.match(/^Sign-in failed: \S/);
      expect(await page.getByRole("status").textContent()).to.equal("");
      await button.click();
      await page.waitForURL(`${RP}/callback?**`);
    } finally {
      await context.close();
    }
  });

  it("can be used with the keyboard alone, with a visible focus", async function () {
    const rp = await relyingParty();
    const key = Wallet.createRandom();
    const { page, context, errors } = await openPage({ address: key.address, sign: (hex) => key.signMessage(getBytes(hex)) }, "eip6963");
    try {
      await page.goto(rp.url.href);
      await page.getByRole("button", { name: "Sign in with Test Wallet" }).waitFor();
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
      for (let i = 0; i < 20 && (await focused()) !== "Sign in with Test Wallet"; i++) await page.keyboard.press("Tab");
      expect(await focused()).to.equal("Sign in with Test Wallet");
      const outline = await page.evaluate(() => window.getComputedStyle(document.activeElement!).outlineStyle);
      expect(outline, "focus ring on the wallet's button").to.not.equal("none");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${RP}/callback?**`);
      expect(new URL(page.url()).searchParams.get("code")).to.be.a("string");
      expect(errors, errors.join("\n")).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it("fits a 360 px wide screen: nothing overflows horizontally, also with an error shown", async function () {
    for (const mode of ["eip6963", "none"] as const) {
      const rp = await relyingParty();
      const { page, context } = await openPage({ address: Wallet.createRandom().address, sign: async () => "0x" }, mode, "en-US", {
        viewport: { width: 360, height: 740 },
      });
      try {
        await page.goto(rp.url.href);
        if (mode === "none") await page.getByRole("alert").filter({ hasText: "No wallet was found" }).waitFor();
        else await page.getByRole("button", { name: "Sign in with Test Wallet" }).waitFor();
        const overflow = await page.evaluate(() => {
          const wide = Array.from(document.querySelectorAll("body *")).filter((node) => node.getBoundingClientRect().right > 360.5);
          return { scrollWidth: document.documentElement.scrollWidth, wide: wide.map((node) => node.tagName + "#" + node.id) };
        });
        expect(overflow, mode).to.deep.equal({ scrollWidth: 360, wide: [] });
      } finally {
        await context.close();
      }
    }
  });

  it("passes axe-core's accessibility checks: with a wallet to choose, with no wallet found, and as the error page", async function () {
    const rp = await relyingParty();
    const withWallet = await openPage({ address: Wallet.createRandom().address, sign: async () => "0x" }, "eip6963");
    try {
      await withWallet.page.goto(rp.url.href);
      await withWallet.page.getByRole("button", { name: "Sign in with Test Wallet" }).waitFor();
      expect(await axeViolations(withWallet.page)).to.deep.equal([]);
    } finally {
      await withWallet.context.close();
    }
    const noWallet = await openPage({ address: Wallet.createRandom().address, sign: async () => "0x" }, "none", "ja-JP");
    try {
      await noWallet.page.goto((await relyingParty()).url.href);
      await noWallet.page.getByRole("alert").filter({ hasText: "見つかりません" }).waitFor();
      expect(await axeViolations(noWallet.page)).to.deep.equal([]);
    } finally {
      await noWallet.context.close();
    }
    const errorPage = await openPage({ address: Wallet.createRandom().address, sign: async () => "0x" }, "none");
    try {
      await errorPage.page.goto((await relyingParty({ response_mode: "fragment" })).url.href);
      await errorPage.page.getByRole("alert").waitFor();
      expect(await axeViolations(errorPage.page)).to.deep.equal([]);
    } finally {
      await errorPage.context.close();
    }
  });

  it("says before the user signs which collections a gated client learns about, and sends a gate's refusal back to the client as access_denied (en and ja)", async function () {
    const { t, chain } = suite();
    const nft = await chain.deployAlice();
    const contract = await nft.getAddress();
    const holderKey = Wallet.createRandom();
    await (await nft.mint(holderKey.address, 1n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const condition = { network: "localhost", contract };
    // Its redirect URI is the RP's callback, which openPage answers.
    const gated = await registerHoldingsClient(t, "Gated Club", { collections: [condition], gate: condition });
    const request = () => relyingPartyRequest(t, gated, oidc.ClientSecretPost(gated.secret!));
    const cases = [
      {
        locale: "en-US",
        intro: "Gated Club will learn what the address you sign with holds of these collections, as this service has indexed them:",
        item: `${contract} on localhost`,
        gate: `Gated Club admits only addresses that hold at least 1 of ${contract} on localhost.`,
        refusal: new RegExp(`^0x[0-9a-fA-F]{40} does not meet the holdings Gated Club requires, as indexed at block \\d+ of localhost\\.`),
      },
      {
        locale: "ja-JP",
        intro: "Gated Club は、署名するアドレスが次のコレクションを保有しているか（このサービスのインデックスによる）を知ることになります:",
        item: `localhost の ${contract} のトークン`,
        gate: `Gated Club にログインできるのは、localhost の ${contract} のトークンを 1 個以上 を保有するアドレスだけです。`,
        refusal: /^0x[0-9a-fA-F]{40} は Gated Club が求める保有条件を満たしていません（localhost のブロック \d+ 時点のインデックス）。/,
      },
    ];
    for (const c of cases) {
      const stranger = Wallet.createRandom();
      const { page, context, errors } = await openPage(
        { address: stranger.address, sign: (hex) => stranger.signMessage(getBytes(hex)) },
        "eip6963",
        c.locale,
      );
      try {
        const rp = await request();
        await page.goto(rp.url.href);
        expect(await page.locator("#holdings p").first().textContent(), c.locale).to.equal(c.intro);
        expect(await page.locator("#holdings li").allTextContents(), c.locale).to.deep.equal([c.item]);
        expect(await page.locator("#gate").textContent(), c.locale).to.equal(c.gate);
        expect(await axeViolations(page), c.locale).to.deep.equal([]);
        await page.getByRole("button", { name: /Test Wallet/ }).click();
        // Back at the client with OAuth's error, the refusal's words, the request's state and the issuer.
        await page.waitForURL(`${RP}/callback?**`, { timeout: 30_000 });
        const answer = new URL(page.url());
        expect(answer.searchParams.get("error"), c.locale).to.equal("access_denied");
        expect(answer.searchParams.get("error_description"), c.locale).to.match(c.refusal);
        expect([answer.searchParams.get("state"), answer.searchParams.get("iss")], c.locale).to.deep.equal([rp.state, t.config.issuer]);
        expect(answer.searchParams.has("code"), c.locale).to.equal(false);
        // openid-client checks iss and state, then reports the refusal.
        const refused = await oidc
          .authorizationCodeGrant(rp.config, answer, { pkceCodeVerifier: rp.verifier, expectedNonce: rp.nonce, expectedState: rp.state })
          .then(
            () => expect.fail("a code was exchanged"),
            (error: unknown) => error as oidc.AuthorizationResponseError,
          );
        expect(refused, c.locale).to.be.instanceOf(oidc.AuthorizationResponseError);
        expect([refused.error, refused.error_description], c.locale).to.deep.equal([
          "access_denied",
          answer.searchParams.get("error_description"),
        ]);
        // The browser logs the refused request itself; nothing else may go wrong.
        const unexpected = errors.filter((error) => !/the server responded with a status of 403/.test(error));
        expect(unexpected, unexpected.join("\n")).to.deep.equal([]);
      } finally {
        await context.close();
      }
    }
    // A collection the request names in its claims parameter is listed too, before anyone signs.
    const asked = JSON.stringify({ id_token: { holdings: { collections: [{ network: "localhost", contract, token_ids: ["1"] }] } } });
    const asking = await openPage({ address: holderKey.address, sign: async () => "0x" }, "eip6963");
    try {
      await asking.page.goto((await relyingPartyRequest(t, gated, oidc.ClientSecretPost(gated.secret!), { claims: asked })).url.href);
      expect(await asking.page.locator("#holdings li").allTextContents()).to.deep.equal([
        `${contract} on localhost`,
        `token 1 of ${contract} on localhost`,
      ]);
    } finally {
      await asking.context.close();
    }
    // The holder passes, and the relying party finds the claim in the ID token and userinfo.
    const holder = { address: holderKey.address, sign: (hex: string) => holderKey.signMessage(getBytes(hex)) };
    const { claims, info } = await logIn(holder, "eip6963", /Test Wallet/, await request());
    expect((claims.holdings as Array<{ count: string }>)[0].count).to.equal("1");
    expect(info.holdings).to.deep.equal(claims.holdings);
  });
});
