import { expect } from "chai";
import type { Page } from "playwright-core";
import { CONVERT_ASSETS } from "../../../server/converter/page";
import { startTestApp, type TestApp } from "../../helpers/app";
import { axeViolations } from "../../helpers/axe";
import { launchBrowser } from "../../helpers/browser";
import { closesAfterEach } from "../../helpers/closes-after-each";
import { indexedTo } from "../../helpers/index-check";
import type { PageDocument, PageWindow } from "../../helpers/page-globals";
import { converterFixture } from "./fixture";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";
import { pollUntil } from "../../helpers/waiters";

type RpcError = { code: number; message: string; data?: unknown };

// Functions below run in the page (tsconfig has no DOM library): these name its globals for the type checker.
declare const window: PageWindow & {
  /** Every text the status line showed, in order. */
  __statuses: string[];
  /** The TestWallet, exposed by the test. */
  __wallet(method: string, params: unknown[]): Promise<{ result?: unknown; error?: RpcError }>;
};
declare const document: PageDocument;

/**
 * The wallet of these tests, on the Node side: it holds the chain the wallet is on and the chains it knows, and
 * signs by forwarding eth_sendTransaction to the node, whose account is unlocked (any other call goes to the node
 * too). `reject` makes the user refuse a method (EIP-1193 error 4001); `simulate: false` is a wallet that sends
 * without trying the call first.
 */
class TestWallet {
  chainId = 31337;
  known = new Set([31337]);
  reject = new Set<string>();
  calls: Array<{ method: string; params: unknown }> = [];

  constructor(
    readonly address: string,
    private readonly nodeUrl: string,
  ) {}

  async handle(method: string, params: unknown): Promise<{ result?: unknown; error?: RpcError }> {
    this.calls.push({ method, params });
    if (this.reject.has(method)) return { error: { code: 4001, message: "User rejected the request." } };
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return { result: [this.address] };
      case "eth_chainId":
        return { result: `0x${this.chainId.toString(16)}` };
      case "wallet_switchEthereumChain": {
        const [{ chainId }] = params as [{ chainId: string }];
        const id = Number(chainId);
        if (!this.known.has(id)) return { error: { code: 4902, message: `Unrecognized chain ID ${chainId}` } };
        this.chainId = id;
        return { result: null };
      }
      case "wallet_addEthereumChain":
        this.known.add(Number((params as [{ chainId: string }])[0].chainId));
        return { result: null };
      default:
        return this.forward(method, params);
    }
  }

  private async forward(method: string, params: unknown) {
    const response = await fetch(this.nodeUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown; error?: RpcError };
    return body.error ? { error: body.error } : { result: body.result };
  }

  sent(method: string) {
    return this.calls.filter((c) => c.method === method);
  }
}

/** Injects an EIP-1193 provider backed by `__wallet` (exposed by the test), announced through EIP-6963 or only as window.ethereum. */
function injectWallet(page: Page, mode: "eip6963" | "window.ethereum" | "none") {
  return page.addInitScript((m) => {
    // Every text the status line shows, in order: the test checks the steps a user sees.
    window.__statuses = [];
    new window.MutationObserver(() => {
      const text = document.getElementById("status")?.textContent;
      if (text && window.__statuses[window.__statuses.length - 1] !== text) window.__statuses.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
    if (m === "none") return;
    const listeners: Record<string, Array<(value: unknown) => void>> = {};
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await window.__wallet(method, params ?? []);
        if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error);
        if (method === "wallet_switchEthereumChain")
          for (const listener of listeners.chainChanged ?? []) listener((params as [{ chainId: string }])[0].chainId);
        return answer.result;
      },
      on(event: string, listener: (value: unknown) => void) {
        (listeners[event] ??= []).push(listener);
      },
      removeListener() {},
    };
    if (m === "window.ethereum") {
      window.ethereum = provider;
      return;
    }
    const info = {
      uuid: "3b1f7c52-9a0e-4f6d-8c21-5e4d3c2b1a09",
      name: "Test Wallet",
      icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
      rdns: "org.example.testwallet",
    };
    const announce = () =>
      window.dispatchEvent(new window.CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  }, mode);
}

