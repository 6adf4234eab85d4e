import { expect } from "chai";
import { faultOf, LATENCY_HALF_LIFE_MS, providerLabels, ProviderHealth, redactedHost } from "../../../server/chain/pool";
import { rateLimited } from "../../../server/chain/errors";

/** The parts of the provider pool that are plain logic: a URL's health, its label, what counts as its fault. */
describe("provider pool", function () {
  describe("ProviderHealth", function () {
    it("cools a failed URL down for the setting, doubling with each failure in a row up to 32 times, at least a 429's pause", function () {
      const health = new ProviderHealth(1_000);
      const cooldowns: number[] = [];
      for (let i = 0; i < 8; i++) {
        health.failed(0);
        cooldowns.push(health.coolUntil);
      }
      expect(cooldowns).to.deep.equal([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 32_000, 32_000]);
      expect(health.cooling(31_999)).to.equal(true);
      expect(health.cooling(32_000)).to.equal(false);

      const limited = new ProviderHealth(1_000);
      limited.failed(0, 30_000);
      expect(limited.coolUntil).to.equal(30_000);
    });

    it("reports down once per outage and up once when it answers again; an answer resets the failures", function () {
      const health = new ProviderHealth(1_000);
      expect([health.failed(0), health.failed(0), health.up]).to.deep.equal([true, false, false]);
      expect([health.answered(10, 0), health.answered(10, 0), health.up, health.failures, health.coolUntil]).to.deep.equal([
        true,
        false,
        true,
        0,
        0,
      ]);
      health.failed(5_000);
      expect(health.coolUntil).to.equal(6_000);
    });

    it("averages latency with the newest answer weighing 0.3", function () {
      const health = new ProviderHealth(1_000);
      expect(health.estimate(0)).to.equal(undefined);
      health.answered(100, 0);
      expect(health.latencyMs).to.equal(100);
      health.answered(200, 0);
      expect(health.latencyMs).to.be.closeTo(130, 1e-9);
      expect(health.estimate(0)).to.be.closeTo(130, 1e-9);
    });

    it(`ages the average: the figure the choice reads and the old average's weight against the next answer halve each ${LATENCY_HALF_LIFE_MS} ms without one`, function () {
      const health = new ProviderHealth(1_000);
      health.answered(400, 10_000);
      expect(health.estimate(10_000 + LATENCY_HALF_LIFE_MS)).to.be.closeTo(200, 1e-9);
      expect(health.estimate(10_000 + 2 * LATENCY_HALF_LIFE_MS)).to.be.closeTo(100, 1e-9);
      // A clock that stepped back does not make it older than it was at its answer.
      expect(health.estimate(0)).to.equal(400);
      // Two half-lives old, the average weighs 0.7 / 4 against the answer.
      health.answered(10, 10_000 + 2 * LATENCY_HALF_LIFE_MS);
      expect(health.latencyMs).to.be.closeTo(0.825 * 10 + 0.175 * 400, 1e-9);
    });
  });

  describe("labels", function () {
    it("name a URL by its host and port only: never its credentials, path or query (where providers put keys)", function () {
      expect(redactedHost("https://user:pass@mainnet.infura.io/v3/0123abcd?key=secret")).to.equal("mainnet.infura.io");
      expect(redactedHost("http://127.0.0.1:8545/")).to.equal("127.0.0.1:8545");
    });

    it("tell apart two URLs of one host, in the order given", function () {
      expect(providerLabels(["https://a.example/v2/KEY1", "https://b.example/", "https://a.example/v2/KEY2"])).to.deep.equal([
        "a.example",
        "b.example",
        "a.example#2",
      ]);
    });
  });

  describe("faultOf", function () {
    it("is the provider's fault for transport, HTTP and timeout failures, 429s and their words in a 200, not for the node's answers or our errors", function () {
      const http = (statusCode: number) => ({ code: "SERVER_ERROR", response: { statusCode, headers: {} } });
      expect(faultOf(http(429))).to.equal("rate_limited");
      expect(faultOf(http(502))).to.equal("transport_error");
      expect(faultOf({ code: "TIMEOUT" })).to.equal("timeout");
      expect(faultOf({ code: "ECONNREFUSED" })).to.equal("transport_error");
      // A JSON-RPC error that reports the provider's fault: a backend without the block, a rate limit.
      expect(faultOf({ code: "UNKNOWN_ERROR", error: { code: -32000, message: "header not found" } })).to.equal("transport_error");
      expect(faultOf({ code: "UNKNOWN_ERROR", error: { code: -32005, message: "limit exceeded" } })).to.equal("rate_limited");
      // The node's answers: a refused range (Infura's -32005 too, in other words), a revert.
      expect(faultOf({ code: "UNKNOWN_ERROR", error: { code: -32005, message: "query returned more than 10000 results" } })).to.equal(
        undefined,
      );
      expect(faultOf({ code: "UNKNOWN_ERROR", error: { code: -32000, message: "execution reverted" } })).to.equal(undefined);
      expect(faultOf({ code: "CALL_EXCEPTION" })).to.equal(undefined);
      expect(faultOf(rateLimited("mainnet", 3))).to.equal(undefined);
      expect(faultOf(new TypeError("a bug"))).to.equal(undefined);
    });
  });
});
