import { expect } from "chai";
import { loadConfig } from "../../../server/config";
import { startOfMinute, startTestApp } from "../../helpers/app";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";

const ACCOUNT = "0x000000000000000000000000000000000000dEaD";

describe("rate limits of the data and converter routes (DATA_RATE_LIMIT, CONVERTER_RATE_LIMIT per minute and client)", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const t = await startTestApp({
      env: {
        RPC_URL_LOCALHOST: chain.url,
        INDEXER: "false",
        DATA_RATE_LIMIT: "3",
        CONVERTER_RATE_LIMIT: "2",
        CONVERTERS: `localhost:${ACCOUNT}`,
        // Which routes count together is what this file tests; the shared store, and its fallback to the process's
        // counts when the database is slow, have their own tests (test/server/rate-limits/). Under load that fallback
        // made the counts here start over.
        RATE_LIMIT_STORE: "memory",
      },
    });
    return { t: chain.closesWith(t) };
  });

  /** A request from `ip` (as the socket's address: no proxy is trusted here). */
  async function from(ip: string, url: string) {
    const response = await suite().t.app.inject({ url, remoteAddress: ip });
    return { status: response.statusCode, headers: response.headers, body: response.json() };
  }

  async function expectRefused(answer: Awaited<ReturnType<typeof from>>, label: string) {
    await expectRefusal(answer, 429, "too_many_requests", { label, message: /^Rate limit exceeded/, headers: { "retry-after": true } });
    expect(Number(answer.headers["retry-after"]), label).to.be.within(1, 60);
  }

  it("counts all the data routes together per client, then answers 429 with Retry-After until the minute is over", async function () {
    const { t } = suite();
    startOfMinute(t.clock);
    const ip = "192.0.2.10";
    const paths = ["/block/localhost/latest", "/gas/localhost/suggested-price", `/inventory/localhost/${ACCOUNT}`];
    for (const path of paths) expect((await from(ip, path)).status, path).to.not.equal(429);
    for (const path of [...paths, `/token/localhost/${ACCOUNT}/1`, `/holders/localhost/${ACCOUNT}`])
      await expectRefused(await from(ip, path), path);
    // Another client has its own budget; the other routes are not counted.
    expect((await from("192.0.2.11", "/block/localhost/latest")).status).to.equal(200);
    expect((await from(ip, "/health")).status).to.equal(200);
    t.clock.advance(60_000);
    expect((await from(ip, "/block/localhost/latest")).status).to.equal(200);
  });

  it("counts an event stream in the data routes' budget: each replays its backlog from the change log", async function () {
    const { t } = suite();
    startOfMinute(t.clock);
    const ip = "192.0.2.12";
    for (let i = 0; i < 3; i++) expect((await from(ip, "/block/localhost/latest")).status).to.equal(200);
    // A stream that is let through never ends: a refusal is the only answer that comes.
    const answer = await Promise.race([
      from(ip, "/events/localhost?lastEventId=1"),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the stream was let through")), 5_000)),
    ]);
    await expectRefused(answer, "/events");
  });

  it("counts an IPv6 client by its /64", async function () {
    const { t } = suite();
    startOfMinute(t.clock);
    for (let i = 1; i <= 3; i++) expect((await from(`2001:db8:1:2::${i}`, "/block/localhost/latest")).status).to.equal(200);
    await expectRefused(await from("2001:db8:1:2:ffff::9", "/block/localhost/latest"), "same /64");
    expect((await from("2001:db8:1:3::1", "/block/localhost/latest")).status).to.equal(200);
  });

  it("counts the converter's two read routes together, on their own budget, and not its page", async function () {
    const { t } = suite();
    startOfMinute(t.clock);
    const ip = "192.0.2.20";
    const state = `/converter/localhost/${ACCOUNT}`;
    const pairs = `${state}/pairs?aliceIds=1`;
    await expectRefusal(await from(ip, state), 404, "not_found"); // not a converter: still a read of the chain
    await expectRefusal(await from(ip, pairs), 404, "not_found");
    await expectRefused(await from(ip, pairs), "pairs");
    await expectRefused(await from(ip, state), "state");
    const page = await t.app.inject({ url: "/convert", remoteAddress: ip });
    expect(page.statusCode).to.equal(200);
    expect((await from(ip, "/block/localhost/latest")).status).to.equal(200);
  });

  it("refuses limits that are not positive integers, naming the variable", function () {
    for (const name of ["DATA_RATE_LIMIT", "CONVERTER_RATE_LIMIT", "METADATA_POST_RATE_LIMIT"]) {
      expect(() => loadConfig({ [name]: "0" })).to.throw(new RegExp(`^${name}: expected an integer`));
      expect(() => loadConfig({ [name]: "lots" })).to.throw(new RegExp(`^${name}`));
    }
    expect(loadConfig({}).rateLimits).to.deep.equal({ data: 600, converter: 120, metadataPosts: 600, store: "database" });
  });
});
