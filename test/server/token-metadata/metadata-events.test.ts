import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { UpdatableMetadataNFT__factory, UriEventERC1155__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { openSse } from "../../helpers/sse";
import { SuiteChain } from "../../helpers/suite-chain";
import { untilSettled } from "../../helpers/waiters";

const MAX_UINT256 = 2n ** 256n - 1n;
const SWEEP_BATCH = 3;

/**
 * A metadata host whose documents change: each path answers `{"name": "<path> v<version>"}` after `delayMs`. It counts
 * requests per path and the most it served at once, and calls its waiters after each answer.
 */
async function startChangingHost() {
  const hits = new Map<string, number>();
  const waiters = new Set<() => void>();
  const state = { version: 1, delayMs: 0, inFlight: 0, maxInFlight: 0 };
  const server = http.createServer((request, response) => {
    const path = request.url!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    const body = JSON.stringify({ name: `${path} v${state.version}` });
    setTimeout(() => {
      response.writeHead(200, { "content-type": "application/json" }).end(body, () => {
        state.inFlight--;
        waiters.forEach((w) => w());
      });
    }, state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    state,
    /** Resolves once `check` holds after an answer (or now), within `timeoutMs`. */
    until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
      return new Promise((resolve, reject) =>
        untilSettled(
          waiters,
          () => check() && (resolve(), true),
          timeoutMs,
          () => reject(new Error(`the metadata host did not see it within ${timeoutMs} ms: ${JSON.stringify([...hits])}`)),
        ),
      );
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe("metadata-change events (ERC-4906, ERC-1155 URI)", function () {
  this.timeout(120_000);
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const deployer = await chain.signer(0);
    const holder = (await chain.signer(3)).address;
    const host = await startChangingHost();
    chain.closesWith({ close: async () => host.close() });
    const nft = await new UpdatableMetadataNFT__factory(deployer).deploy(`${host.url}/nft/`);
    const nftAddress = await nft.getAddress();
    const multi = await new UriEventERC1155__factory(deployer).deploy(`${host.url}/multi/{id}.json`);
    const multiAddress = await multi.getAddress();
    const t = chain.closesWith(
      await startTestApp({
        listen: true,
        env: {
          RPC_URL_LOCALHOST: chain.url,
          INDEXER_POLL_MS: "50",
          INDEXER_CONTRACTS_LOCALHOST: `${nftAddress},${multiAddress}`,
          METADATA_FETCH_ALLOW_PRIVATE: "true",
          METADATA_FETCH_WAIT_MS: "5000",
          METADATA_FETCH_CONCURRENCY: "16",
          METADATA_FETCH_HOST_CONCURRENCY: "16",
          METADATA_SWEEP_BATCH: String(SWEEP_BATCH),
          METADATA_SWEEP_INTERVAL_MS: "20",
        },
      }),
    );
    return { holder, host, t, nft, nftAddress, multi, multiAddress };
  });

  const token = async (contract: string, id: bigint) => {
    const response = await suite().t.fetch(`/token/localhost/${contract}/${id}`);
    expect(response.status).to.equal(200);
    return (await response.json()) as { tokenURI: string; metadata: { name: string } | null; metadataError: string | null };
  };
  const hits = (path: string) => suite().host.hits.get(path) ?? 0;

  it("reads a token's document again after MetadataUpdate, in the background, and announces it on the stream", async function () {
    const { chain, holder, host, t, nft, nftAddress } = suite();
    await (await nft.mintRange(holder, 1n, 1n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect((await token(nftAddress, 1n)).metadata).to.deep.equal({ name: "/nft/1 v1" });
    expect(hits("/nft/1")).to.equal(1);

    const stream = await openSse(`${t.url}/events/localhost?contract=${nftAddress}`);
    host.state.version = 2;
    const receipt = (await (await nft.announce(1n)).wait())!;
    // No request for the token: the sweep reads the stale document by itself.
    await host.until(() => hits("/nft/1") === 2);
    const event = await stream.next((e) => e.event === "metadata");
    stream.close();
    expect(JSON.parse(event.data)).to.deep.include({
      block: receipt.blockNumber,
      tx: receipt.hash,
      contract: nftAddress,
      fromId: 1,
      toId: 1,
    });
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect(await token(nftAddress, 1n)).to.deep.include({ tokenURI: `${host.url}/nft/1`, metadata: { name: "/nft/1 v2" } });
    // Served from the cache the sweep filled: no fetch more.
    expect(hits("/nft/1")).to.equal(2);
  });

  it("serves the new document on the first request after the event (the mark makes the cached one stale)", async function () {
    const { chain, holder, host, t, nft, nftAddress } = suite();
    await (await nft.mintRange(holder, 2n, 1n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect((await token(nftAddress, 2n)).metadata).to.deep.equal({ name: "/nft/2 v2" });
    host.state.version = 3;
    await (await nft.announce(2n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    // Whether the sweep or this request reads it first, the answer is the new document, with no refresh call.
    expect((await token(nftAddress, 2n)).metadata).to.deep.equal({ name: "/nft/2 v3" });
  });

  it("follows ERC-1155 URI: the new tokenURI and its document", async function () {
    const { chain, holder, host, t, multi, multiAddress } = suite();
    await (await multi.mint(holder, 5n, 2n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const hex = 5n.toString(16).padStart(64, "0");
    expect(await token(multiAddress, 5n)).to.deep.include({ tokenURI: `${host.url}/multi/${hex}.json` });
    const stream = await openSse(`${t.url}/events/localhost?contract=${multiAddress}`);
    await (await multi.setURIFor(`${host.url}/moved/{id}.json`, 5n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect(await token(multiAddress, 5n)).to.deep.include({
      tokenURI: `${host.url}/moved/${hex}.json`,
      metadata: { name: `/moved/${hex}.json v${host.state.version}` },
    });
    const event = await stream.next((e) => e.event === "metadata");
    stream.close();
    expect(JSON.parse(event.data)).to.deep.include({ contract: multiAddress, fromId: 5, toId: 5 });
  });

  it("bounds a whole-collection BatchMetadataUpdate: one mark, the cached documents read again a batch at a time, uncached ids when asked", async function () {
    const { chain, holder, host, t, nft, nftAddress } = suite();
    const FIRST = 100n;
    const CACHED = 12;
    await (await nft.mintRange(holder, FIRST, BigInt(CACHED + 1))).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    for (let i = 0n; i < BigInt(CACHED); i++) await token(nftAddress, FIRST + i);
    const uncached = `/nft/${FIRST + BigInt(CACHED)}`;
    expect(hits(uncached)).to.equal(0);

    const stream = await openSse(`${t.url}/events/localhost?contract=${nftAddress}`);
    host.state.version = 4;
    host.state.delayMs = 50;
    host.state.maxInFlight = 0;
    const [one, two] = [hits("/nft/1"), hits("/nft/2")];
    const { rows: before } = await t.app.db.query<{ count: string }>("SELECT count(*)::text AS count FROM nft_metadata_updates");
    await (await nft.announceRange(0n, MAX_UINT256)).wait();
    const cachedPaths = Array.from({ length: CACHED }, (_, i) => `/nft/${FIRST + BigInt(i)}`);
    await host.until(() => cachedPaths.every((path) => hits(path) === 2));
    // The sweep reads at most its batch at once (the fetch limits allowed 16).
    expect(host.state.maxInFlight).to.be.within(1, SWEEP_BATCH);
    expect(hits(uncached)).to.equal(0);
    // The ids 1 and 2 cached by the tests before are in the range too.
    await host.until(() => hits("/nft/1") === one + 1 && hits("/nft/2") === two + 1);
    expect(hits(uncached)).to.equal(0);
    const { rows: after } = await t.app.db.query<{ count: string }>("SELECT count(*)::text AS count FROM nft_metadata_updates");
    expect(Number(after[0].count) - Number(before[0].count)).to.equal(1);

    const event = await stream.next((e) => e.event === "metadata");
    stream.close();
    expect(event.data).to.include(`"fromId":0,"toId":${MAX_UINT256}`);

    // Asked for, the uncached id is read then, once.
    expect((await token(nftAddress, FIRST + BigInt(CACHED))).metadata).to.deep.equal({ name: `${uncached} v4` });
    expect(hits(uncached)).to.equal(1);
    expect((await token(nftAddress, FIRST)).metadata).to.deep.equal({ name: `/nft/${FIRST} v4` });
    host.state.delayMs = 0;

    const metrics = await t.app.metrics!.registry.metrics();
    expect(metrics).to.match(/^indexer_metadata_marks_total\{network="localhost"\} 4$/m);
    const swept = /^token_metadata_sweep_reads_total\{outcome="stored"\} (\d+)$/m.exec(metrics);
    expect(Number(swept?.[1])).to.be.at.least(CACHED + 2);
  });

  it("rolls a mark back with a reorg", async function () {
    const { chain, t, nft } = suite();
    const snapshot = await chain.provider.send("evm_snapshot", []);
    await (await nft.announceRange(7n, 9n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const marks = () =>
      t.app.db
        .query<{ count: string }>("SELECT count(*)::text AS count FROM nft_metadata_updates WHERE from_token_id = 7")
        .then(({ rows }) => Number(rows[0].count));
    expect(await marks()).to.equal(1);
    await chain.provider.send("evm_revert", [snapshot]);
    await chain.provider.send("hardhat_mine", ["0x3"]);
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect(await marks()).to.equal(0);
  });

  it("skips malformed metadata events and a reversed range", async function () {
    const { chain, t, nft } = suite();
    await (await nft.announceRange(9n, 8n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const { rows } = await t.app.db.query("SELECT 1 FROM nft_metadata_updates WHERE from_token_id = 9");
    expect(rows).to.deep.equal([]);
  });

  // Last: it moves the app's clock past METADATA_FETCH_ERROR_TTL_MS.
  it("leaves a stale token it could not read alone for METADATA_FETCH_ERROR_TTL_MS on the app's clock, then tries it again", async function () {
    const { chain, host, t, nft, nftAddress } = suite();
    const kept = async () => {
      const metrics = await t.app.metrics!.registry.metrics();
      return Number(/^token_metadata_sweep_reads_total\{outcome="kept"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
    };
    const untilKept = async (count: number) => {
      for (let i = 0; i < 200 && (await kept()) < count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await kept()).to.equal(count);
    };
    const start = await kept();
    // A cached document of a token the index does not hold (burned since), made stale by a mark: the sweep cannot read it again.
    const BURNED = 7_777n;
    await t.app.db.query(
      `INSERT INTO token_metadata (network, contract, token_id, token_uri, metadata, image, error, fetched_at, expires_at)
       VALUES ('localhost', $1, $2, $3, '{"name":"burned"}', NULL, NULL, now() - interval '1 second', now() + interval '1 day')`,
      [nftAddress.toLowerCase(), BURNED.toString(), `${host.url}/nft/${BURNED}`],
    );
    await (await nft.announce(BURNED)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    await untilKept(start + 1);
    // A later pass reads another stale document again and leaves this token alone.
    const read = hits("/nft/1");
    await (await nft.announce(1n)).wait();
    await host.until(() => hits("/nft/1") === read + 1);
    expect(await kept()).to.equal(start + 1);
    t.clock.advance(t.config.tokenMetadata.errorTtlMs);
    await untilKept(start + 2);
    expect(hits(`/nft/${BURNED}`)).to.equal(0);
  });
});
