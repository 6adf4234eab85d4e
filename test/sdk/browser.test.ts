import { expect } from "chai";
import { build } from "esbuild";
import { Wallet, type HDNodeWallet } from "ethers";
import { createHash } from "node:crypto";
import path from "node:path";
import type { Page } from "playwright-core";
import type * as Sdk from "../../sdk/src/index";
import type * as Login from "../../sdk/src/login";
import { createLoginServer } from "../../sdk/src/server";
import { launchBrowser } from "../helpers/browser";
import { servePage } from "../helpers/page-server";
import { SuiteChain } from "../helpers/suite-chain";
import { indexedTo } from "../helpers/index-check";
import type { PageWindow } from "../helpers/page-globals";
import { expectRefusal } from "../helpers/refusal";
import { rejection, sdkRefusal } from "../helpers/sdk";
import { injectWallet } from "../helpers/test-wallet";
import { registerClient, startLoginApp } from "../server/auth/helpers";

/** The SDK as a dApp's bundle puts it in the page (the test's page script reads it as `window.sdk`). */
type PageSdk = typeof Sdk & typeof Login;
// Functions below run in the page (tsconfig has no DOM library): these name its globals for the type checker.
declare const window: PageWindow & { sdk: PageSdk; seen: Sdk.LiveEvent[] };

