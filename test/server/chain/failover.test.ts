import { expect } from "chai";
import { rpc } from "../../../server/chain/networks";
import { TRANSFER_TOPIC } from "../../../server/indexer/transfers";
import { startTestApp, type TestApp } from "../../helpers/app";
import { NODE_ERRORS, startFaultProxy, type FaultPlan, type FaultProxy } from "../../helpers/fault-proxy";
import { expectIndexMatchesChain, indexedTo } from "../../helpers/index-check";
import { sample } from "../../helpers/metrics";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";
import { pollUntil } from "../../helpers/waiters";

const COOLDOWN_MS = 60_000;

/**
 * Several RPC URLs for one network (`RPC_URL_LOCALHOST=a,b`), each a fault proxy in front of the same real node: the
 * service and the indexer answer right through the healthy one, a failed one is passed over for its cool-down and
 * comes back after it, the faster one is chosen, and a 429 pauses every call of the instance to that provider. The
 * URLs carry a key in their path and query, as paid providers' do: it must never reach a log line or a metric.
 */
describe("several providers per network (failover, health, latency)", function () {
  this.timeout(120_000);
  const ids = [1n, 2n, 3n, 4n, 5n, 6n];
  const open: Array<{ close(): Promise<void> }> = [];
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const deployer = (await chain.signer(0)).address;
    const token = await chain.deployAlice();
    await (await token.mintBatch(deployer, ids)).wait();
    return { deployer, alice: await token.getAddress() };
  });
  afterEach(async function () {
    for (const closable of open.splice(0).reverse()) await closable.close();
  });

  /** The pool's URL of `proxy`, with a key in its path and query as a paid provider's URL has. */
  const keyed = (proxy: FaultProxy, name: string) => `${proxy.url}/v3/secret-${name}?apikey=secret-${name}`;
  const host = (proxy: FaultProxy) => new URL(proxy.url).host;

  /** Two proxies (`a` first in the list) and an app using both, its log lines collected. */
  async function twoProviders(plans: { a?: FaultPlan; b?: FaultPlan }, env: Record<string, string> = {}) {
    const { chain } = suite();
    const a = await startFaultProxy(chain.url, { seed: 3, plan: plans.a });
    const b = await startFaultProxy(chain.url, { seed: 5, plan: plans.b });
    open.push(a, b);
    const lines: Array<Record<string, unknown>> = [];
    const t = await startTestApp({
      env: {
        RPC_URL_LOCALHOST: `${keyed(a, "a")},${keyed(b, "b")}`,
        RPC_COOLDOWN_MS: String(COOLDOWN_MS),
        RPC_TIMEOUT_MS: "3000",
        HEAD_CACHE_MS: "0",
        INDEXER: "false",
        LOG_LEVEL: "info",
        ...env,
      },
      logStream: { write: (line) => void lines.push(JSON.parse(line)) },
    });
    open.push(t);
    const scrape = () => t.app.metrics!.registry.metrics();
    const providerLines = () => lines.filter((line) => String(line.msg).startsWith("rpc provider"));
    return { a, b, t, lines, scrape, providerLines };
  }

  async function owners(t: TestApp): Promise<void> {
    const { alice, deployer } = suite();
    for (const id of ids) {
      const response = await t.fetch(`/localhost/${alice}/${id}`);
      expect({ status: response.status, body: await response.json() }, `token ${id}`).to.deep.equal({ status: 200, body: deployer });
    }
  }

  /**
   * `count` calls through the app's provider of the network, each sent (ethers keeps a read such as the block number
   * for a moment, and the routes cache per block): what the pool does with each is what the test reads.
   */
  async function blocks(t: TestApp, count = 3): Promise<void> {
    const { chain } = suite();
    for (let i = 0; i < count; i++) {
      const answer = await rpc("localhost", t.app.networks.provider("localhost").send("eth_blockNumber", []));
      expect(Number(answer)).to.equal(await chain.provider.getBlockNumber());
    }
  }

  it("answers through the other provider while one fails, passes the failed one over for its cool-down, then takes it back", async function () {
    const { a, b, t, lines, scrape, providerLines } = await twoProviders({ a: { refuse: () => NODE_ERRORS.badGateway } });
    await owners(t);
    // One call found it failing; every later one went straight to the other.
    expect(a.calls.length).to.equal(1);
    expect(b.calls.length).to.be.at.least(ids.length);
    expect(providerLines()).to.have.length(1);
    expect(providerLines()[0]).to.deep.include({
      level: 40,
      msg: "rpc provider down",
      network: "localhost",
      provider: host(a),
      fault: "transport_error",
      failures: 1,
      cooldownMs: COOLDOWN_MS,
    });
    let text = await scrape();
    expect(sample(text, "rpc_provider_up", { network: "localhost", provider: host(a) })).to.equal(0);
    expect(sample(text, "rpc_provider_up", { network: "localhost", provider: host(b) })).to.equal(1);
    const failures = { network: "localhost", provider: host(a), fault: "transport_error", failed_over: "true" };
    expect(sample(text, "rpc_provider_failures_total", failures)).to.equal(1);

    // Still failing after its cool-down: tried again by one call, which goes on to the other; the cool-down doubles.
    t.clock.advance(COOLDOWN_MS);
    await blocks(t);
    expect(a.calls.length).to.equal(2);
    expect(providerLines()).to.have.length(1);

    // Healthy again: after its (doubled) cool-down the next call tries it, and it is marked up.
    a.plan = {};
    t.clock.advance(2 * COOLDOWN_MS);
    await blocks(t);
    expect(a.calls.length).to.be.greaterThan(2);
    expect(providerLines()[1]).to.deep.include({ level: 30, msg: "rpc provider up", network: "localhost", provider: host(a) });
    text = await scrape();
    expect(sample(text, "rpc_provider_up", { network: "localhost", provider: host(a) })).to.equal(1);
    expect(sample(text, "rpc_provider_latency_seconds", { network: "localhost", provider: host(a) })).to.be.greaterThan(0);

    // The keys in the URLs reach neither the logs nor the metrics.
    expect(JSON.stringify(lines)).not.to.include("secret-");
    expect(text).not.to.include("secret-");
  });

  it("an idle instance probes its providers every RPC_PROBE_INTERVAL_MS: a provider that fails, then heals, shows so without a call", async function () {
    const { a, b, scrape, providerLines } = await twoProviders(
      { a: { refuse: () => NODE_ERRORS.badGateway } },
      { RPC_PROBE_INTERVAL_MS: "100" },
    );
    const up = async (proxy: FaultProxy) => sample(await scrape(), "rpc_provider_up", { network: "localhost", provider: host(proxy) });
    const until = (done: () => Promise<boolean>, what: string) => pollUntil(what, done, 20_000);
    // No request was made: the probes alone find `a` down and `b` up.
    await until(async () => (await up(a)) === 0 && (await up(b)) === 1, "the probes' first round");
    expect(a.calls.map((call) => call.method)).to.include("eth_blockNumber");
    expect(providerLines()[0]).to.deep.include({ msg: "rpc provider down", provider: host(a), fault: "transport_error" });
    // Healed: a probe (which a cool-down does not hold back) finds it up again.
    a.plan = {};
    await until(async () => (await up(a)) === 1, "a probe of the healed provider");
    expect(providerLines().at(-1)).to.deep.include({ msg: "rpc provider up", provider: host(a) });
  });

  it("sends calls to the provider that answers faster", async function () {
    const slow = () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200));
    const { a, b, t } = await twoProviders({ a: { refuse: slow } });
    await owners(t);
    // The first call learnt `a`'s speed (it is first in the list); every later one went to `b`.
    expect(a.calls.length).to.equal(1);
    expect(b.calls.length).to.be.at.least(ids.length);
  });

  it("a 429 pauses every call of the instance to that provider, with or without Retry-After: the others go elsewhere", async function () {
    const { alice } = suite();
    for (const refusal of [NODE_ERRORS.retryAfter(30), NODE_ERRORS.tooManyRequests]) {
      const { a, b, t, scrape } = await twoProviders({ a: { refuse: () => refusal } });
      const answers = await Promise.all(ids.map((id) => t.fetch(`/localhost/${alice}/${id}`)));
      for (const answer of answers) expect(answer.status).to.equal(200);
      await owners(t);
      // Concurrent calls may each have been sent before the first 429 came back; none after it.
      const refused = a.calls.length;
      expect(refused).to.be.within(1, ids.length);
      const sent = b.calls.length;
      await blocks(t);
      expect(a.calls.length).to.equal(refused);
      expect(b.calls.length).to.equal(sent + 3);
      const labels = { network: "localhost", provider: host(a), fault: "rate_limited", failed_over: "true" };
      expect(sample(await scrape(), "rpc_provider_failures_total", labels)).to.equal(refused);
      for (const closable of open.splice(0).reverse()) await closable.close();
    }
  });

  it("a rate limit or a missing header inside an HTTP 200 is the fault it means: a pause or a cool-down, failover, metrics", async function () {
    for (const [refusal, fault] of [
      [NODE_ERRORS.rateLimitedInBody, "rate_limited"],
      [{ rpcError: { code: -32005, message: "limit exceeded" } }, "rate_limited"],
      [NODE_ERRORS.headerNotFound, "transport_error"],
    ] as const) {
      const { a, b, t, scrape, providerLines } = await twoProviders({ a: { refuse: () => refusal } });
      await owners(t);
      // Found failing once, then passed over: every later call went to the other.
      expect(a.calls.length, fault).to.equal(1);
      expect(b.calls.length, fault).to.be.at.least(ids.length);
      expect(providerLines()[0], fault).to.deep.include({ level: 40, msg: "rpc provider down", provider: host(a), fault });
      const text = await scrape();
      expect(sample(text, "rpc_provider_up", { network: "localhost", provider: host(a) }), fault).to.equal(0);
      const labels = { network: "localhost", provider: host(a), fault, failed_over: "true" };
      expect(sample(text, "rpc_provider_failures_total", labels), fault).to.equal(1);
      const method = a.calls[0].method;
      expect(sample(text, "rpc_calls_total", { network: "localhost", method, outcome: fault }), fault).to.equal(1);
      for (const closable of open.splice(0).reverse()) await closable.close();
    }
  });

  it("a provider alone that reports a rate limit inside an HTTP 200 is waited out like a 429, then 503 upstream_rate_limited", async function () {
    const { chain, alice } = suite();
    const a = await startFaultProxy(chain.url, { seed: 3, plan: { refuse: () => NODE_ERRORS.rateLimitedInBody } });
    open.push(a);
    const t = await startTestApp({ env: { RPC_URL_LOCALHOST: a.url, RPC_TIMEOUT_MS: "1000", HEAD_CACHE_MS: "0", INDEXER: "false" } });
    open.push(t);
    await expectRefusal(await t.fetch(`/localhost/${alice}/1`), 503, "upstream_rate_limited", { headers: { "retry-after": true } });
    // Paused between tries, doubling from 500 ms within its 1 s deadline: a few calls, not a burst.
    expect(a.calls.length).to.be.within(1, 3);
  });

  it("all providers rate limited: each is asked once, and the call is a 503 upstream_rate_limited within its deadline", async function () {
    const { alice } = suite();
    const limited = { refuse: () => NODE_ERRORS.retryAfter(30) };
    const { a, b, t } = await twoProviders({ a: limited, b: limited });
    await expectRefusal(await t.fetch(`/localhost/${alice}/1`), 503, "upstream_rate_limited");
    await expectRefusal(await t.fetch(`/localhost/${alice}/2`), 503, "upstream_rate_limited");
    expect([a.calls.length, b.calls.length]).to.deep.equal([1, 1]);
  });

  it("the indexer indexes the whole chain through the healthy provider while the other fails half its calls", async function () {
    const { chain, alice } = suite();
    const flaky: FaultPlan = { failRate: 0.5, failWith: [NODE_ERRORS.badGateway, NODE_ERRORS.tooManyRequests] };
    const { a, b, t } = await twoProviders({ a: flaky }, { INDEXER: "true", INDEXER_POLL_MS: "50", RPC_COOLDOWN_MS: "200" });
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", alice, [...ids, 7n]);
    expect(a.injected).to.be.greaterThan(0);
    expect(b.countByMethod().eth_getLogs).to.be.greaterThan(0);
  });
  it("the indexer takes a malformed eth_getLogs answer as that provider's fault: it goes on through the other and writes none of it", async function () {
    const { chain, alice } = suite();
    // A log whose contract address and transaction hash are not hex, in every eth_getLogs answer of `a`.
    const forged = {
      address: `0x${"zz".repeat(20)}`,
      topics: [TRANSFER_TOPIC, `0x${"0".repeat(64)}`, `0x${"0".repeat(64)}`, `0x${"0".repeat(63)}9`],
      data: "0x",
      blockNumber: "0x1",
      blockHash: `0x${"0".repeat(64)}`,
      transactionHash: "0xnot-a-hash",
      logIndex: "0x0",
      removed: false,
    };
    const malformed: FaultPlan = { refuse: (call) => (call.method === "eth_getLogs" ? { result: [forged] } : undefined) };
    // `b` answers 150 ms later, so that the pool prefers `a` until `a` fails (then `a` cools down: the app's clock stands).
    const slower: FaultPlan = { refuse: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 150)) };
    const { a, b, t, scrape } = await twoProviders({ a: malformed, b: slower }, { INDEXER: "true", INDEXER_POLL_MS: "50" });
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
    // Token 9, which the forged log would have minted, has no owner: the index equals the chain.
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", alice, [...ids, 7n, 9n]);
    expect(a.countByMethod().eth_getLogs).to.be.greaterThan(0);
    expect(b.countByMethod().eth_getLogs).to.be.greaterThan(0);
    const failures = { network: "localhost", provider: host(a), fault: "transport_error", failed_over: "true" };
    expect(sample(await scrape(), "rpc_provider_failures_total", failures)).to.be.greaterThan(0);
  });
  it("the indexer takes a malformed block header as that provider's fault: it goes on through the other, with no reorg", async function () {
    const { chain, alice } = suite();
    // Every header `a` answers has a hash that is not hex: compared with the cursor's, it would read as a reorg.
    const malformed: FaultPlan = {
      refuse: async (call) => {
        if (call.method !== "eth_getBlockByNumber") return undefined;
        const block = await chain.provider.send("eth_getBlockByNumber", call.params as unknown[]);
        return { result: block && { ...block, hash: "0xnot-a-hash" } };
      },
    };
    const slower: FaultPlan = { refuse: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 150)) };
    const { a, b, t, scrape } = await twoProviders({ a: malformed, b: slower }, { INDEXER: "true", INDEXER_POLL_MS: "50" });
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", alice, [...ids, 7n]);
    expect(a.countByMethod().eth_getBlockByNumber).to.be.greaterThan(0);
    expect(b.countByMethod().eth_getBlockByNumber).to.be.greaterThan(0);
    const failures = { network: "localhost", provider: host(a), fault: "transport_error", failed_over: "true" };
    expect(sample(await scrape(), "rpc_provider_failures_total", failures)).to.be.greaterThan(0);
    const { rows } = await t.app.db.query<{ n: string }>("SELECT count(*) AS n FROM nft_changes WHERE kind = 'removed'");
    expect(Number(rows[0].n), "transfers announced as removed").to.equal(0);
  });
});
