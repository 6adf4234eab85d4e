import { expect } from "chai";
import { Wallet } from "ethers";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { startDapp, type Dapp } from "../../examples/dapp/server";
import { freePort } from "../../support/net";
import { MetadataNFT__factory, type MetadataNFT } from "../../typechain-types";
import type { TestApp } from "../helpers/app";
import { launchBrowser } from "../helpers/browser";
import { SuiteChain } from "../helpers/suite-chain";
import { indexedTo } from "../helpers/index-check";
import { expectRefusal } from "../helpers/refusal";
import { injectWallet } from "../helpers/test-wallet";
import { registerClient, startLoginApp } from "../server/auth/helpers";

// Functions below run in the page (tsconfig has no DOM library): this names its globals for the type checker.
declare const document: { querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }> };

/** A token's tokenURI as a data: URI whose metadata's image is an SVG data: URI. */
function tokenUri(name: string): string {
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='10' height='10' fill='#0a0'/></svg>`;
  const metadata = { name, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
  return `data:application/json;base64,${Buffer.from(JSON.stringify(metadata)).toString("base64")}`;
}

describe("Example dApp (examples/dapp) in a browser (headless Chromium) against the service", function () {
  this.timeout(180_000);
  let chain: SuiteChain;
  let t: TestApp;
  let dapp: Dapp;
  let browser: Browser;
  let nft: MetadataNFT;

  before(async function () {
    chain = await SuiteChain.sharedNode();
    nft = await new MetadataNFT__factory(await chain.provider.getSigner(0)).deploy();
    t = chain.closesWith(await startLoginApp(chain.url, { listen: true, env: { INDEXER_POLL_MS: "50" } }));
    // As `npm start`'s demo client is: confidential, redirecting to the dApp's /callback.
    const redirectUri = `http://localhost:${await freePort()}/callback`;
    const client = await registerClient(t, { name: "Example dApp", redirectUris: [redirectUri] });
    dapp = await startDapp({ service: t.url, network: "localhost", clientId: client.id, clientSecret: client.secret!, redirectUri });
    browser = await launchBrowser();
  });
  after(async function () {
    await browser?.close();
    await dapp?.close();
    await chain?.close();
  });

  async function images(page: Page): Promise<Array<{ id: string | null; src: string | null; alt: string | null }>> {
    return page.$$eval(".nft", (figures) =>
      figures.map((figure) => ({
        id: figure.getAttribute("data-id"),
        src: figure.querySelector("img")?.getAttribute("src") ?? null,
        alt: figure.querySelector("img")?.getAttribute("alt") ?? null,
      })),
    );
  }

  it("signs in with the injected wallet, shows its NFTs with their images, and shows a transfer as it arrives", async function () {
    const wallet = Wallet.createRandom();
    await (await nft.mint(wallet.address, 1n, tokenUri("First"))).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const page = await browser.newPage();
    await page.exposeFunction("__testSign", (hex: string) => wallet.signMessage(Buffer.from(hex.slice(2), "hex")));
    await injectWallet(page, { address: wallet.address, chainId: 31337, mode: "eip6963" });
    await page.goto(dapp.url);
    await page.click("#sign-in");
    await page.waitForSelector("#account", { timeout: 30_000 });
    expect(await page.textContent("#account")).to.equal(wallet.address);
    await page.waitForSelector(".nft img", { timeout: 30_000 });
    const [first] = await images(page);
    expect(first).to.deep.include({ id: "1", alt: "First" });
    expect(first.src).to.match(/^data:image\/svg\+xml;base64,/);

    const minted = (await (await nft.mint(wallet.address, 2n, tokenUri("Second"))).wait())!;
    await page.waitForSelector(`#live li[data-tx="${minted.hash}"]`, { timeout: 30_000 });
    expect(await page.textContent(`#live li[data-tx="${minted.hash}"]`)).to.match(/^Transfer: .* #2 from 0x0000…0000 to /);
    await page.waitForFunction(() => document.querySelectorAll(".nft img").length === 2, undefined, { timeout: 30_000 });
    expect((await images(page)).map((image) => [image.id, image.alt])).to.deep.equal([
      ["1", "First"],
      ["2", "Second"],
    ]);
    await page.close();
  });

  it("says so when the page has no wallet", async function () {
    const page = await browser.newPage();
    await injectWallet(page, { address: Wallet.createRandom().address, chainId: 31337, mode: "none" });
    await page.goto(dapp.url);
    await page.click("#sign-in");
    await page.waitForSelector("#error");
    expect(await page.textContent("#error")).to.equal("No wallet found: install a browser wallet.");
    await page.close();
  });

  it("refuses a session for a nonce it did not give or gave before, a code the service refuses, and a malformed body, each with its JSON error", async function () {
    const post = (route: string, body: string) => fetch(new URL(route, dapp.url), { method: "POST", body });
    await expectRefusal(await post("/session", JSON.stringify({ code: "x", nonce: "never-given" })), 400, "invalid_nonce");
    await expectRefusal(await post("/session", "[1]"), 400, "malformed_json");
    await expectRefusal(await post("/session", JSON.stringify({ code: 1 })), 400, "invalid_request");
    await expectRefusal(await post("/session", "x".repeat(5_000)), 413, "body_too_large");
    const { nonce } = (await (await post("/nonce", "")).json()) as { nonce: string };
    await expectRefusal(await post("/session", JSON.stringify({ code: "not-a-code", nonce })), 400, "invalid_grant");
    // A nonce is good once, even when its login failed.
    await expectRefusal(await post("/session", JSON.stringify({ code: "not-a-code", nonce })), 400, "invalid_nonce");
    await expectRefusal(await fetch(new URL("/nowhere", dapp.url)), 404, "not_found");
  });

  it("type-checks as the browser and Node code it is", async function () {
    const root = path.resolve(__dirname, "..", "..");
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    await promisify(execFile)(process.execPath, [tsc, "-p", path.join(root, "examples", "dapp", "tsconfig.json")], { cwd: root });
  });
});
