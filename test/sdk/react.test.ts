import { expect } from "chai";
import { build } from "esbuild";
import path from "node:path";
import type { Page } from "playwright-core";
import type { Holder, Transfer } from "../../sdk/src/index";
import { isAffectedBy, queryKeys } from "../../sdk/src/react";
import { createDataClient } from "../../sdk/src/index";
import { launchBrowser } from "../helpers/browser";
import { servePage } from "../helpers/page-server";
import { SuiteChain } from "../helpers/suite-chain";

/** What the page shows in #state (test/sdk/pages/hooks-page.ts). */
interface ListState<Item> {
  status: string;
  items: Item[];
  pages: number;
  hasNextPage: boolean;
  error: string | null;
}
interface ScreenState {
  inventory: ListState<unknown> & { ids: string[] };
  token: { status: string; owner: string | null };
  holders: ListState<Holder>;
  history: ListState<Transfer>;
  idle: { status: string; fetchStatus: string };
  live: { last: string | null; error: string | null };
}

// Functions below run in the page (tsconfig has no DOM library): this names its globals for the type checker.
declare const document: { getElementById(id: string): { textContent: string | null } | null };

describe("SDK React hooks in a browser (headless Chromium, TanStack Query)", function () {
  this.timeout(120_000);
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const [owner, other] = await Promise.all([8, 9].map((i) => chain.signer(i)));
    const alice = await chain.deployAlice();
    await (await alice.mintBatch(owner.address, [1n, 2n, 3n])).wait();
    const t = await chain.startIndexingApp({ listen: true, env: { INDEXER_CONTRACTS_LOCALHOST: await alice.getAddress() } });
    const built = await build({
      entryPoints: [path.join(__dirname, "pages", "hooks-page.ts")],
      bundle: true,
      format: "esm",
      platform: "browser",
      define: { "process.env.NODE_ENV": '"production"' },
      write: false,
      logLevel: "silent",
    });
    const html = `<!doctype html><title>hooks</title><div id="root"></div><script type="module">${built.outputFiles[0].text}</script>`;
    const hooksPage = await servePage(html);
    chain.closesWith({ close: async () => hooksPage.close() });
    return { owner, other, alice, t, hooksPage, browser: chain.closesWith(await launchBrowser()) };
  });

  async function screen(page: Page): Promise<ScreenState> {
    return JSON.parse((await page.textContent("#state"))!) as ScreenState;
  }
  /** Waits until the page's state passes `check` (each render rewrites #state). */
  async function until(page: Page, check: (state: ScreenState) => boolean): Promise<ScreenState> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const state = await screen(page);
      if (check(state)) return state;
      if (Date.now() > deadline) throw new Error(`the page never got there: ${JSON.stringify(state)}`);
      await page.waitForFunction((before) => document.getElementById("state")?.textContent !== before, JSON.stringify(state), {
        timeout: 30_000,
        polling: 50,
      });
    }
  }

  it("renders every read hook from the service, pages on demand, and refreshes them from the event stream", async function () {
    const { owner, other, alice, t, hooksPage, browser } = suite();
    const contract = await alice.getAddress();
    const page = await browser.newPage();
    const query = new URLSearchParams({ service: t.url, owner: owner.address, contract, id: "2" });
    await page.goto(`${hooksPage.url}?${query}`);

    const first = await until(
      page,
      (s) => [s.inventory, s.holders, s.history].every((l) => l.status === "success") && s.token.status === "success",
    );
    expect(first.inventory).to.include({ pages: 1, hasNextPage: true });
    expect(first.inventory.ids).to.deep.equal(["1", "2"]);
    expect(first.token.owner).to.equal(owner.address);
    expect(first.holders.items).to.deep.equal([{ owner: owner.address, count: "3" }]);
    expect(first.history.items.map((transfer) => [transfer.to, transfer.id])).to.deep.equal([[owner.address, "3"]]);
    expect(first.history.hasNextPage).to.equal(true);
    // A hook whose input is not there yet stays idle rather than asking for `/token/…/undefined`.
    expect(first.idle).to.deep.equal({ status: "pending", fetchStatus: "idle" });

    await page.click("#more");
    const paged = await until(page, (s) => s.inventory.pages === 2);
    expect(paged.inventory.ids).to.deep.equal(["1", "2", "3"]);

    // Nothing in the page asks again by itself (staleTime is Infinity): only the stream's event can refresh it.
    const moved = (await (await alice.connect(owner).transferFrom(owner.address, other.address, 2n)).wait())!;
    // The hook sets its last event once the queries it invalidated are fetched again: the page may render them first.
    const fresh = await until(page, (s) => s.token.owner === other.address && s.inventory.ids.join() === "1,3" && s.live.last !== null);
    expect(fresh.live).to.deep.equal({ last: "transfer", error: null });
    const afterMove = await until(page, (s) => s.holders.items.length === 2 && s.history.items[0]?.tx === moved.hash);
    const sorted = [owner.address, other.address].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1));
    expect(afterMove.holders.items).to.deep.equal(
      sorted.map((address) => ({ owner: address, count: address === owner.address ? "2" : "1" })),
    );
    expect(afterMove.history.items[0]).to.include({ from: owner.address, to: other.address, id: "2" });
    await page.close();
  });

  it("shows the stream's refusal as the live hook's error", async function () {
    const { alice, t, hooksPage, browser } = suite();
    const page = await browser.newPage();
    const query = new URLSearchParams({ service: t.url, owner: "0x1234", contract: await alice.getAddress(), id: "1" });
    await page.goto(`${hooksPage.url}?${query}`);
    const state = await until(page, (s) => s.live.error !== null && s.inventory.status === "error");
    expect(state.live.error).to.equal("invalid_address");
    expect(state.inventory.error).to.equal("invalid_address");
    await page.close();
  });

  it("invalidates only the queries an event can change", function () {
    const client = createDataClient({ baseUrl: "http://127.0.0.1:1", network: "localhost" });
    const [a, b, c] = [
      "0x00000000000000000000000000000000000000Aa",
      "0x00000000000000000000000000000000000000bB",
      "0x00000000000000000000000000000000000000cc",
    ];
    const transfer = { type: "transfer", id: "9", transfer: { contract: c, id: "5", from: a, to: b } } as Parameters<
      typeof isAffectedBy
    >[1];
    const affected = (key: readonly unknown[]) => isAffectedBy(key, transfer);
    expect(affected(queryKeys.inventory(client, b, c, {}))).to.equal(true);
    expect(affected(queryKeys.inventory(client, a.toLowerCase(), c, { limit: 2 }))).to.equal(true);
    expect(affected(queryKeys.inventory(client, c, c, {}))).to.equal(false);
    expect(affected(queryKeys.inventory(client, a, b, {}))).to.equal(false);
    expect(affected(queryKeys.token(client, c, 5n))).to.equal(true);
    expect(affected(queryKeys.token(client, c, 6))).to.equal(false);
    expect(affected(queryKeys.holders(client, c, {}))).to.equal(true);
    expect(affected(queryKeys.holders(client, a, {}))).to.equal(false);
    expect(affected(queryKeys.history(client, { owner: a }, {}))).to.equal(true);
    expect(affected(queryKeys.history(client, { owner: c }, {}))).to.equal(false);
    expect(affected(queryKeys.history(client, { contract: c, id: "5" }, {}))).to.equal(true);
    expect(affected(queryKeys.history(client, { contract: c, id: "4" }, {}))).to.equal(false);
    const metadata = { type: "metadata", id: "10", change: { contract: c, fromId: "3", toId: "7" } } as Parameters<typeof isAffectedBy>[1];
    expect(isAffectedBy(queryKeys.token(client, c, 7), metadata)).to.equal(true);
    expect(isAffectedBy(queryKeys.token(client, c, 8), metadata)).to.equal(false);
    expect(isAffectedBy(queryKeys.holders(client, c, {}), metadata)).to.equal(false);
    expect(isAffectedBy(queryKeys.holders(client, a, {}), { type: "reset", id: "11", network: "localhost" })).to.equal(true);
  });
});
