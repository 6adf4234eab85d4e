import { expect } from "chai";
import { Wallet } from "ethers";
import { loadConfig } from "../../../server/config";
import { Metrics } from "../../../server/metrics/metrics";
import { AliceNFT__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { usingPostgres } from "../../helpers/database";
import { sharedNode } from "../../helpers/chain";
import { indexedTo } from "../../helpers/index-check";
import { authorizeQuery, registerClient, startLoginApp } from "../auth/helpers";
import { sample } from "../../helpers/metrics";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";

describe("metrics (GET /metrics on its own listener)", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    // The apps here listen: the metrics listener opens when the app listens, on a port of its own next to the app's.
    const t = chain.closesWith(
      await startLoginApp(chain.url, {
        listen: true,
        env: { INDEXER_POLL_MS: "50", RPC_URL_MAINNET: "http://127.0.0.1:1", RPC_TIMEOUT_MS: "1000" },
      }),
    );
    const client = await registerClient(t);
    const server = t.app.metricsServer!.server;
    const deadline = Date.now() + 10_000;
    while (!server.listening && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const address = server.address() as { address: string; port: number };
    return { t, client, metricsUrl: `http://${address.address}:${address.port}/metrics` };
  });

  /** The figures of `app` right now, as its listener serves them (the listener itself is tested on its port below). */
  async function scrape(app = suite().t.app): Promise<string> {
    return app.metrics!.registry.metrics();
  }

  describe("the listener", function () {
    it("serves the Prometheus text format on 127.0.0.1 by default, on a port of its own", async function () {
      const { t, metricsUrl } = suite();
      expect(new URL(metricsUrl).hostname).to.equal("127.0.0.1");
      expect(new URL(metricsUrl).port).to.not.equal(new URL(t.url).port);
      const answer = await fetch(metricsUrl);
      expect(answer.status).to.equal(200);
      expect(answer.headers.get("content-type")).to.equal("text/plain; version=0.0.4; charset=utf-8");
      const text = await answer.text();
      expect(text).to.include("# TYPE http_request_duration_seconds histogram");
      expect(text).to.include("# TYPE process_cpu_seconds_total counter");
    });

    it("is not served on the public port, nor listed in its OpenAPI document", async function () {
      const { t } = suite();
      const answer = await t.app.inject({ method: "GET", url: "/metrics" });
      await expectRefusal(answer, 404, "not_found");
      const paths = Object.keys((await t.app.inject({ method: "GET", url: "/openapi.json" })).json().paths);
      expect(paths.some((path) => path.includes("metrics"))).to.equal(false);
    });

    it("answers only GET /metrics, and points to no API description (it serves none)", async function () {
      const { metricsUrl } = suite();
      const root = new URL("/", metricsUrl).href;
      await expectRefusal(await fetch(root), 404, "not_found", { message: "Route GET / not found" });
      await expectRefusal(await fetch(`${metricsUrl}x`), 404, "not_found", { message: "Route GET /metricsx not found" });
      await expectRefusal(await fetch(metricsUrl, { method: "POST", body: "x" }), 405, "method_not_allowed", {
        message: "/metrics takes GET or HEAD, not POST",
        headers: { allow: "GET, HEAD" },
      });
      const head = await fetch(`${metricsUrl}?a=1`, { method: "HEAD" });
      expect(head.status).to.equal(200);
      expect(head.headers.get("cache-control")).to.equal("no-store");
      expect(await head.text()).to.equal("");
    });
  });

  describe("HTTP requests", function () {
    it("counts and times requests by route pattern and status", async function () {
      const { t } = suite();
      const labels = { method: "GET", route: "/block/:network/latest", status_code: "200" };
      const before = await scrape();
      for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: "GET", url: "/block/localhost/latest" })).statusCode).to.equal(200);
      await expectRefusal(await t.app.inject({ method: "GET", url: "/block/nowhere/latest" }), 400, "unknown_network");
      const after = await scrape();
      expect(sample(after, "http_requests_total", labels)).to.equal((sample(before, "http_requests_total", labels) ?? 0) + 3);
      expect(sample(after, "http_request_duration_seconds_count", labels)).to.equal(
        (sample(before, "http_request_duration_seconds_count", labels) ?? 0) + 3,
      );
      expect(sample(after, "http_request_duration_seconds_bucket", { ...labels, le: "+Inf" })).to.equal(
        sample(after, "http_requests_total", labels),
      );
      expect(sample(after, "http_request_duration_seconds_sum", labels)).to.be.greaterThan(0);
      expect(sample(after, "http_requests_total", { ...labels, status_code: "400" })).to.equal(
        (sample(before, "http_requests_total", { ...labels, status_code: "400" }) ?? 0) + 1,
      );
    });

    it("labels unmatched URLs as one route, never with the URL itself (a flood of random paths adds no series)", async function () {
      const { t } = suite();
      const labels = { method: "GET", route: "(unmatched)", status_code: "404" };
      const before = await scrape();
      for (let i = 0; i < 20; i++) await t.app.inject({ method: "GET", url: `/random-${i}-${"x".repeat(i)}?q=${i}` });
      await t.app.inject({ method: "GET", url: "/block/localhost/latest?\u202emetrics=\u0000" });
      const after = await scrape();
      expect(sample(after, "http_requests_total", labels)).to.equal((sample(before, "http_requests_total", labels) ?? 0) + 20);
      expect(after).to.not.include("random-");
      expect(after).to.not.include("\u202e");
      expect(after.split("\n").filter((line) => line.startsWith("http_requests_total")).length).to.equal(
        before.split("\n").filter((line) => line.startsWith("http_requests_total")).length +
          (sample(before, "http_requests_total", labels) === undefined ? 1 : 0),
      );
    });
  });

  describe("RPC calls", function () {
    it("counts and times the calls to each network's node", async function () {
      const { t } = suite();
      const ok = { network: "localhost", method: "eth_blockNumber", outcome: "ok" };
      const before = await scrape();
      // The head cache answers within HEAD_CACHE_MS: move past it so the request asks the node.
      t.clock.advance(t.config.headCacheMs);
      expect((await t.app.inject({ method: "GET", url: "/block/localhost/latest" })).statusCode).to.equal(200);
      const after = await scrape();
      expect(sample(after, "rpc_calls_total", ok)).to.be.greaterThan(sample(before, "rpc_calls_total", ok) ?? 0);
      expect(sample(after, "rpc_call_duration_seconds_count", { network: "localhost", method: "eth_blockNumber" })).to.be.greaterThan(0);
      // The indexer's large reads go around ethers and are counted too.
      expect(sample(after, "rpc_calls_total", { network: "localhost", method: "eth_getLogs", outcome: "ok" })).to.be.greaterThan(0);
    });

    it("counts a node that does not answer as errors of its network", async function () {
      const { t } = suite();
      const failed = { network: "mainnet", method: "eth_blockNumber", outcome: "transport_error" };
      const before = sample(await scrape(), "rpc_calls_total", failed) ?? 0;
      const answer = await t.app.inject({ method: "GET", url: "/block/mainnet/latest" });
      await expectRefusal(answer, 502, "upstream_error");
      expect(sample(await scrape(), "rpc_calls_total", failed)).to.be.greaterThan(before);
      expect(sample(await scrape(), "rpc_calls_total", { ...failed, outcome: "ok" })).to.equal(undefined);
    });
  });

  describe("logins", function () {
    async function login(payload: Record<string, unknown>) {
      return suite().t.app.inject({ method: "POST", url: "/api/login", payload });
    }
    async function signedLogin(wallet: { address: string; signMessage(m: string): Promise<string> }) {
      const { t, client } = suite();
      const query = authorizeQuery(client, wallet.address);
      const { message } = (await t.app.inject({ method: "GET", url: `/api/authorize?${query}` })).json();
      return login({ address: wallet.address, signature: await wallet.signMessage(message), client_id: client.id });
    }

    it("counts POST /api/login answers by result: success and each refusal's code", async function () {
      const { t, client } = suite();
      const count = (text: string, result: string) => sample(text, "login_attempts_total", { result }) ?? 0;
      const before = await scrape();
      const wallet = Wallet.createRandom();
      expect((await signedLogin(wallet)).statusCode).to.equal(200);
      expect((await signedLogin(wallet)).statusCode).to.equal(200);
      const replay = await login({ address: wallet.address, signature: await wallet.signMessage("not the message"), client_id: client.id });
      await expectRefusal(replay, 401, "invalid_challenge");
      await expectRefusal(await login({ address: "0x1234", signature: "0x", client_id: client.id }), 400, "invalid_address");
      await expectRefusal(
        await t.app.inject({ method: "POST", url: "/api/login", headers: { "content-type": "application/json" }, payload: "{" }),
        400,
        "malformed_json",
      );
      const after = await scrape();
      expect(count(after, "success")).to.equal(count(before, "success") + 2);
      expect(count(after, "invalid_challenge")).to.equal(count(before, "invalid_challenge") + 1);
      expect(count(after, "malformed_json")).to.equal(count(before, "malformed_json") + 1);
      const refused = ["invalid_address", "invalid_request"].map((code) => count(after, code) - count(before, code));
      expect(refused.reduce((a, b) => a + b)).to.equal(1);
    });
  });

  describe("indexer", function () {
    it("reports the newest indexed block, the last range and no lag once at the head; blocks and transfers move", async function () {
      const { chain, t } = suite();
      const before = await scrape();
      const deployer = await chain.provider.getSigner(0);
      const alice = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
      await (await alice.mintBatch(await deployer.getAddress(), [1n, 2n, 3n])).wait();
      const head = await chain.provider.getBlockNumber();
      await indexedTo(t.app.db, "localhost", chain.provider, head);
      const network = { network: "localhost" };
      // The range is reported right after its commit; the poll that finds the head follows within INDEXER_POLL_MS.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await scrape();
      expect(sample(after, "indexer_block", network)).to.be.at.least(head);
      expect(sample(after, "indexer_head_lag_blocks", network)).to.equal(0);
      expect(sample(after, "indexer_head_lag_seconds", network)).to.equal(0);
      expect(sample(after, "indexer_last_range_blocks", network)).to.be.at.least(1);
      expect(sample(after, "indexer_last_range_seconds", network)).to.be.greaterThan(0);
      expect(sample(after, "indexer_blocks_total", network)).to.be.at.least((sample(before, "indexer_blocks_total", network) ?? 0) + 2);
      expect(sample(after, "indexer_transfers_total", network)).to.be.at.least(
        (sample(before, "indexer_transfers_total", network) ?? 0) + 3,
      );
    });

    it("reports the lag in blocks and in seconds of the newest indexed block while behind the head", async function () {
      const metrics = new Metrics();
      const timestamp = Math.floor(Date.now() / 1000) - 120;
      metrics.indexer.range("mainnet", { from: 100, to: 149, head: 1_149, transfers: 7, seconds: 0.25, timestamp });
      const text = await metrics.registry.metrics();
      expect(sample(text, "indexer_head_lag_blocks", { network: "mainnet" })).to.equal(1_000);
      expect(sample(text, "indexer_head_lag_seconds", { network: "mainnet" })).to.be.within(119, 125);
      expect(sample(text, "indexer_last_range_blocks", { network: "mainnet" })).to.equal(50);
      expect(sample(text, "indexer_last_range_seconds", { network: "mainnet" })).to.equal(0.25);
    });
    it("drops the gauges of a network on standby, keeping its counters", async function () {
      const metrics = new Metrics();
      const network = { network: "mainnet" };
      metrics.indexer.range("mainnet", { from: 1, to: 5, head: 9, transfers: 2, seconds: 0.1, timestamp: Date.now() / 1000 });
      metrics.indexer.range("sepolia", { from: 1, to: 5, head: 5, transfers: 0, seconds: 0.1, timestamp: Date.now() / 1000 });
      metrics.indexer.standby("mainnet");
      const text = await metrics.registry.metrics();
      for (const gauge of [
        "indexer_block",
        "indexer_head_lag_blocks",
        "indexer_head_lag_seconds",
        "indexer_last_range_blocks",
        "indexer_last_range_seconds",
      ])
        expect(sample(text, gauge, network), gauge).to.equal(undefined);
      expect(sample(text, "indexer_block", { network: "sepolia" })).to.equal(5);
      expect(sample(text, "indexer_blocks_total", network)).to.equal(5);
      expect(sample(text, "indexer_transfers_total", network)).to.equal(2);
    });

    it("reports a network's block and lag only on the instance that writes it: a standby drops what it reported", async function () {
      const { t } = suite();
      if (!usingPostgres()) this.skip(); // PGlite is one session: a second app on it would share the writer's lock
      const network = { network: "localhost" };
      const deadline = Date.now() + 10_000;
      while (sample(await scrape(), "indexer_block", network) === undefined && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const standby = await startTestApp({ database: t.database, env: { RPC_URL_LOCALHOST: (await sharedNode()).url } });
      try {
        // As if it had written the network before the other instance took the writer's lock over.
        standby.app.metrics!.indexer.range("localhost", {
          from: 1,
          to: 5,
          head: 9,
          transfers: 0,
          seconds: 0.1,
          timestamp: Date.now() / 1000,
        });
        // Its indexer tries the lock again within 2 s, finds it taken and drops the figures.
        const until = Date.now() + 10_000;
        while (sample(await scrape(standby.app), "indexer_block", network) !== undefined && Date.now() < until)
          await new Promise((resolve) => setTimeout(resolve, 100));
        const text = await scrape(standby.app);
        expect(sample(text, "indexer_block", network)).to.equal(undefined);
        expect(sample(text, "indexer_head_lag_seconds", network)).to.equal(undefined);
        expect(sample(text, "indexer_blocks_total", network)).to.equal(5);
        expect(sample(await scrape(), "indexer_block", network)).to.be.a("number");
      } finally {
        await standby.close();
      }
    });
  });

  describe("database pool", function () {
    it("reports the pool's connections, idle ones, waiting queries and its size", async function () {
      const { t } = suite();
      const kind = t.app.db.kind;
      await Promise.all(Array.from({ length: 5 }, () => t.app.inject({ method: "GET", url: "/ready" })));
      const text = await scrape();
      const total = sample(text, "db_pool_connections", { database: kind })!;
      const idle = sample(text, "db_pool_idle", { database: kind })!;
      expect(total).to.be.at.least(1);
      expect(idle).to.be.within(0, total);
      expect(sample(text, "db_pool_waiting", { database: kind })).to.be.at.least(0);
      expect(sample(text, "db_pool_max", { database: kind })).to.equal(kind === "pglite" ? 1 : 10);
    });
  });

  describe("configuration", function () {
    it("METRICS=false collects nothing and opens no listener", async function () {
      const off = await startTestApp({ listen: true, env: { METRICS: "false", INDEXER: "false" } });
      try {
        expect(off.app.metrics).to.equal(undefined);
        expect(off.app.metricsServer).to.equal(undefined);
        await expectRefusal(await off.app.inject({ method: "GET", url: "/metrics" }), 404, "not_found");
        expect((await off.app.inject({ method: "GET", url: "/health" })).statusCode).to.equal(200);
      } finally {
        await off.close();
      }
    });

    it("keeps the figures of each app apart (a registry per app), and closes its listener with the app", async function () {
      const other = await startTestApp({ listen: true, env: { INDEXER: "false" } });
      const server = other.app.metricsServer!.server;
      try {
        await other.app.inject({ method: "GET", url: "/health" });
        const text = await scrape(other.app);
        expect(sample(text, "http_requests_total", { method: "GET", route: "/health", status_code: "200" })).to.equal(1);
        expect(sample(text, "login_attempts_total", { result: "success" })).to.equal(undefined);
        while (!server.listening) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        await other.close();
      }
      expect(server.listening).to.equal(false);
    });

    it("keeps serving the API when the metrics port is taken (the failure is logged)", async function () {
      const { t, metricsUrl } = suite();
      const taken = new URL(metricsUrl).port;
      const other = await startTestApp({ listen: true, env: { INDEXER: "false", METRICS_PORT: taken } });
      try {
        expect((await other.app.inject({ method: "GET", url: "/health" })).statusCode).to.equal(200);
        expect((await other.fetch(`/health`)).status).to.equal(200);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(other.app.metricsServer!.server.listening).to.equal(false);
        // The port still answers the first app's figures, not the second's.
        const health = { method: "GET", route: "/health", status_code: "200" };
        const before = sample(await (await fetch(metricsUrl)).text(), "http_requests_total", health) ?? 0;
        await t.app.inject({ method: "GET", url: "/health" });
        expect(sample(await (await fetch(metricsUrl)).text(), "http_requests_total", health)).to.equal(before + 1);
      } finally {
        await other.close();
      }
    });

    it("reads METRICS, METRICS_HOST and METRICS_PORT, refusing bad values", function () {
      expect(loadConfig({}).metrics).to.deep.equal({ enabled: true, host: "127.0.0.1", port: 9464 });
      expect(loadConfig({ METRICS: "false", METRICS_HOST: "0.0.0.0", METRICS_PORT: "9100" }).metrics).to.deep.equal({
        enabled: false,
        host: "0.0.0.0",
        port: 9100,
      });
      expect(() => loadConfig({ METRICS: "maybe" })).to.throw(/^METRICS: expected true or false/);
      expect(() => loadConfig({ METRICS_PORT: "65536" })).to.throw(/^METRICS_PORT: expected an integer/);
    });
  });
});