describe("SDK in a browser (headless Chromium)", function () {
  this.timeout(120_000);
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const alice = await chain.deployAlice();
    const t = chain.closesWith(await startLoginApp(chain.url, { listen: true, env: { INDEXER_POLL_MS: "50" } }));
    await indexedTo(t.app.db, "localhost", chain.provider);
    const client = await registerClient(t, { name: "Browser dApp", redirectUris: ["https://dapp.example/callback"] });
    const built = await build({
      stdin: {
        contents: 'export * from "./index.ts"; export * from "./login.ts";',
        resolveDir: path.join(__dirname, "../../sdk/src"),
        loader: "ts",
      },
      bundle: true,
      format: "iife",
      globalName: "sdk",
      platform: "browser",
      write: false,
      logLevel: "silent",
    });
    /** A dApp's page: every request to the service is a cross-origin one. */
    const dappPage = await servePage(`<!doctype html><title>dApp</title><script>${built.outputFiles[0].text}</script>`);
    chain.closesWith({ close: async () => dappPage.close() });
    return { alice, t, client, dappPage, browser: chain.closesWith(await launchBrowser()) };
  });

  async function dapp(wallet: HDNodeWallet, mode: "eip6963" | "window.ethereum"): Promise<Page> {
    const { browser, dappPage } = suite();
    const page = await browser.newPage();
    await page.exposeFunction("__testSign", (hex: string) => wallet.signMessage(Buffer.from(hex.slice(2), "hex")));
    await injectWallet(page, { address: wallet.address, chainId: 31337, mode, name: "Test Wallet" });
    await page.goto(dappPage.url);
    return page;
  }

  for (const mode of ["eip6963", "window.ethereum"] as const) {
    it(`finds the wallet (${mode}) and logs in through the JSON flow; the dApp's server exchanges the code`, async function () {
      const { t, client } = suite();
      const wallet = Wallet.createRandom();
      const page = await dapp(wallet, mode);
      const login = await page.evaluate(
        async ({ baseUrl, clientId, redirectUri }) => {
          const wallets = await window.sdk.discoverWallets();
          const result = await window.sdk.signIn({ baseUrl, clientId, redirectUri, provider: wallets[0].provider, nonce: "browser" });
          return { names: wallets.map((found) => found.info.name), ...result };
        },
        { baseUrl: t.url, clientId: client.id, redirectUri: client.redirectUri },
      );
      expect(login.names).to.deep.equal([mode === "eip6963" ? "Test Wallet" : "Injected wallet"]);
      expect(login.address).to.equal(wallet.address);
      const server = createLoginServer({ issuer: t.config.issuer, clientId: client.id, clientSecret: client.secret });
      const { claims } = await server.exchangeCode({ code: login.code, redirectUri: client.redirectUri, nonce: "browser" });
      expect(claims.sub).to.equal(wallet.address.toLowerCase());
      await page.close();
    });
  }

  it("logs in through the standard redirect flow with PKCE (S256), state and nonce; the dApp's server exchanges the code once", async function () {
    const { t, dappPage } = suite();
    const wallet = Wallet.createRandom();
    const redirectUri = `${dappPage.url}callback`;
    const spa = await registerClient(t, { name: "Redirect dApp", redirectUris: [redirectUri], public: true });
    const page = await dapp(wallet, "eip6963");
    const login = { issuer: t.config.issuer, clientId: spa.id, redirectUri };

    const request = await page.evaluate((options) => window.sdk.authorizationRequest(options), login);
    const sent = new URL(request.url).searchParams;
    expect(Object.fromEntries(sent)).to.deep.include({
      response_type: "code",
      client_id: spa.id,
      redirect_uri: redirectUri,
      scope: "openid",
      state: request.state,
      nonce: request.nonce,
      code_challenge_method: "S256",
      code_challenge: createHash("sha256").update(request.codeVerifier).digest("base64url"),
    });
    expect(request.codeVerifier).to.match(/^[\w-]{43}$/);

    await page.evaluate((options) => void window.sdk.redirectToLogin(options), login);
    await page.waitForURL(/\/interaction\//, { timeout: 30_000 });
    await page.getByRole("button", { name: /Test Wallet/ }).click();
    await page.waitForURL(`${redirectUri}?**`, { timeout: 30_000 });
    const callback = await page.evaluate(() => window.sdk.handleRedirectCallback());
    expect(callback).to.include({ issuer: t.config.issuer, clientId: spa.id, redirectUri });
    // The same callback a second time (a reload, a replay) finds no pending login.
    const again = await page.evaluate(() => {
      try {
        window.sdk.handleRedirectCallback();
        return null;
      } catch (error) {
        return { name: (error as Error).name, code: (error as Login.LoginRedirectError).code };
      }
    });
    expect(again).to.deep.equal({ name: "LoginRedirectError", code: "state_mismatch" });

    const server = createLoginServer({ issuer: t.config.issuer, clientId: spa.id });
    const { claims } = await server.exchangeCode(callback);
    expect(claims.sub).to.equal(wallet.address.toLowerCase());
    expect(claims.nonce).to.equal(callback.nonce);
    await expectRefusal(sdkRefusal(await rejection(server.exchangeCode(callback))), 400, "invalid_grant");
    await page.close();
  });

  it("gives the service's error of a redirect login as a LoginRedirectError", async function () {
    const { t, dappPage } = suite();
    const redirectUri = `${dappPage.url}callback`;
    const spa = await registerClient(t, { name: "Silent dApp", redirectUris: [redirectUri], public: true });
    const page = await dapp(Wallet.createRandom(), "eip6963");
    // prompt=none without a session at the service: it redirects back at once with login_required.
    const login = { issuer: t.config.issuer, clientId: spa.id, redirectUri, params: { prompt: "none" } };
    await page.evaluate((options) => void window.sdk.redirectToLogin(options), login);
    await page.waitForURL(`${redirectUri}?**`, { timeout: 30_000 });
    const refused = await page.evaluate(() => {
      try {
        return window.sdk.handleRedirectCallback();
      } catch (error) {
        return { name: (error as Error).name, code: (error as Login.LoginRedirectError).code };
      }
    });
    expect(refused).to.deep.equal({ name: "LoginRedirectError", code: "login_required" });
    await page.close();
  });

  it("reads the data routes and follows live events, without EventSource", async function () {
    const { alice, t } = suite();
    const wallet = Wallet.createRandom();
    const page = await dapp(wallet, "eip6963");
    const contract = await alice.getAddress();
    const latest = await page.evaluate(
      async ({ baseUrl, contract }) => {
        const client = window.sdk.createDataClient({ baseUrl, network: "localhost" });
        window.seen = [];
        void (async () => {
          for await (const event of client.events({ contract })) window.seen.push(event);
        })();
        return client.latestBlock();
      },
      { baseUrl: t.url, contract },
    );
    expect(latest).to.match(/^\d+$/);
    const receipt = (await (await alice.mint(wallet.address, 1n)).wait())!;
    await page.waitForFunction((tx) => window.seen.some((event) => event.type === "transfer" && event.transfer.tx === tx), receipt.hash, {
      timeout: 30_000,
    });
    const owned = await page.evaluate(
      async ({ baseUrl, owner, contract }) => {
        const items = [];
        for await (const item of window.sdk.createDataClient({ baseUrl, network: "localhost" }).inventory(owner, contract))
          items.push(item);
        return items;
      },
      { baseUrl: t.url, owner: wallet.address, contract },
    );
    expect(owned).to.deep.equal([{ contract, id: "1", owner: wallet.address }]);
    await page.close();
  });
});
