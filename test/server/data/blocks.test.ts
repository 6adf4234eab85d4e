import { expect } from "chai";
import { startTestApp } from "../../helpers/app";
import { startTcpProxy } from "../../helpers/tcp-proxy";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";

describe("GET /block/:network/latest", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const target = new URL(chain.url);
    const proxy = chain.closesWith(await startTcpProxy(target.hostname, Number(target.port)));
    // No indexer: its polls share the provider, so the route's own calls to the node could neither be counted nor seen
    // to fail. A head cache no busy machine outlasts: the tests move the app's clock past it.
    const t = chain.closesWith(
      await startTestApp({
        env: { RPC_URL_LOCALHOST: proxy.url(chain.url), HEAD_CACHE_MS: "30000", RPC_TIMEOUT_MS: "1000", INDEXER: "false" },
      }),
    );
    return { proxy, t };
  });

  const get = async (path: string) => {
    const response = await suite().t.fetch(path);
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it("answers the node's latest block as a JSON number, at most one block behind", async function () {
    const { t, chain } = suite();
    const { provider } = chain;
    const cached = Number((await get("/block/localhost/latest")).text);
    await provider.send("hardhat_mine", ["0x3"]);
    const head = await provider.getBlockNumber();
    expect(Number((await get("/block/localhost/latest")).text), "within the cache time").to.equal(cached);
    t.clock.advance(30_000);
    const r = await get("/block/localhost/latest");
    expect(r.status).to.equal(200);
    expect(r.text).to.match(/^\d+$/);
    expect(Number(r.text)).to.equal(head);
  });

  it("asks the node once for many concurrent requests within the cache time", async function () {
    const { chain } = suite();
    // An instance of its own with a cache time no busy machine outlasts while 50 requests are answered.
    const slow = await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, HEAD_CACHE_MS: "30000", INDEXER: "false" } });
    try {
      let calls = 0;
      slow.app.networks.provider("localhost").on("debug", (event: { action: string }) => {
        if (event.action === "sendRpcPayload") calls++;
      });
      const answers = await Promise.all(Array.from({ length: 50 }, async () => (await slow.fetch("/block/localhost/latest")).text()));
      expect(new Set(answers).size).to.equal(1);
      expect(calls).to.equal(1);
    } finally {
      await slow.close();
    }
  });

  it("is a 400 for an unknown network and a 503 for a known one without a node", async function () {
    await expectRefusal(await get("/block/ethereum/latest"), 400, "unknown_network", {
      message: 'Unknown network "ethereum": this service serves localhost',
    });
    // Names are not forgiven (one spelling keys the index, caches and metrics): the refusal names the one meant.
    await expectRefusal(await get("/block/Localhost/latest"), 400, "unknown_network", {
      message: 'Unknown network "Localhost" (did you mean "localhost"?): this service serves localhost',
    });
    await expectRefusal(await get("/block/31337/latest"), 400, "unknown_network", {
      message: 'Unknown network "31337" (did you mean "localhost", chain id 31337?): this service serves localhost',
    });
    await expectRefusal(await get("/block/sepolia/latest"), 503, "network_unavailable");
  });

  it("is a 502 while the node is down and answers again once it is back", async function () {
    const { t, proxy } = suite();
    t.clock.advance(30_000);
    proxy.cut();
    const down = await get("/block/localhost/latest");
    await expectRefusal(down, 502, "upstream_error", { message: "The localhost node failed to answer" });
    proxy.restore();
    // The failure is not kept: the next request asks the node again.
    expect((await get("/block/localhost/latest")).status).to.equal(200);
  });
});