describe("converter page (headless Chromium, local chain)", function () {
  this.timeout(180_000);
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const f = await converterFixture(chain.provider, 8);
    // It listens: Chromium loads the page, its script and its API calls from the service.
    const env = {
      RPC_URL_LOCALHOST: chain.url,
      HEAD_CACHE_MS: "100",
      INDEXER_POLL_MS: "50",
      SPAM_CLASSIFY_INTERVAL_MS: "100",
      INDEXER_CONTRACTS_LOCALHOST: `${f.addresses.alice},${f.addresses.bob}`,
      CONVERTERS: `localhost:${f.addresses.converter}`,
    };
    const t = chain.closesWith(await startTestApp({ listen: true, env }));
    await indexedTo(t.app.db, "localhost", chain.provider);
    return { f, env, t, browser: chain.closesWith(await launchBrowser()) };
  });
  const closesAfterTest = closesAfterEach();

  async function open(
    options: {
      locale?: string;
      path?: string;
      mode?: "eip6963" | "window.ethereum" | "none";
      viewport?: { width: number; height: number };
      /** The app whose page is opened (default the file's). */
      app?: TestApp;
    } = {},
  ) {
    const { f, t, browser, chain } = suite();
    const wallet = new TestWallet(f.holder, chain.url);
    const context = closesAfterTest(await browser.newContext({ locale: options.locale ?? "en-US", viewport: options.viewport }));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.exposeFunction("__wallet", (method: string, params: unknown) => wallet.handle(method, params));
    await injectWallet(page, options.mode ?? "eip6963");
    const response = await page.goto(`${(options.app ?? t).url}${options.path ?? "/convert"}`);
    return { page, context, wallet, errors, response: response! };
  }

  const statusText = (page: Page) => page.getByRole("status").textContent();
  const waitForStatus = (page: Page, part: string) =>
    page.waitForFunction((p) => document.getElementById("status")?.textContent?.includes(p), part, { timeout: 60_000 });
  // What failed is announced at once (role=alert); the status line is emptied.
  const alertText = (page: Page) => page.getByRole("alert").textContent();
  const waitForAlert = async (page: Page, part: string) => {
    await page.waitForFunction((p) => document.getElementById("alert")?.textContent?.includes(p), part, { timeout: 60_000 });
    expect(await statusText(page)).to.equal("");
  };
  const connect = async (page: Page, name = "Connect Test Wallet") => {
    await page.getByRole("button", { name }).click();
    await page.locator("#alice-list li").first().waitFor();
  };

  it("converts Alice 1 to Bob 1 through the page: pending, then confirmed with the transaction, then the list refreshed", async function () {
    const { f, chain } = suite();
    const { page, wallet, errors } = await open();
    await connect(page);
    expect(await statusText(page)).to.equal(`Connected: ${f.holder} on localhost.`);
    expect(await page.locator("#wallets").isHidden(), "the wallet choice is gone once connected").to.equal(true);
    expect(await page.locator("#alice-heading").textContent()).to.equal("Your Alice tokens");
    const item = page.locator("#alice-list li", { hasText: "Alice #1 → Bob #1" });
    expect(await item.textContent()).to.contain("Ready to convert.");
    await page.getByRole("button", { name: "Convert Alice #1 to Bob #1" }).click();
    await waitForStatus(page, "You now hold Bob #1");

    const [sent] = wallet.sent("eth_sendTransaction");
    expect(wallet.sent("eth_sendTransaction")).to.have.length(1);
    const hash = await page.locator("#result code").textContent();
    expect(hash).to.match(/^0x[0-9a-f]{64}$/);
    const receipt = await chain.provider.getTransactionReceipt(hash!);
    expect(receipt!.status).to.equal(1);
    // One safeTransferFrom(holder, converter, 1) on the Alice token.
    const [transaction] = sent.params as [{ to: string; from: string; data: string }];
    expect(transaction).to.deep.include({ to: f.addresses.alice, from: f.holder });
    expect(f.alice.interface.parseTransaction({ data: transaction.data })!.signature).to.equal("safeTransferFrom(address,address,uint256)");
    expect(await f.bob.ownerOf(1n)).to.equal(f.holder);
    expect(await f.alice.ownerOf(1n)).to.equal(f.addresses.converter);

    const statuses: string[] = await page.evaluate(() => window.__statuses);
    const steps = [
      "Checking that the conversion of Alice #1 will work",
      "Confirm the transaction in your wallet",
      "Sent. Waiting for the network",
      "Done: Alice #1 was converted. You now hold Bob #1.",
    ];
    expect(steps.map((step) => statuses.findIndex((s) => s.startsWith(step)))).to.satisfy(
      (at: number[]) => at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1])),
      statuses.join("\n"),
    );
    // The refreshed list: Alice 1 is gone, Bob 1 is there and converts back (the converter now holds Alice 1).
    await page.getByRole("button", { name: "Convert Bob #1 to Alice #1" }).waitFor();
    expect(await page.locator("#alice-list").textContent()).to.not.contain("Alice #1 →");
    expect(await page.getByRole("button", { name: "Convert Bob #1 to Alice #1" }).count()).to.equal(1);
    expect(errors).to.deep.equal([]);
  });

  it("shows each listed collection's name, holders, supply and spam flag, and warns of one flagged as spam (en and ja)", async function () {
    const { f, env, t } = suite();
    type Described = { name: string; symbol: string; holders: number; spam: { flag: boolean; reasons: string[] } };
    const described = async (token: string, app = suite().t) => {
      const text = await (await fetch(`${app.url}/collection/localhost/${token}`)).text();
      // The supply as the page reads it: all its digits.
      return { ...(JSON.parse(text) as Described), supply: /"indexedSupply":(\d+)/.exec(text)![1] };
    };
    // Verdicts come from the background classifier: the page says "not checked yet" before.
    await pollUntil(
      "the converter's collections classified",
      async () => !(await described(f.addresses.alice)).spam.reasons.includes("Unclassified"),
    );
    const { page, errors } = await open();
    await connect(page);
    const alice = await described(f.addresses.alice);
    expect(alice.spam.flag).to.equal(false);
    expect(await page.locator("#alice-collection").textContent()).to.equal(
      `Collection ${alice.name} (${alice.symbol}): ${alice.holders} holders, ${alice.supply} tokens. Not flagged as spam.`,
    );
    expect(await page.locator("#alice-spam").isHidden()).to.equal(true);
    expect(errors).to.deep.equal([]);
    // Another instance on the same database, whose operator marks the Alice collection as spam.
    const marked = closesAfterTest(
      await startTestApp({
        listen: true,
        database: t.database,
        env: { ...env, INDEXER: "false", SPAM_CLASSIFIER: "false", SPAM_CONTRACTS: `localhost:${f.addresses.alice}` },
      }),
    );
    for (const [locale, warning] of [
      ["en-US", "Flagged as spam (OperatorMarkedSpam): make sure this is the collection you expect before you convert."],
      ["ja-JP", "スパムと判定されています (OperatorMarkedSpam)。変換する前に、期待しているコレクションか確かめてください。"],
    ]) {
      const flagged = await open({ app: marked, locale });
      await connect(flagged.page, locale === "en-US" ? "Connect Test Wallet" : "Test Wallet に接続");
      const alice = await described(f.addresses.alice, marked);
      expect(alice.spam).to.deep.equal({ flag: true, reasons: ["OperatorMarkedSpam"] });
      expect(await flagged.page.locator("#alice-spam").isVisible()).to.equal(true);
      expect(await flagged.page.locator("#alice-spam").textContent()).to.equal(warning);
      const summary = await flagged.page.locator("#alice-collection").textContent();
      expect(summary).to.contain(`${alice.name} (${alice.symbol})`).and.contain(String(alice.holders)).and.contain(alice.supply);
      expect(summary).to.not.match(/Not flagged|判定されていません/);
      expect(await axeViolations(flagged.page)).to.deep.equal([]);
      expect(flagged.errors).to.deep.equal([]);
    }
  });

  it("explains every token it cannot convert: not paired, and counterpart not in stock", async function () {
    const { page } = await open();
    await connect(page);
    const outOfStock = page.locator("#alice-list li", { hasText: "Alice #4 → Bob #4" });
    expect(await outOfStock.textContent()).to.contain("Cannot be converted now: the converter does not hold Bob #4 at the moment.");
    expect(await outOfStock.getByRole("button").count()).to.equal(0);
    const unpaired = page.locator("#alice-list li", { hasText: "Alice #5" });
    expect(await unpaired.textContent()).to.contain("this token has no paired token");
    expect(await unpaired.getByRole("button").count()).to.equal(0);
  });

  it("asks the wallet to switch chains, adds the local chain it does not know, and says so when the user declines", async function () {
    const { chain } = suite();
    const { page, wallet } = await open();
    wallet.chainId = 1;
    wallet.known = new Set([1]);
    wallet.reject.add("wallet_switchEthereumChain");
    await page.getByRole("button", { name: "Connect Test Wallet" }).click();
    await waitForAlert(page, "Your wallet is not on localhost");
    expect(await page.locator("#tokens").isHidden()).to.equal(true);
    const statuses: string[] = await page.evaluate(() => window.__statuses);
    expect(statuses.join("\n")).to.contain("Your wallet is on another network (chain 1); this converter is on localhost (chain 31337)");

    wallet.reject.clear();
    await page.getByRole("button", { name: "Switch to localhost" }).click();
    await page.locator("#alice-list li").first().waitFor();
    expect(wallet.chainId).to.equal(31337);
    const [added] = wallet.sent("wallet_addEthereumChain");
    expect((added.params as unknown[])[0]).to.deep.include({ chainId: "0x7a69", chainName: "localhost", rpcUrls: [chain.url] });
    expect(await statusText(page)).to.contain("Connected:");
    expect(wallet.sent("eth_sendTransaction")).to.have.length(0);
  });

  it("says so when the user rejects the transaction in the wallet, and nothing moves", async function () {
    const { f } = suite();
    const { page, wallet } = await open();
    await connect(page);
    wallet.reject.add("eth_sendTransaction");
    await page.getByRole("button", { name: "Convert Alice #2 to Bob #2" }).click();
    await waitForAlert(page, "You declined the request in your wallet. Nothing was sent.");
    expect(await f.alice.ownerOf(2n)).to.equal(f.holder);
    // The user can try again.
    expect(await page.getByRole("button", { name: "Convert Alice #2 to Bob #2" }).isEnabled()).to.equal(true);
  });

  it("decodes the converter's custom error into a sentence: before sending, and after a transaction reverted", async function () {
    const { f, t } = suite();
    const { page, wallet } = await open();
    try {
      await connect(page);
      // Paused after the list was shown: the page tries the call first and sends nothing.
      await (await f.converter.pause()).wait();
      await page.getByRole("button", { name: "Convert Alice #2 to Bob #2" }).click();
      await waitForAlert(page, "Nothing was sent");
      expect(await alertText(page)).to.equal("Nothing was sent: this conversion would fail. Conversions are paused.");
      expect(wallet.sent("eth_sendTransaction")).to.have.length(0);

      // A wallet that sends without trying the call: the node mines the revert, the page reads why.
      const japanese = await open({ locale: "ja-JP" });
      await japanese.page.getByRole("button", { name: "Test Wallet に接続" }).click();
      await japanese.page.locator("#alice-list li").first().waitFor();
      expect(await japanese.page.locator("#notice").textContent()).to.contain("変換を一時停止しています");
      await (await f.converter.unpause()).wait();
      // The service reads the chain once per block and caches its head: move past it, then the list is read anew.
      t.clock.advance(t.config.headCacheMs);
      await japanese.page.getByRole("button", { name: "一覧を更新" }).click();
      await japanese.page.getByRole("button", { name: "Alice #2 を Bob #2 に変換" }).waitFor();
      await (await f.converter.pause()).wait();
      const call = japanese.wallet.handle.bind(japanese.wallet);
      japanese.wallet.handle = async (method, params) =>
        method === "eth_call" ? (japanese.wallet.calls.push({ method, params }), { result: "0x" }) : call(method, params);
      await japanese.page.getByRole("button", { name: "Alice #2 を Bob #2 に変換" }).click();
      await waitForAlert(japanese.page, "トランザクションは失敗");
      expect(await alertText(japanese.page)).to.equal("トランザクションは失敗し、何も変換されませんでした。変換は一時停止中です。");
      expect(japanese.wallet.sent("eth_sendTransaction")).to.have.length(1);
      expect(await f.alice.ownerOf(2n)).to.equal(f.holder);
    } finally {
      if (await f.converter.paused()) await (await f.converter.unpause()).wait();
    }
  });

  it("speaks Japanese to a Japanese browser, and takes ?lang= over the browser's language", async function () {
    const { f } = suite();
    const ja = await open({ locale: "ja-JP" });
    expect(await ja.page.getAttribute("html", "lang")).to.equal("ja");
    expect(await ja.page.getByRole("heading", { level: 1 }).textContent()).to.equal("トークンを変換");
    await connect(ja.page, "Test Wallet に接続");
    expect(await ja.page.locator("#alice-heading").textContent()).to.equal("お持ちの Alice トークン");
    expect(await ja.page.locator("#alice-list li", { hasText: "Alice #4 → Bob #4" }).textContent()).to.contain(
      "コンバーターが Bob #4 を保有していません",
    );
    const en = await open({ locale: "ja-JP", path: `/convert/localhost/${f.addresses.converter}?lang=en` });
    expect(await en.page.getByRole("heading", { level: 1 }).textContent()).to.equal("Convert your tokens");
    expect(await en.page.getByRole("link", { name: "日本語" }).getAttribute("href")).to.equal(
      `/convert/localhost/${f.addresses.converter}?lang=ja`,
    );
  });

  it("can be used with the keyboard alone, with a visible focus", async function () {
    const { f } = suite();
    const { page } = await open();
    await page.getByRole("button", { name: "Connect Test Wallet" }).waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
    const tabTo = async (name: string) => {
      for (let i = 0; i < 40 && (await focused()) !== name; i++) await page.keyboard.press("Tab");
      expect(await focused()).to.equal(name);
      const outline = await page.evaluate(() => window.getComputedStyle(document.activeElement!).outlineStyle);
      expect(outline, `focus ring on ${name}`).to.not.equal("none");
    };
    await tabTo("Connect Test Wallet");
    await page.keyboard.press("Enter");
    await page.locator("#alice-list li").first().waitFor();
    await tabTo("Convert Alice #3 to Bob #3");
    await page.keyboard.press("Enter");
    await waitForStatus(page, "You now hold Bob #3");
    expect(await f.bob.ownerOf(3n)).to.equal(f.holder);
  });

  it("fits a 360 px wide screen: nothing overflows horizontally", async function () {
    const { page } = await open({ viewport: { width: 360, height: 740 } });
    await connect(page);
    await page.locator("#bob-list li").first().waitFor();
    const overflow = await page.evaluate(() => {
      const wide = Array.from(document.querySelectorAll("body *")).filter((node) => node.getBoundingClientRect().right > 360.5);
      return { scrollWidth: document.documentElement.scrollWidth, wide: wide.map((node) => node.tagName + "#" + node.id) };
    });
    expect(overflow).to.deep.equal({ scrollWidth: 360, wide: [] });
    if (process.env.CONVERT_SCREENSHOT) await page.screenshot({ path: process.env.CONVERT_SCREENSHOT, fullPage: true });
  });

  it("finds a wallet that only sets window.ethereum, and says so when there is none", async function () {
    const legacy = await open({ mode: "window.ethereum" });
    await connect(legacy.page, "Connect browser wallet");
    const none = await open({ mode: "none" });
    await waitForAlert(none.page, "No wallet was found");
    await none.page.locator("#no-wallet").waitFor({ state: "visible" });
    const link = none.page.getByRole("link", { name: "Find a wallet extension for your browser (ethereum.org lists them)" });
    expect(await link.getAttribute("href")).to.equal("https://ethereum.org/en/wallets/find-wallet/");
    // Not the local demo: no command to run.
    expect(await none.page.locator("#no-wallet [data-demo]").count()).to.equal(0);
  });

  it("on the local demo, tells a browser without a wallet how to try without one (en and ja)", async function () {
    const { f, browser, chain } = suite();
    const demo = closesAfterTest(
      await startTestApp({
        listen: true,
        env: { RPC_URL_LOCALHOST: chain.url, LOCAL_CHAIN: "true", INDEXER: "false", CONVERTERS: `localhost:${f.addresses.converter}` },
      }),
    );
    for (const [locale, sentence] of [
      [
        "en-US",
        "Trying the local demo without a wallet? In a terminal in the project, npm run demo-login logs the demo user in, and the terminal of npm start prints a command that converts a demo token as that user.",
      ],
      [
        "ja-JP",
        "ウォレットなしでローカルデモを試すには、プロジェクトのターミナルで npm run demo-login を実行するとデモユーザーとしてログインできます。npm start のターミナルには、デモユーザーとしてデモトークンを変換するコマンドも表示されています。",
      ],
    ] as const) {
      const context = closesAfterTest(await browser.newContext({ locale }));
      const page = await context.newPage();
      await injectWallet(page, "none");
      await page.goto(`${demo.url}/convert`);
      await page.locator("#no-wallet [data-demo]").waitFor({ state: "visible" });
      expect(await page.locator("#no-wallet [data-demo]").textContent(), locale).to.equal(sentence);
      expect(await page.locator("#no-wallet a").getAttribute("href"), locale).to.equal(
        `https://ethereum.org/${locale.slice(0, 2)}/wallets/find-wallet/`,
      );
    }
  });

  it("passes axe-core's accessibility checks: listing the tokens, on the wrong chain, and with no wallet", async function () {
    const { page, wallet } = await open();
    await connect(page);
    expect(await axeViolations(page)).to.deep.equal([]);
    wallet.chainId = 1;
    wallet.known = new Set([1]);
    wallet.reject.add("wallet_switchEthereumChain");
    await page.getByRole("button", { name: "Refresh the list" }).click();
    await waitForAlert(page, "Your wallet is not on localhost");
    expect(await axeViolations(page)).to.deep.equal([]);
    const none = await open({ mode: "none", locale: "ja-JP" });
    await waitForAlert(none.page, "ウォレットが見つかりません");
    expect(await axeViolations(none.page)).to.deep.equal([]);
  });

  it("is served with a strict CSP, no inline script or style, and a small script", async function () {
    const { response } = await open({ mode: "none" });
    const csp = (await response.allHeaders())["content-security-policy"];
    expect(csp).to.include("default-src 'none'").and.include("script-src 'self'").and.not.include("unsafe-inline");
    const html = await response.text();
    expect(html).to.not.match(/<script(?![^>]*\bsrc=)/);
    expect(html).to.not.match(/\sstyle=|<style/);
    expect(html).to.not.match(/\son[a-z]+=/);
    expect(Buffer.byteLength(CONVERT_ASSETS["/convert/page.js"].body)).to.be.lessThan(30 * 1024);
  });

  it("serves no page for a converter that is not configured", async function () {
    const { f, t } = suite();
    const response = await t.fetch(`/convert/localhost/${f.addresses.alice}`);
    await expectRefusal(response, 404, "not_found", { dialect: "html" });
    expect(await response.text())
      .to.contain("This converter is not offered on this service.")
      .and.not.contain("data-config");
  });
});
