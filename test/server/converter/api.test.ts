import { expect } from "chai";
import { fetchJson, startTestApp } from "../../helpers/app";
import { SuiteChain } from "../../helpers/suite-chain";
import { startRpcProxy, type Refusal, type RpcCall } from "../../helpers/rpc-proxy";
import { BIG_ID, converterFixture } from "./fixture";
import { expectRefusal } from "../../helpers/refusal";
import { failingChecksum } from "../../helpers/checksums";

describe("converter routes", function () {
  this.timeout(120_000);
  /** What the proxy answers every call with instead of the node, while set. */
  let nodeFailure: Refusal | undefined;
  /** What the proxy answers some calls with instead of the node, while set. */
  let refuseCall: ((call: RpcCall) => Refusal | undefined) | undefined;
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const f = await converterFixture(chain.provider, 7);
    // Through a proxy that records the calls: reads are cached per block. HEAD_CACHE_MS=0: each request sees the head.
    const proxy = chain.closesWith(await startRpcProxy(chain.url, (call) => nodeFailure ?? refuseCall?.(call)));
    const t = chain.closesWith(
      await startTestApp({
        env: { RPC_URL_LOCALHOST: proxy.url, HEAD_CACHE_MS: "0", INDEXER: "false", CONVERTERS: `localhost:${f.addresses.converter}` },
      }),
    );
    return { f, proxy, t, base: `/converter/localhost/${f.addresses.converter}` };
  });

  const get = (path: string) => fetchJson(suite().t, path);

  /** An answer read at the chain's current block (HEAD_CACHE_MS=0: the request asks the node for its head). */
  async function fresh(path: string) {
    const head = await suite().chain.provider.getBlockNumber();
    const answer = await get(path);
    expect(answer.body.block, path).to.be.at.least(head);
    return answer;
  }

  describe("GET /converter/:network/:converter", function () {
    it("answers the tokens, switches and stock, read at one block", async function () {
      const { f, base, chain } = suite();
      const { status, body } = await get(base);
      expect(status).to.equal(200);
      expect(body).to.deep.equal({
        network: "localhost",
        converter: f.addresses.converter,
        block: await chain.provider.getBlockNumber(),
        alice: f.addresses.alice,
        bob: f.addresses.bob,
        names: { alice: await f.alice.name(), bob: await f.bob.name() },
        paused: false,
        reverseConversionEnabled: true,
        stock: { alice: 0, bob: 4 },
      });
    });

    it("takes the address in any case and answers it checksummed", async function () {
      const { f } = suite();
      const { status, body } = await get(`/converter/localhost/${f.addresses.converter.toLowerCase()}`);
      expect(status).to.equal(200);
      expect(body.converter).to.equal(f.addresses.converter);
    });

    it("reads the chain once per block however many requests ask", async function () {
      const { proxy, base, chain } = suite();
      await get(base); // warm at this block
      const before = proxy.calls.filter((c) => c.method === "eth_call").length;
      await Promise.all(Array.from({ length: 5 }, () => get(base)));
      expect(proxy.calls.filter((c) => c.method === "eth_call").length).to.equal(before);
      await chain.provider.send("evm_mine", []);
      await fresh(base);
      expect(proxy.calls.filter((c) => c.method === "eth_call").length).to.be.greaterThan(before);
    });

    it("is a 404 for an address that is not a converter: an account, or another contract", async function () {
      const { f } = suite();
      for (const address of ["0x000000000000000000000000000000000000dEaD", f.addresses.alice]) {
        await expectRefusal(await get(`/converter/localhost/${address}`), 404, "not_found", {
          label: address,
          message: `${address} is not an NFT converter on localhost`,
        });
      }
    });

    it("refuses malformed input with 4xx {error, message}", async function () {
      const { f } = suite();
      const cases: Array<[string, number, string]> = [
        ["/converter/localhost/0x1234", 400, "invalid_address"],
        [`/converter/localhost/${failingChecksum(f.addresses.converter)}`, 400, "invalid_address"],
        [`/converter/localhost/${encodeURIComponent(`${f.addresses.converter}\u0000`)}`, 400, "invalid_request"],
        [`/converter/localhost/${encodeURIComponent(`\u202e${f.addresses.converter}`)}`, 400, "invalid_address"],
        [`/converter/mainet/${f.addresses.converter}`, 400, "unknown_network"],
        [`/converter/sepolia/${f.addresses.converter}`, 503, "network_unavailable"],
      ];
      for (const [path, status, error] of cases) {
        const answer = await get(path);
        expect(answer.status, path).to.equal(status);
        expect(answer.body.error, path).to.equal(error);
        expect(answer.body.message, path).to.be.a("string");
      }
    });
  });

  describe("GET /converter/:network/:converter/pairs", function () {
    /** The pairs of Alice `ids` as the answer's JSON text gives them, asked of the chain call by call. */
    async function pairsOnChain(ids: bigint[]): Promise<string> {
      const { f } = suite();
      const pairs: string[] = [];
      for (const id of ids) {
        const [paired, counterpart] = await f.converter.bobIdOf(id);
        const holder = paired ? await f.bob.ownerOf(counterpart).catch(() => null) : null; // Bob 4 was never minted
        const inStock = holder === f.addresses.converter;
        const pair = paired
          ? { id, counterpart, convertible: inStock, reason: inStock ? null : "out_of_stock" }
          : { id, counterpart: null, convertible: false, reason: "not_paired" };
        pairs.push(JSON.stringify(pair, (_key, value) => (typeof value === "bigint" ? `#${value}#` : value)).replace(/"#(\d+)#"/g, "$1"));
      }
      return pairs.join(",");
    }

    it("answers per Alice id: counterpart, convertible now, and why not, in the order asked", async function () {
      const { f, base } = suite();
      const { status, text, body } = await get(`${base}/pairs?aliceIds=1,4,5,${BIG_ID}`);
      expect(status).to.equal(200);
      expect(body).to.include({ network: "localhost", converter: f.addresses.converter, side: "alice" });
      expect(body.block).to.be.a("number");
      expect(body.pairs.slice(0, 3)).to.deep.equal([
        { id: 1, counterpart: 1, convertible: true, reason: null },
        { id: 4, counterpart: 4, convertible: false, reason: "out_of_stock" },
        { id: 5, counterpart: null, convertible: false, reason: "not_paired" },
      ]);
      // Raw text: JSON.parse would round the big id.
      expect(text).to.contain(`{"id":${BIG_ID},"counterpart":${BIG_ID},"convertible":true,"reason":null}`);
    });

    it("answers per Bob id: converting back needs the Alice token in stock", async function () {
      const { base } = suite();
      const { body } = await get(`${base}/pairs?bobIds=1,9`);
      expect(body.side).to.equal("bob");
      expect(body.pairs).to.deep.equal([
        { id: 1, counterpart: 1, convertible: false, reason: "out_of_stock" },
        { id: 9, counterpart: null, convertible: false, reason: "not_paired" },
      ]);
    });

    it("says paused while the converter is paused, and reverse conversion off when it is switched off", async function () {
      const { f, base } = suite();
      await (await f.converter.pause()).wait();
      try {
        expect((await fresh(`${base}/pairs?aliceIds=1,5`)).body.pairs).to.deep.equal([
          { id: 1, counterpart: 1, convertible: false, reason: "paused" },
          { id: 5, counterpart: null, convertible: false, reason: "not_paired" },
        ]);
        expect((await fresh(base)).body.paused).to.equal(true);
      } finally {
        await (await f.converter.unpause()).wait();
      }
      await (await f.converter.setReverseConversion(false)).wait();
      try {
        expect((await fresh(`${base}/pairs?bobIds=1`)).body.pairs).to.deep.equal([
          { id: 1, counterpart: 1, convertible: false, reason: "reverse_conversion_disabled" },
        ]);
        expect((await fresh(base)).body.reverseConversionEnabled).to.equal(false);
      } finally {
        await (await f.converter.setReverseConversion(true)).wait();
      }
      expect((await fresh(`${base}/pairs?aliceIds=1`)).body.pairs[0].convertible).to.equal(true);
    });

    it("takes up to 100 ids", async function () {
      const { base } = suite();
      const ids = Array.from({ length: 100 }, (_, i) => i + 1);
      const { status, body } = await get(`${base}/pairs?aliceIds=${ids.join(",")}`);
      expect(status).to.equal(200);
      expect(body.pairs.map((p: { id: number }) => p.id)).to.deep.equal(ids);
    });

    it("reads 100 fresh ids at a new block with a few eth_calls at the node (one batch per round), answering as the chain does", async function () {
      const { proxy, base, chain } = suite();
      await chain.provider.send("evm_mine", []);
      await fresh(base); // the state at the new block: what is counted is what the ids cost
      const ids = [...Array.from({ length: 99 }, (_, i) => BigInt(i + 1)), BIG_ID];
      const before = proxy.calls.filter((c) => c.method === "eth_call").length;
      const { status, text, body } = await get(`${base}/pairs?aliceIds=${ids.join(",")}`);
      const used = proxy.calls.filter((c) => c.method === "eth_call").length - before;
      expect(status).to.equal(200);
      expect(body.block).to.equal(await chain.provider.getBlockNumber());
      expect(used).to.be.at.most(4);
      expect(text).to.contain(`"pairs":[${await pairsOnChain(ids)}]`);
    });

    it("reads call by call when the node refuses the batch (an eth_call without to), answering the same", async function () {
      const { base, chain } = suite();
      // A node granting less gas than the batch needs answers with a revert, as this one does.
      refuseCall = (call) =>
        call.method === "eth_call" && !(call.params[0] as { to?: string }).to
          ? { rpcError: { code: 3, message: "execution reverted" } }
          : undefined;
      try {
        await chain.provider.send("evm_mine", []);
        await fresh(base);
        const ids = [1n, 4n, 5n, BIG_ID];
        const { status, text } = await get(`${base}/pairs?aliceIds=${ids.join(",")}`);
        expect(status).to.equal(200);
        expect(text).to.contain(`"pairs":[${await pairsOnChain(ids)}]`);
      } finally {
        refuseCall = undefined;
      }
    });

    it("refuses malformed input with 400 {error, message}", async function () {
      const { base } = suite();
      const many = Array.from({ length: 101 }, (_, i) => i).join(",");
      const cases: Array<[string, string]> = [
        ["", "invalid_request"],
        ["?aliceIds=1&bobIds=1", "invalid_request"],
        ["?aliceIds=", "invalid_request"],
        [`?aliceIds=${many}`, "invalid_request"],
        ["?aliceIds=1&aliceIds=2", "invalid_request"],
        ["?aliceIds=1x", "invalid_token_id"],
        ["?aliceIds=1,,2", "invalid_token_id"],
        ["?aliceIds=-1", "invalid_token_id"],
        ["?aliceIds=1e3", "invalid_token_id"],
        ["?aliceIds=01", "invalid_token_id"],
        [`?aliceIds=${2n ** 256n}`, "invalid_token_id"],
        [`?bobIds=${encodeURIComponent("1\u0000")}`, "invalid_request"],
        [`?bobIds=${encodeURIComponent("\u202e1")}`, "invalid_token_id"],
        [`?aliceIds=${"1,".repeat(5000)}1`, "invalid_request"],
      ];
      for (const [query, error] of cases) {
        const answer = await get(`${base}/pairs${query}`);
        await expectRefusal(answer, 400, error, { label: query.slice(0, 60) });
      }
    });

    it("is a 404 for an address that is not a converter", async function () {
      const { f } = suite();
      await expectRefusal(await get(`/converter/localhost/${f.addresses.bob}/pairs?aliceIds=1`), 404, "not_found");
    });
  });

  it("both routes answer 502 upstream_error while the node fails, and read the chain again once it is back", async function () {
    const { base } = suite();
    nodeFailure = { httpStatus: 500, body: "node down" };
    try {
      for (const path of [base, `${base}/pairs?aliceIds=1`]) {
        await expectRefusal(await get(path), 502, "upstream_error", { label: path, message: "The localhost node failed to answer" });
      }
    } finally {
      nodeFailure = undefined;
    }
    // The failure is not kept: the next request asks the node again.
    expect((await get(base)).status).to.equal(200);
    expect((await get(`${base}/pairs?aliceIds=1`)).status).to.equal(200);
  });

  it("both routes are in the OpenAPI document, with examples", async function () {
    const { body } = await get("/openapi.json");
    const state = body.paths["/converter/{network}/{converter}"].get;
    const pairs = body.paths["/converter/{network}/{converter}/pairs"].get;
    expect(JSON.stringify(state.responses["200"])).to.contain("reverseConversionEnabled").and.contain('"example":{"network":"localhost"');
    expect(JSON.stringify(pairs.responses["200"])).to.contain("out_of_stock").and.contain('"example":{"network":"localhost"');
    expect(pairs.parameters.map((p: { name: string }) => p.name)).to.include.members(["aliceIds", "bobIds", "network", "converter"]);
    expect(body.paths).to.not.have.property("/convert");
  });

  describe("the page's routes (no browser)", function () {
    it("hands the page the converter's chain, and the configured RPC URL only for the local chain", async function () {
      const { f, proxy, t } = suite();
      const html = await (await t.fetch(`/convert`)).text();
      const config = JSON.parse(
        /data-config="([^"]*)"/
          .exec(html)![1]
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, "&"),
      );
      expect(config).to.include({
        network: "localhost",
        chainId: 31337,
        converter: f.addresses.converter,
        explorer: null,
        rpcUrl: proxy.url,
      });
      // Revert sentences need the custom errors by selector.
      expect(config.reverts[f.converter.interface.getError("OutOfStock")!.selector]).to.deep.equal(["OutOfStock", ["address", "uint256"]]);
    });

    it("links to the network's explorer and never hands out the service's own RPC URL of a real network", async function () {
      const { f, t } = suite();
      const other = await startTestApp({
        env: { RPC_URL_SEPOLIA: "http://127.0.0.1:9/secret-key", INDEXER: "false", CONVERTERS: `sepolia:${f.addresses.converter}` },
        database: t.database,
      });
      try {
        const html = await (await other.fetch(`/convert?lang=ja`)).text();
        expect(html).to.contain('<html lang="ja">').and.not.contain("secret-key");
        const config = JSON.parse(
          /data-config="([^"]*)"/
            .exec(html)![1]
            .replace(/&quot;/g, '"')
            .replace(/&amp;/g, "&"),
        );
        expect(config).to.include({ network: "sepolia", chainId: 11155111, explorer: "https://sepolia.etherscan.io", rpcUrl: null });
      } finally {
        await other.close();
      }
    });

    it("answers malformed page requests with a 4xx, never a page for an unconfigured converter", async function () {
      const { f, t } = suite();
      for (const path of [
        `/convert/mainnet/${f.addresses.converter}`,
        `/convert/localhost/${encodeURIComponent("\u202e")}${f.addresses.converter}`,
      ]) {
        const response = await t.fetch(path);
        await expectRefusal(response, 404, "not_found", { label: path, dialect: "html" });
        expect(await response.text(), path).to.not.contain("data-config");
      }
      // A control character anywhere in the URL is refused before any route (input guard).
      for (const path of [
        "/convert?lang=ja&lang=en",
        `/convert?lang=${"x".repeat(100)}`,
        `/convert/localhost/${encodeURIComponent("\u0000")}`,
        `/convert?lang=${encodeURIComponent("\u0000")}`,
      ]) {
        const response = await t.fetch(path);
        await expectRefusal(response, 400, "invalid_request", { label: path });
      }
      const odd = await t.fetch(`/convert?lang=${encodeURIComponent("\u202e")}`, { headers: { "accept-language": "ja;q=1" } });
      expect(odd.status).to.equal(200);
      expect(await odd.text()).to.contain('<html lang="ja">');
    });
  });
});
