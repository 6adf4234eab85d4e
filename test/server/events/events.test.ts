import { expect } from "chai";
import { ZERO_ADDRESS } from "../../../server/indexer/transfers";
import { startTestApp } from "../../helpers/app";
import { createTestDatabase } from "../../helpers/database";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { openSse, type SseClient, type SseEvent } from "../../helpers/sse";
import { expectRefusal } from "../../helpers/refusal";
import { failingChecksum } from "../../helpers/checksums";

describe("live events (GET /events/:network)", function () {
  const open: SseClient[] = [];
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const [a, b] = await Promise.all([1, 2].map((i) => chain.signer(i)));
    const alice = await chain.deployAlice();
    const database = await createTestDatabase();
    // Registered first, dropped last: after the apps on it are closed.
    chain.closesWith({ close: () => database.drop() });
    // Indexes the chain (default 1 s polling, as in production).
    const writer = chain.closesWith(await startTestApp({ database, env: { RPC_URL_LOCALHOST: chain.url } }));
    // Another instance on the same database that does not index: subscribers connect here. It listens: an event
    // stream is read as a client reads it, chunk by chunk off a socket, until it ends.
    const reader = chain.closesWith(
      await startTestApp({ listen: true, database, env: { RPC_URL_LOCALHOST: chain.url, INDEXER: "false" } }),
    );
    await indexedTo(writer.app.db, "localhost", chain.provider);
    return { a, b, alice, aliceAddress: await alice.getAddress(), database, writer, reader };
  });
  afterEach(function () {
    for (const client of open.splice(0)) client.close();
  });

  async function subscribe(query: string, headers: Record<string, string> = {}, app = suite().reader) {
    const client = await openSse(`${app.url}/events/localhost${query}`, headers);
    open.push(client);
    expect(client.status).to.equal(200);
    expect(client.headers.get("content-type")).to.match(/^text\/event-stream/);
    expect(client.headers.get("x-request-id")).to.be.a("string");
    expect(client.headers.get("access-control-allow-origin")).to.equal("*");
    return client;
  }
  const data = (event: SseEvent) => JSON.parse(event.data);
  const isTransfer = (tx: string) => (event: SseEvent) => event.event === "transfer" && data(event).tx === tx;

  it("delivers a transfer to a subscriber of another instance once its block is indexed", async function () {
    const { chain, a, alice, aliceAddress } = suite();
    const client = await subscribe(`?owner=${a.address}`);
    const receipt = (await (await alice.mint(a.address, 1n)).wait())!;
    // How soon is the bench's to measure; the wait only bounds a test that would otherwise hang.
    const event = await client.next(isTransfer(receipt.hash), 30_000);
    expect(event.id).to.match(/^\d+$/);
    const block = await chain.provider.getBlock(receipt.blockNumber);
    expect(data(event)).to.deep.equal({
      block: receipt.blockNumber,
      time: block!.timestamp,
      tx: receipt.hash,
      logIndex: 0,
      from: ZERO_ADDRESS,
      to: a.address,
      contract: aliceAddress,
      id: 1,
    });
  });

  it("sends only what matches owner and contract", async function () {
    const { a, b, alice, aliceAddress } = suite();
    const client = await subscribe(`?owner=${b.address.toLowerCase()}&contract=${aliceAddress}`);
    const other = await (await alice.mint(a.address, 2n)).wait();
    const mine = await (await alice.mint(b.address, 3n)).wait();
    await client.next(isTransfer(mine!.hash));
    expect(client.events.filter((e) => e.event !== "transfer" || data(e).tx === other!.hash)).to.deep.equal([]);
  });

  it("announces what a reorg undid as removed events", async function () {
    const { chain, a, b, alice, aliceAddress } = suite();
    const client = await subscribe(`?contract=${aliceAddress}`);
    const snapshot = await chain.provider.send("evm_snapshot", []);
    const undone = await (await alice.connect(a).transferFrom(a.address, b.address, 1n)).wait();
    const seen = await client.next(isTransfer(undone!.hash));
    await chain.provider.send("evm_revert", [snapshot]);
    const replacement = await (await alice.mint(b.address, 10n)).wait();
    await (await alice.mint(b.address, 11n)).wait();
    const removed = await client.next((e) => e.event === "removed" && data(e).tx === undone!.hash);
    expect(data(removed)).to.deep.equal(data(seen));
    expect(BigInt(removed.id!)).to.be.above(BigInt(seen.id!));
    await client.next(isTransfer(replacement!.hash));
  });

  it("resumes after Last-Event-ID without missing or repeating anything", async function () {
    const { chain, a, b, alice, writer } = suite();
    const first = await subscribe(`?owner=${a.address}`);
    const before = await (await alice.mint(a.address, 20n)).wait();
    const last = await first.next(isTransfer(before!.hash));
    first.close();
    // Missed while away: three transfers, one of them not for this subscriber.
    const missed = [];
    missed.push((await (await alice.mint(a.address, 21n)).wait())!.hash);
    await (await alice.mint(b.address, 22n)).wait();
    missed.push((await (await alice.connect(a).transferFrom(a.address, b.address, 21n)).wait())!.hash);
    await indexedTo(writer.app.db, "localhost", chain.provider);
    const again = await subscribe(`?owner=${a.address}`, { "last-event-id": last.id! });
    await again.next(isTransfer(missed[1]));
    const after = await (await alice.mint(a.address, 23n)).wait();
    await again.next(isTransfer(after!.hash));
    expect(again.events.map((e) => data(e).tx)).to.deep.equal([...missed, after!.hash]);
    const ids = again.events.map((e) => BigInt(e.id!));
    expect(ids.every((id, i) => id > (i === 0 ? BigInt(last.id!) : ids[i - 1]))).to.equal(true);
    // The same through the query parameter (for EventSource, which cannot set headers on its first request).
    const byQuery = await subscribe(`?owner=${a.address}&lastEventId=${last.id}`);
    await byQuery.next(isTransfer(after!.hash));
    expect(byQuery.events.map((e) => data(e).tx)).to.deep.equal([...missed, after!.hash]);
  });

  it("keeps idle streams open with heartbeat comments, bounds subscribers and ends streams at shutdown", async function () {
    const { chain, database } = suite();
    const small = await startTestApp({
      listen: true,
      database,
      env: { RPC_URL_LOCALHOST: chain.url, INDEXER: "false", EVENTS_HEARTBEAT_MS: "100", EVENTS_MAX_SUBSCRIBERS: "1" },
    });
    let closed = false;
    try {
      const client = await subscribe("", {}, small);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(client.comments.filter((c) => c === "heartbeat").length).to.be.at.least(2);
      const refused = await small.fetch(`/events/localhost`);
      await expectRefusal(refused, 503, "too_many_subscribers", { headers: { "retry-after": "5" } });
      // The close completes by itself: an open stream that held it up would keep this test waiting until its timeout.
      const url = small.url;
      await small.close();
      closed = true;
      // The stream's client saw its end, and nothing of the app is left to connect to.
      await client.ended;
      expect(small.app.server.listening).to.equal(false);
      const after = await fetch(`${url}/health`).then(
        (response) => `answered ${response.status}`,
        (error: Error) => (error.cause as { code?: string } | undefined)?.code,
      );
      expect(after).to.equal("ECONNREFUSED");
    } finally {
      if (!closed) await small.close();
    }
  });

  it("refuses bad networks, addresses and event ids with a 4xx {error, message}", async function () {
    const { a, aliceAddress, reader } = suite();
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ["/events/nowhere", {}, 400, "unknown_network"],
      ["/events/mainnet", {}, 503, "network_unavailable"],
      ["/events/localhost%00", {}, 400, "invalid_request"],
      ["/events/localhost?owner=0x12", {}, 400, "invalid_address"],
      [`/events/localhost?owner=${a.address}%00`, {}, 400, "invalid_request"],
      [`/events/localhost?contract=${failingChecksum(aliceAddress)}`, {}, 400, "invalid_address"],
      [`/events/localhost?owner=%E2%80%AE${a.address.slice(2)}`, {}, 400, "invalid_address"],
      ["/events/localhost?lastEventId=-1", {}, 400, "invalid_request"],
      ["/events/localhost?lastEventId=99999999999999999999", {}, 400, "invalid_request"],
      ["/events/localhost", { "last-event-id": "abc" }, 400, "invalid_request"],
      ["/events/localhost", { "last-event-id": "9223372036854775808" }, 400, "invalid_request"],
      ["/events/localhost", { "last-event-id": "1".repeat(200) }, 400, "invalid_request"],
    ];
    for (const [path, headers, status, error] of cases) {
      const response = await reader.fetch(path, { headers });
      const body = (await response.json()) as { error: string; message: string };
      expect([path, response.status, body.error]).to.deep.equal([path, status, error]);
      expect(body.message).to.be.a("string").and.not.equal("");
    }
  });
});
