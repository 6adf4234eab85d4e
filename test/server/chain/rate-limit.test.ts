import { expect } from "chai";
import { NODE_ERRORS } from "../../helpers/fault-proxy";
import { startProxiedApp } from "../../helpers/proxied-app";
import { SuiteChain } from "../../helpers/suite-chain";

const TIMEOUT_MS = 3_000;

/**
 * A provider answering HTTP 429: Retry-After is read as seconds, no call outlives RPC_TIMEOUT_MS, and one 429 slows
 * every call of the instance to that provider (a shared backoff) instead of each call retrying on its own.
 */
describe("rate-limited provider (HTTP 429)", function () {
  this.timeout(60_000);
  const rateLimited = { error: "upstream_rate_limited", message: "The localhost node is rate limiting our calls; try again later" };
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const token = await chain.deployAlice();
    await (await token.mintBatch((await chain.signer(0)).address, [1n, 2n, 3n, 4n, 5n, 6n])).wait();
    const { t, proxy } = chain.closesWith(
      await startProxiedApp(chain.url, { env: { HEAD_CACHE_MS: "0", INDEXER: "false", RPC_TIMEOUT_MS: String(TIMEOUT_MS) } }),
    );
    return { t, proxy, alice: await token.getAddress() };
  });
  afterEach(function () {
    const { t, proxy } = suite();
    proxy.plan = {};
    // Past a pause the last test left behind: the backoff reads the app's clock.
    t.clock.advance(2_100);
  });

  async function get(path: string): Promise<{ status: number; body: unknown }> {
    const response = await suite().t.fetch(path);
    return { status: response.status, body: await response.json() };
  }

  it("reads Retry-After as seconds: one call is sent twice in its 3 s, not 12 times in 50 ms, then a 503", async function () {
    const { proxy } = suite();
    proxy.plan = { refuse: () => NODE_ERRORS.retryAfter(2) };
    const sent = proxy.calls.length;
    expect(await get("/block/localhost/latest")).to.deep.equal({ status: 503, body: rateLimited });
    const calls = proxy.calls.slice(sent);
    expect(calls.length).to.equal(2);
    // The second went out after the two seconds the provider asked for (the only wait this test reads).
    expect(calls[1].at! - calls[0].at!).to.be.at.least(1_900);
  });

  it("keeps to RPC_TIMEOUT_MS without Retry-After: a 503 within the deadline, not a 504 after 4-31 s", async function () {
    const { proxy } = suite();
    proxy.plan = { refuse: () => NODE_ERRORS.tooManyRequests };
    const sent = proxy.calls.length;
    const started = Date.now();
    expect(await get("/block/localhost/latest")).to.deep.equal({ status: 503, body: rateLimited });
    // The deadline is the behaviour under test: no call is sent after it, and the answer comes by it.
    for (const call of proxy.calls.slice(sent)) expect(call.at! - started).to.be.below(TIMEOUT_MS);
    expect(Date.now() - started).to.be.below(TIMEOUT_MS + 1_000);
  });

  it("slows every call to the provider after a 429: calls made during the pause wait instead of being sent", async function () {
    const { proxy, alice, chain } = suite();
    let until: number | undefined;
    let refused = 0;
    proxy.plan = {
      refuse: (call) => {
        if (call.method !== "eth_call") return undefined;
        until ??= Date.now() + 1_000;
        if (Date.now() >= until) return undefined;
        refused++;
        return NODE_ERRORS.retryAfter(1);
      },
    };
    const first = get(`/localhost/${alice}/1`);
    while (refused === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const others = await Promise.all([2, 3, 4, 5, 6].map((id) => get(`/localhost/${alice}/${id}`)));
    const deployer = (await chain.signer(0)).address;
    for (const answer of [await first, ...others]) expect(answer).to.deep.equal({ status: 200, body: deployer });
    expect(refused).to.equal(1);
  });
});
