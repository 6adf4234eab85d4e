import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { Wallet } from "ethers";
import { boundText, encodeMetadata } from "../../../server/signed-metadata/signed-text";
import { MetadataERC1155__factory, MetadataNFT__factory } from "../../../typechain-types";
import { fetchJson, startOfMinute, startTestApp, type TestApp } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { startTcpProxy } from "../../helpers/tcp-proxy";
import { expectRefusal } from "../../helpers/refusal";
import { dataJson } from "../../helpers/data-uri";
import { SuiteChain } from "../../helpers/suite-chain";
import { failingChecksum } from "../../helpers/checksums";
import { recordRequestStatements } from "../../helpers/request-statements";

/** A metadata host: answers by path, counts requests per path, and can hang. */
async function startMetadataHost(
  routes: Record<string, { type?: string; body: string; status?: number; location?: string; hang?: boolean }>,
) {
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = request.url!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (!route) return void response.writeHead(404).end();
    if (route.hang) return;
    if (route.location) return void response.writeHead(302, { location: route.location }).end();
    response.writeHead(route.status ?? 200, { "content-type": route.type ?? "application/json" }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routes,
    hits,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

const SVG = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnLz4=";

describe("token route: metadata from tokenURIs", function () {
  this.timeout(120_000);
  const BIG_ID = 2n ** 64n + 3n;
  let nextId = 1000n;

  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const deployer = await chain.signer(0);
    const holder = (await chain.signer(7)).address;
    const host = await startMetadataHost({});
    chain.closesWith({ close: async () => host.close() });
    const hanging = http.createServer(() => {});
    // Another address of this machine than the metadata host's: fetches are limited per address.
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.2", resolve));
    chain.closesWith({
      close: async () => {
        hanging.closeAllConnections();
        hanging.close();
      },
    });
    const hangingUrl = `http://127.0.0.2:${(hanging.address() as AddressInfo).port}`;
    const nft = await new MetadataNFT__factory(deployer).deploy();
    const nftAddress = await nft.getAddress();
    // A second ERC-721 contract: fetches are limited per contract too.
    const other = await new MetadataNFT__factory(deployer).deploy();
    const otherAddress = await other.getAddress();
    const multi = await new MetadataERC1155__factory(deployer).deploy(`${host.url}/erc1155/{id}.json`);
    const multiAddress = await multi.getAddress();
    const nodeUrl = new URL(chain.url);
    const proxy = chain.closesWith(await startTcpProxy(nodeUrl.hostname, Number(nodeUrl.port)));
    const env = {
      RPC_URL_LOCALHOST: chain.url,
      INDEXER_POLL_MS: "50",
      INDEXER_CONTRACTS_LOCALHOST: `${nftAddress},${multiAddress},${otherAddress}`,
      IPFS_GATEWAY: `${host.url}/ipfs`,
      ARWEAVE_GATEWAY: `${host.url}/ar/`,
      METADATA_FETCH_MAX_BYTES: "4096",
      METADATA_FETCH_TIMEOUT_MS: "6000",
      METADATA_FETCH_WAIT_MS: "4000",
      METADATA_FETCH_CONCURRENCY: "4",
      METADATA_FETCH_HOST_CONCURRENCY: "2",
    };
    const t = chain.closesWith(await startTestApp({ env: { ...env, METADATA_FETCH_ALLOW_PRIVATE: "true" } }));
    // A second instance on the same database, as a production one: private addresses refused, 2 refreshes a minute.
    // Its node is reached through a proxy the tests can cut.
    const guarded = chain.closesWith(
      await startTestApp({
        database: t.database,
        env: { ...env, RPC_URL_LOCALHOST: proxy.url(chain.url), INDEXER: "false", METADATA_FETCH_REFRESH_RATE_LIMIT: "2" },
      }),
    );
    return { t, guarded, nft, nftAddress, other, otherAddress, multi, multiAddress, holder, host, hangingUrl, proxy };
  });

  /** Mints a fresh ERC-721 token to the holder with `uri` as its tokenURI and waits for the index to have it. */
  async function mint(uri: string, id = nextId++): Promise<bigint> {
    const { nft, holder, t, chain } = suite();
    await (await nft.mint(holder, id, uri)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    return id;
  }

  const request = (path: string, init: RequestInit = {}, app: TestApp = suite().t) => fetchJson(app, path, init);
  const token = (id: bigint, app: TestApp = suite().t) => request(`/token/localhost/${suite().nftAddress}/${id}`, {}, app);
  const refresh = (id: bigint, app: TestApp = suite().t) =>
    request(`/token/localhost/${suite().nftAddress}/${id}/refresh`, { method: "POST" }, app);

  describe("GET /token/:network/:contract/:id", function () {
    it("answers an ERC-721 token with its owner, data: metadata (base64), image and the indexed block", async function () {
      const { nftAddress, holder } = suite();
      const metadata = { name: "Sword", image: SVG, attributes: [{ trait_type: "power", value: 3 }] };
      const id = await mint(dataJson(metadata));
      const { status, headers, body } = await token(id);
      expect(status).to.equal(200);
      expect(Number(headers.get("x-indexed-block"))).to.be.at.least(1);
      expect(body).to.deep.equal({
        contract: nftAddress,
        id: Number(id),
        standard: "erc721",
        owner: holder,
        tokenURI: dataJson(metadata),
        metadata,
        image: SVG,
        metadataError: null,
        metadataUpdatedAt: body.metadataUpdatedAt,
        signed: {},
      });
      expect(body.metadataUpdatedAt).to.be.a("string");
    });

    it("answers a token whose cached metadata is fresh with three statements: its holding, its signed statements, its cache entry", async function () {
      const { t } = suite();
      const metadata = { name: "Counted" };
      const id = await mint(dataJson(metadata));
      // The first answer reads the tokenURI and fills the cache.
      expect((await token(id)).body.metadata).to.deep.equal(metadata);
      const recorder = recordRequestStatements(t);
      try {
        const { answer, sent } = await recorder.during(() => token(id));
        expect(answer.status).to.equal(200);
        expect(answer.body.metadata).to.deep.equal(metadata);
        // The cache entry's content and its expiry (the marks' say included) are one read.
        expect(
          sent.filter((sql) => /\btoken_metadata\b/.test(sql)),
          sent.join("\n---\n"),
        ).to.have.length(1);
        expect(sent, sent.join("\n---\n")).to.have.length(3);
      } finally {
        recorder.stop();
      }
    });

    it("reads percent-encoded data: JSON and keeps big numbers and ids with all their digits", async function () {
      const { host } = suite();
      const text = '{"name":"100% Ünïcode","supply":123456789012345678901234567890,"image":"ipfs://bafyimg/1.png"}';
      const id = await mint(`data:application/json,${encodeURIComponent(text)}`, BIG_ID);
      const { status, text: raw, body } = await token(id);
      expect(status).to.equal(200);
      expect(raw).to.contain(`"id":${BIG_ID},`);
      expect(raw).to.contain(`"metadata":${text}`);
      expect(body.image).to.equal(`${host.url}/ipfs/bafyimg/1.png`);
    });

    it("fetches ipfs:// and ar:// through the configured gateways, and http(s) URLs", async function () {
      const { host } = suite();
      host.routes["/ipfs/bafymeta/1.json"] = { body: '{"name":"from ipfs","image":"ar://arimg"}' };
      host.routes["/ar/armeta"] = { body: '{"name":"from arweave","image_url":"https://cdn.example/a.png"}' };
      host.routes["/plain/1"] = { type: "text/plain; charset=utf-8", body: '{"name":"over http"}' };
      const viaIpfs = await token(await mint("ipfs://bafymeta/1.json"));
      expect(viaIpfs.body).to.deep.include({
        metadata: { name: "from ipfs", image: "ar://arimg" },
        image: `${host.url}/ar/arimg`,
        metadataError: null,
      });
      const viaAr = await token(await mint("ar://armeta"));
      expect(viaAr.body).to.deep.include({
        metadata: { name: "from arweave", image_url: "https://cdn.example/a.png" },
        image: "https://cdn.example/a.png",
      });
      const viaHttp = await token(await mint(`${host.url}/plain/1`));
      expect(viaHttp.body).to.deep.include({ metadata: { name: "over http" }, image: null, metadataError: null });
    });

    it("substitutes {id} in ERC-1155 uris and lists the holders' balances", async function () {
      const { t, chain, multi, multiAddress, holder, host } = suite();
      const hex = 7n.toString(16).padStart(64, "0");
      host.routes[`/erc1155/${hex}.json`] = { body: '{"name":"Potion","image":"https://cdn.example/potion.png"}' };
      const other = await (await chain.provider.getSigner(8)).getAddress();
      await (await multi.mint(holder, 7n, 5n)).wait();
      await (await multi.mint(other, 7n, 12n)).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      const { status, body } = await request(`/token/localhost/${multiAddress}/7`);
      expect(status).to.equal(200);
      expect(body).to.deep.include({
        standard: "erc1155",
        balances: [
          { owner: other, balance: 12 },
          { owner: holder, balance: 5 },
        ],
        tokenURI: `${host.url}/erc1155/${hex}.json`,
        metadata: { name: "Potion", image: "https://cdn.example/potion.png" },
        metadataError: null,
      });
      expect(body).not.to.have.property("owner");
      expect(host.hits.get(`/erc1155/${hex}.json`)).to.equal(1);
    });

    it("says why there is no metadata: empty URI, other schemes, HTML, not JSON, too large, too many redirects, an image", async function () {
      const { host } = suite();
      host.routes["/page"] = { type: "text/html", body: "<html>hello</html>" };
      host.routes["/broken"] = { body: "{not json" };
      host.routes["/array"] = { body: "[1,2]" };
      host.routes["/large"] = { body: `{"x":"${"a".repeat(5000)}"}` };
      host.routes["/loop"] = { body: "", location: "/loop" };
      host.routes["/gone"] = { status: 500, body: "{}" };
      const cases: Array<[string, string | RegExp]> = [
        ["", /^tokenURI\(\d+\) is empty$/],
        ["ftp://example.com/1.json", 'unsupported URI scheme "ftp"'],
        [`${host.url}/page`, `127.0.0.1:${new URL(host.url).port} answered text/html, not JSON`],
        [`${host.url}/broken`, "metadata is not valid JSON"],
        [`${host.url}/array`, "metadata is not a JSON object"],
        [`${host.url}/large`, "metadata is larger than 4096 bytes"],
        [`${host.url}/loop`, "more than 5 redirects"],
        [`${host.url}/gone`, `127.0.0.1:${new URL(host.url).port} answered HTTP 500`],
        ["data:application/json;base64,%%%", "data: URI has invalid Base64"],
        ["data:text/html,<script>alert(1)</script>", "tokenURI is text/html, not JSON"],
        [`https://example.com/${"a".repeat(9000)}`, /^tokenURI\(\d+\) is longer than 8192 characters$/],
      ];
      for (const [uri, error] of cases) {
        const { status, body } = await token(await mint(uri));
        expect(status, uri).to.equal(200);
        expect(body.metadata, uri).to.equal(null);
        if (typeof error === "string") expect(body.metadataError, uri).to.equal(error);
        else expect(body.metadataError, uri).to.match(error);
      }
      const image = await token(await mint(SVG));
      expect(image.body).to.deep.include({
        tokenURI: SVG,
        metadata: null,
        image: SVG,
        metadataError: "tokenURI points at an image, not at JSON metadata",
      });
      host.routes["/pic.png"] = { type: "image/png", body: "\x89PNG" };
      const served = await token(await mint(`${host.url}/pic.png`));
      expect(served.body).to.deep.include({
        metadata: null,
        image: `${host.url}/pic.png`,
        metadataError: "tokenURI points at an image, not at JSON metadata",
      });
    });

    type Signer = ReturnType<typeof Wallet.createRandom>;
    /** Posts `metadata` about token `id` of the NFT contract, signed by `issuer` over the token's text. */
    async function postSigned(id: bigint, issuer: Signer, metadata: string) {
      const { nftAddress } = suite();
      const target = { kind: "nft" as const, network: "localhost", contract: nftAddress.toLowerCase(), tokenId: id };
      const posted = await request(`/metadata/localhost/${nftAddress}/${id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ iss: issuer.address, sig: await issuer.signMessage(boundText(target, metadata)), metadata }),
      });
      expect(posted.status).to.equal(200);
    }

    it("adds the issuer-signed metadata of the metadata service", async function () {
      const id = await mint(dataJson({ name: "Shield" }));
      const issuer = Wallet.createRandom();
      const metadata = encodeMetadata({ rarity: "legendary", score: 98765432109876540000 });
      await postSigned(id, issuer, metadata);
      const { text, body, headers } = await token(id);
      expect(body.signed).to.have.keys([issuer.address]);
      expect(text).to.contain(`"signed":{"${issuer.address}":${Buffer.from(metadata, "base64").toString("utf8")}}`);
      expect(body).not.to.have.any.keys("signedOmitted", "signedError");
      expect(headers.get("x-signed-omitted")).to.equal(null);
    });

    it("carries at most SIGNED_METADATA_ANSWER_MAX_ISSUERS issuers' statements: those named in issuers first, then the most recent, saying what it left out", async function () {
      const { t, nftAddress } = suite();
      const max = t.config.metadata.answerMaxIssuers;
      const id = await mint(dataJson({ name: "Popular" }));
      const issuers = Array.from({ length: max + 4 }, () => Wallet.createRandom());
      // One after the other, so that each is more recent than the one before.
      for (const [i, issuer] of issuers.entries()) await postSigned(id, issuer, encodeMetadata({ i }));
      const message =
        "omitted: 4 more issuers' statements; an answer carries at most SIGNED_METADATA_ANSWER_MAX_ISSUERS (16), those named in " +
        "issuers first, then the most recent; name the issuers you want with ?issuers=0x…,0x… or read one with GET /metadata/…?iss=";
      const expected = (kept: Signer[]) => Object.fromEntries(kept.map((issuer) => [issuer.address, { i: issuers.indexOf(issuer) }]));

      for (const read of [token(id), refresh(id)]) {
        const { status, headers, body } = await read;
        expect(status).to.equal(200);
        expect(body.signed).to.deep.equal(expected(issuers.slice(4)));
        expect(body).to.deep.include({ signedOmitted: 4, signedError: message });
        expect(headers.get("x-signed-omitted")).to.equal("4");
      }

      const named = [issuers[0], issuers[2]];
      const chosen = await request(`/token/localhost/${nftAddress}/${id}?issuers=${named.map((w) => w.address.toLowerCase()).join(",")}`);
      expect(chosen.status).to.equal(200);
      expect(chosen.body.signed).to.deep.equal(expected([...named, ...issuers.slice(6)]));
      expect(chosen.body).to.deep.include({ signedOmitted: 4, signedError: message });

      const tooMany = issuers
        .slice(0, max + 1)
        .map((w) => w.address)
        .join(",");
      await expectRefusal(await t.fetch(`/token/localhost/${nftAddress}/${id}?issuers=${tooMany}`), 400, "invalid_request", {
        message: "issuers names at most 16 issuers (SIGNED_METADATA_ANSWER_MAX_ISSUERS)",
      });
      await expectRefusal(
        await t.fetch(`/token/localhost/${nftAddress}/${id}?issuers=${issuers[0].address},0x12`),
        400,
        "invalid_address",
        {
          message: "issuers must be 0x followed by 40 hex digits",
        },
      );
    });

    it("serves the cache without fetching again until refreshed; refresh reads the new document", async function () {
      const { guarded, nft, nftAddress, host } = suite();
      host.routes["/cached"] = { body: '{"version":1}' };
      const id = await mint(`${host.url}/cached`);
      expect((await token(id)).body.metadata).to.deep.equal({ version: 1 });
      host.routes["/cached"] = { body: '{"version":2}' };
      expect((await token(id)).body.metadata).to.deep.equal({ version: 1 });
      expect((await guarded.app.inject({ url: `/token/localhost/${nftAddress}/${id}` })).json().metadata).to.deep.equal({ version: 1 });
      expect(host.hits.get("/cached")).to.equal(1);
      const refreshed = await refresh(id);
      expect(refreshed.status).to.equal(200);
      expect(refreshed.body.metadata).to.deep.equal({ version: 2 });
      expect(host.hits.get("/cached")).to.equal(2);
      // Its host fails: the last good document stays, and the read is tried again later.
      host.routes["/cached"] = { status: 503, body: "{}" };
      expect((await refresh(id)).body).to.deep.include({ metadata: { version: 2 }, metadataError: null });
      expect(host.hits.get("/cached")).to.equal(3);
      // The contract changes the tokenURI: a refresh reads it from the chain again.
      await (await nft.setTokenURI(id, dataJson({ version: 3 }))).wait();
      expect((await refresh(id)).body).to.deep.include({ tokenURI: dataJson({ version: 3 }), metadata: { version: 3 } });
      expect((await token(id)).body.metadata).to.deep.equal({ version: 3 });
    });

    it("says when the document served was read (metadataUpdatedAt, the app's clock): a read that stores moves it, a failed read that keeps the document does not", async function () {
      const { t, nftAddress, holder, host } = suite();
      host.routes["/dated"] = { body: '{"version":1}' };
      const before = t.clock.now();
      const id = await mint(`${host.url}/dated`);
      const first = (await token(id)).body;
      expect(first.metadata).to.deep.equal({ version: 1 });
      const read = Date.parse(first.metadataUpdatedAt);
      expect(new Date(read).toISOString()).to.equal(first.metadataUpdatedAt);
      expect(read).to.be.within(before, t.clock.now());
      // From the cache: the same time.
      expect((await token(id)).body.metadataUpdatedAt).to.equal(first.metadataUpdatedAt);
      t.clock.advance(5_000);
      host.routes["/dated"] = { body: '{"version":2}' };
      const second = (await refresh(id)).body;
      expect(second.metadata).to.deep.equal({ version: 2 });
      expect(Date.parse(second.metadataUpdatedAt)).to.be.at.least(read + 5_000);
      // Its host fails: the document read before stays, and so does the time it was read.
      t.clock.advance(5_000);
      host.routes["/dated"] = { status: 503, body: "{}" };
      expect((await refresh(id)).body).to.deep.include({ metadata: { version: 2 }, metadataUpdatedAt: second.metadataUpdatedAt });
      // The same time on the contract's inventory with metadata.
      const page = await request(`/inventory/localhost/${holder}/${nftAddress}?metadata=true&limit=1000`);
      expect(page.body.find((item: { id: number }) => item.id === Number(id)).metadataUpdatedAt).to.equal(second.metadataUpdatedAt);
    });

    it("answers an expired entry as it is while its new read is under way", async function () {
      const { t, nftAddress, host } = suite();
      host.routes["/stale"] = { body: '{"version":"old"}' };
      const id = await mint(`${host.url}/stale`);
      expect((await token(id)).body.metadata).to.deep.equal({ version: "old" });
      await t.app.db.query("UPDATE token_metadata SET expires_at = now() - interval '1 second' WHERE contract = $1 AND token_id = $2", [
        nftAddress.toLowerCase(),
        id.toString(),
      ]);
      host.routes["/stale"] = { body: "", hang: true };
      const { body } = await token(id);
      expect(body).to.deep.include({ metadata: { version: "old" }, metadataError: null });
      expect(host.hits.get("/stale")).to.equal(2);
    });

    it('answers "pending" when a host hangs, while tokens of other hosts and contracts are answered at once; then says it timed out', async function () {
      const { t, chain, nftAddress, other, otherAddress, holder, host, hangingUrl } = suite();
      const slow: bigint[] = [];
      for (let i = 0; i < 5; i++) slow.push(await mint(`${hangingUrl}/meta/${i}`));
      host.routes["/fast"] = { body: '{"name":"fast"}' };
      await (await other.mint(holder, 1n, `${host.url}/fast`)).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      const slowReads = slow.map((id) => token(id));
      // Asked while every slot the slow host (and its contract) may take is held by it, and its other tokens wait behind them.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const fastRead = await request(`/token/localhost/${otherAddress}/1`);
      expect(fastRead.body).to.deep.include({ metadata: { name: "fast" }, metadataError: null });
      for (const read of await Promise.all(slowReads)) {
        expect(read.status).to.equal(200);
        expect(read.body).to.deep.include({ tokenURI: read.body.tokenURI, metadata: null, metadataError: "pending" });
      }
      // The read went on in the background: once the fetch timed out, the answer says so.
      let last: string | null = "pending";
      for (let tries = 0; tries < 60 && last === "pending"; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const { rows } = await t.app.db.query<{ error: string }>("SELECT error FROM token_metadata WHERE contract = $1 AND token_id = $2", [
          nftAddress.toLowerCase(),
          slow[0].toString(),
        ]);
        last = rows[0]?.error ?? "pending";
      }
      expect(last).to.equal(`127.0.0.2:${new URL(hangingUrl).port} did not answer within 6000 ms`);
      expect((await token(slow[0])).body.metadataError).to.equal(last);
    });
  });

  describe("SSRF guard (METADATA_FETCH_ALLOW_PRIVATE off)", function () {
    it("refuses a tokenURI on a loopback address with a clear metadataError, without connecting", async function () {
      const { guarded, host } = suite();
      host.routes["/private"] = { body: '{"secret":true}' };
      const id = await mint(`${host.url}/private`);
      const { status, body } = await token(id, guarded);
      expect(status).to.equal(200);
      expect(body).to.deep.include({
        metadata: null,
        metadataError: `refused to fetch 127.0.0.1:${new URL(host.url).port}: 127.0.0.1 is a loopback, private, link-local or reserved address`,
      });
      expect(host.hits.get("/private")).to.equal(undefined);
    });

    it("refuses names that resolve to loopback, and redirects from the gateway to private addresses", async function () {
      const { guarded, host } = suite();
      const byName = await token(await mint(`http://localhost:${new URL(host.url).port}/private`), guarded);
      expect(byName.body.metadataError).to.match(/^refused to fetch localhost: .* is a loopback, private, link-local or reserved address$/);
      host.routes["/ipfs/bafyredirect"] = { body: "", location: `${host.url}/private` };
      const redirected = await token(await mint("ipfs://bafyredirect"), guarded);
      expect(redirected.body.metadataError).to.match(/^refused to fetch 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback/);
      expect(host.hits.get("/ipfs/bafyredirect")).to.equal(1);
      expect(host.hits.get("/private")).to.equal(undefined);
    });
  });

  describe("the node failing during a read", function () {
    it("answers the cached entry, or says the node failed, and stores nothing", async function () {
      const { t, guarded, nftAddress, proxy } = suite();
      const known = await mint(dataJson({ name: "known" }));
      const fresh = await mint(dataJson({ name: "never read" }));
      expect((await token(known, guarded)).body.metadata).to.deep.equal({ name: "known" });
      await t.app.db.query("UPDATE token_metadata SET expires_at = now() - interval '1 second' WHERE contract = $1 AND token_id = $2", [
        nftAddress.toLowerCase(),
        known.toString(),
      ]);
      proxy.cut();
      try {
        expect((await token(known, guarded)).body).to.deep.include({ metadata: { name: "known" }, metadataError: null });
        const failed = await token(fresh, guarded);
        expect(failed.status).to.equal(200);
        expect(failed.body).to.deep.include({
          metadata: null,
          metadataError: "The localhost node failed to answer",
          metadataUpdatedAt: null,
        });
      } finally {
        proxy.restore();
      }
      const { rows } = await t.app.db.query("SELECT 1 FROM token_metadata WHERE contract = $1 AND token_id = $2", [
        nftAddress.toLowerCase(),
        fresh.toString(),
      ]);
      expect(rows).to.have.length(0);
      expect((await token(fresh, guarded)).body.metadata).to.deep.equal({ name: "never read" });
    });
  });

  describe("POST /token/:network/:contract/:id/refresh", function () {
    it("is rate-limited per client (429 after METADATA_FETCH_REFRESH_RATE_LIMIT a minute)", async function () {
      const { guarded } = suite();
      const id = await mint(dataJson({ name: "limited" }));
      // The counts are shared by every app on this database, and this file's other apps refreshed from the same address
      // this minute: the next minute, on this app's clock, is its own.
      startOfMinute(guarded.clock);
      expect((await refresh(id, guarded)).status).to.equal(200);
      expect((await refresh(id, guarded)).status).to.equal(200);
      const third = await refresh(id, guarded);
      await expectRefusal(third, 429, "too_many_requests", { headers: { "retry-after": /^[1-9]\d*$/ } });
      // Reads are not limited.
      expect((await token(id, guarded)).status).to.equal(200);
    });
  });

  describe("GET /inventory/:network/:owner/:assetContract?metadata=true", function () {
    it("adds tokenURI, metadata, image, metadataError and metadataUpdatedAt to each item, and keeps them on the next page's link", async function () {
      const { nftAddress, multiAddress, holder, host } = suite();
      const page = await request(`/inventory/localhost/${holder}/${nftAddress}?limit=2&metadata=true`);
      expect(page.status).to.equal(200);
      expect(page.body).to.have.length(2);
      for (const item of page.body)
        expect(item).to.have.keys(["contract", "id", "owner", "tokenURI", "metadata", "image", "metadataError", "metadataUpdatedAt"]);
      expect(page.body[0]).to.deep.include({
        contract: nftAddress,
        owner: holder,
        metadata: { name: "Sword", image: SVG, attributes: [{ trait_type: "power", value: 3 }] },
      });
      expect(page.headers.get("link")).to.match(/metadata=true/);
      const plain = await request(`/inventory/localhost/${holder}/${nftAddress}?limit=2`);
      expect(plain.body[0]).to.deep.equal({ contract: nftAddress, id: page.body[0].id, owner: holder });
      const balances = await request(`/inventory/localhost/${holder}/${multiAddress}?metadata=true`);
      expect(balances.body).to.deep.equal([
        {
          contract: multiAddress,
          id: 7,
          owner: holder,
          balance: 5,
          tokenURI: `${host.url}/erc1155/${7n.toString(16).padStart(64, "0")}.json`,
          metadata: { name: "Potion", image: "https://cdn.example/potion.png" },
          image: "https://cdn.example/potion.png",
          metadataError: null,
          metadataUpdatedAt: balances.body[0].metadataUpdatedAt,
        },
      ]);
      expect(balances.body[0].metadataUpdatedAt).to.be.a("string");
      await expectRefusal(await request(`/inventory/localhost/${holder}/${nftAddress}?metadata=yes`), 400, "invalid_request");
    });
  });

  describe("malformed input", function () {
    const good = () => ({ network: "localhost", contract: suite().nftAddress, id: "1000" });
    type Params = ReturnType<typeof good>;
    // Functions of the contract's address, which is known only once the suite runs.
    const variants: Array<[string, (a: string) => Partial<Params>, number, string]> = [
      ["an unknown network", () => ({ network: "nowhere" }), 400, "unknown_network"],
      ["a network with a NUL byte", () => ({ network: "local%00host" }), 400, "invalid_request"],
      ["bidi text as network", () => ({ network: "%E2%80%AElocalhost" }), 400, "unknown_network"],
      ["a short address", () => ({ contract: "0x1234" }), 400, "invalid_address"],
      ["an address with a NUL byte", (a) => ({ contract: `${a.slice(0, 41)}%00` }), 400, "invalid_request"],
      ["an address failing EIP-55", (a) => ({ contract: failingChecksum(a) }), 400, "invalid_address"],
      ["a hex id", () => ({ id: "0x10" }), 400, "invalid_token_id"],
      ["a negative id", () => ({ id: "-1" }), 400, "invalid_token_id"],
      ["an id with an exponent", () => ({ id: "1e3" }), 400, "invalid_token_id"],
      ["an id with leading zeros", () => ({ id: "007" }), 400, "invalid_token_id"],
      ["an id above 2^256 - 1", () => ({ id: (2n ** 256n).toString() }), 400, "invalid_token_id"],
      ["an id with a NUL byte", () => ({ id: "1%00" }), 400, "invalid_request"],
      ["a token the index does not have", () => ({ id: "999999" }), 404, "not_found"],
      ["a contract that is not indexed", () => ({ contract: "0x0000000000000000000000000000000000000001" }), 404, "not_found"],
      ["a known network without RPC URL", () => ({ network: "sepolia" }), 503, "network_unavailable"],
    ];
    for (const method of ["GET", "POST"] as const) {
      for (const [what, change, status, error] of variants) {
        it(`${method} answers ${status} ${error} for ${what}`, async function () {
          const { t, nftAddress } = suite();
          const p = { ...good(), ...change(nftAddress) };
          const url = `/token/${p.network}/${p.contract}/${p.id}${method === "POST" ? "/refresh" : ""}`;
          const response = await t.app.inject({ method, url });
          expect(response.statusCode, response.body).to.equal(status);
          expect(response.json()).to.have.keys(["error", "message"]);
          expect(response.json().error).to.equal(error);
        });
      }
    }

    it("refuses a refresh with a body that is not JSON (415) and a flood of path segments (404)", async function () {
      const { t, nftAddress } = suite();
      const text = await t.app.inject({
        method: "POST",
        url: `/token/localhost/${nftAddress}/1000/refresh`,
        headers: { "content-type": "text/plain" },
        payload: "x",
      });
      await expectRefusal(text, 415, "unsupported_media_type");
      const long = await t.app.inject({ url: `/token/localhost/${nftAddress}/1000/${"x/".repeat(2000)}` });
      await expectRefusal(long, 404, "not_found");
    });

    it("answers the OpenAPI document with both routes and examples", async function () {
      const { t } = suite();
      const document = (await t.app.inject({ url: "/openapi.json" })).json();
      const get = document.paths["/token/{network}/{contract}/{id}"].get;
      expect(get.responses["200"].content["application/json"].examples.example1.value).to.have.property("metadata");
      expect(get.responses["404"].content["application/json"].schema.properties.error.enum).to.deep.equal(["not_found"]);
      expect(get.responses["400"].content["application/json"].schema.properties.error.enum).to.include("invalid_token_id");
      expect(document.paths["/token/{network}/{contract}/{id}/refresh"]).to.have.property("post");
    });
  });

  // Last: it moves the app's clock past METADATA_FETCH_TTL_MS, after which every entry cached before has expired.
  describe("the cache's time-to-live", function () {
    it("reads the document again once its entry is past METADATA_FETCH_TTL_MS on the app's clock, then serves the new one from the cache", async function () {
      const { t, chain, other, otherAddress, holder, host } = suite();
      // A token of the other contract: the reads the tests before left hanging hold this contract's fetch slots.
      const id = nextId++;
      const token = () => request(`/token/localhost/${otherAddress}/${id}`);
      host.routes["/ttl"] = { body: '{"version":1}' };
      await (await other.mint(holder, id, `${host.url}/ttl`)).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      expect((await token()).body.metadata).to.deep.equal({ version: 1 });
      host.routes["/ttl"] = { body: '{"version":2}' };
      t.clock.advance(t.config.tokenMetadata.ttlMs - 60_000);
      expect((await token()).body).to.deep.include({ metadata: { version: 1 }, metadataError: null });
      expect(host.hits.get("/ttl")).to.equal(1);
      t.clock.advance(60_000);
      const { status, body } = await token();
      expect(status).to.equal(200);
      expect(body).to.deep.include({ tokenURI: `${host.url}/ttl`, metadata: { version: 2 }, metadataError: null });
      expect(host.hits.get("/ttl")).to.equal(2);
      // The new entry expires METADATA_FETCH_TTL_MS from then on the same clock: fresh, so not read again.
      host.routes["/ttl"] = { body: '{"version":3}' };
      expect((await token()).body.metadata).to.deep.equal({ version: 2 });
      expect(host.hits.get("/ttl")).to.equal(2);
    });
  });
});
