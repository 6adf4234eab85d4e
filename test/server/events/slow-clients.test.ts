import { expect } from "chai";
import type { Socket } from "node:net";
import type { JsonRpcProvider } from "ethers";
import type { LocalNode } from "../../../local/node";
import { TransferFlood__factory } from "../../../typechain-types";
import { startTestApp, type TestApp } from "../../helpers/app";
import { providerFor, startLocalNode } from "../../helpers/chain";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { indexedTo } from "../../helpers/index-check";
import { connectionsDownTo, parseRawAnswer, rawRequest, type RawClient } from "../../helpers/raw-http";
import { openSse, type SseClient } from "../../helpers/sse";
import { expectRefusal } from "../../helpers/refusal";

/**
 * Transactions of the flood contract, each emitting LOGS Transfer logs: the backlog a resume from 0 replays, about
 * 9 MB of events, more than the kernel takes for a client that does not read (a 4 MiB send buffer on Linux).
 */
const FLOODS = 6;
const LOGS = 5_000;

/**
 * `send()`, again when the node closed its keep-alive connection under the request ("socket hang up"): blocks of
 * 5,000 logs keep the local node busy long enough for that race on a loaded machine. A second flood only adds to the
 * backlog, which the test counts from the database.
 */
async function resentOnHangUp<T>(send: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= tries || !/socket hang up|ECONNRESET|other side closed/.test(String((error as Error).message))) throw error;
    }
  }
}

/**
 * Clients that stop reading while the stream has a large backlog to replay: an attacker's contract emits thousands of
 * Transfer logs in a transaction, and then clients resume from the start (`Last-Event-ID: 0`) and never read.
 */
describe("live events: a large backlog and clients that stop reading", function () {
  this.timeout(300_000);
  let node: LocalNode;
  let provider: JsonRpcProvider;
  let database: TestDatabase;
  let writer: TestApp;
  /** All change ids of the network, in order: what a resume from 0 must deliver. */
  let ids: string[];
  const raws: RawClient[] = [];
  const sses: SseClient[] = [];

  before(async function () {
    node = await startLocalNode();
    provider = providerFor(node.url);
    const deployer = await provider.getSigner(0);
    const flood = await new TransferFlood__factory(deployer).deploy();
    for (let i = 0; i < FLOODS; i++) {
      await resentOnHangUp(async () => (await flood.flood(deployer.address, i * LOGS + 1, LOGS, { gasLimit: 15_000_000 })).wait());
    }
    database = await createTestDatabase();
    writer = await startTestApp({ database, env: { RPC_URL_LOCALHOST: node.url, INDEXER_POLL_MS: "200" } });
    await indexedTo(writer.app.db, "localhost", provider);
    const { rows } = await writer.app.db.query<{ id: string }>(
      "SELECT c.id::text AS id FROM nft_changes c WHERE c.network_id = (SELECT id FROM indexer_networks WHERE name = 'localhost') ORDER BY c.id",
    );
    ids = rows.map((r) => r.id);
    expect(ids.length).to.be.at.least(FLOODS * LOGS);
  });
  afterEach(function () {
    for (const raw of raws.splice(0)) raw.destroy();
    for (const sse of sses.splice(0)) sse.close();
  });
  after(async function () {
    await writer?.close();
    await database?.drop();
    provider?.destroy();
    await node?.stop();
  });

  /** An instance of the same database that does not index, listening: the one the clients stream from. */
  const startReader = (env: Record<string, string> = {}) =>
    startTestApp({ listen: true, database, env: { RPC_URL_LOCALHOST: node.url, INDEXER: "false", ...env } });

  /**
   * A stream stalls only once its socket is full (megabytes on loopback), and on PGlite its pages are read one query at
   * a time: under the whole suite on a busy machine, filling four took more than 30 s (connectionsDownTo waits 90 s).
   */
  const streamsDownTo = (reader: TestApp, count: number) => connectionsDownTo(reader.app.server, count);

  async function eventsUntil(client: SseClient, count: number, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (client.events.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  it("replays the whole backlog, in order, to a reading client while a client that never reads is destroyed, and the process keeps answering", async function () {
    const reader = await startReader({ EVENTS_STALL_MS: "2000" });
    // The server's end of each connection, by the client's port.
    const accepted = new Map<number, Socket>();
    reader.app.server.on("connection", (socket: Socket) => accepted.set(socket.remotePort!, socket));
    try {
      const stalled = await rawRequest(reader.url, "/events/localhost", [["Last-Event-ID", "0"]]);
      raws.push(stalled);
      const reading = await openSse(`${reader.url}/events/localhost`, { "last-event-id": "0" });
      sses.push(reading);
      expect(reading.status).to.equal(200);
      await eventsUntil(reading, ids.length);
      // Every change, each once, in id order: a slow reader is not dropped because the backlog is large.
      expect(reading.events.length).to.equal(ids.length);
      expect(reading.events.map((e) => e.id)).to.deep.equal(ids);
      expect(reading.events.every((e) => e.event === "transfer")).to.equal(true);

      // The client that never read: the server destroyed its socket, while the process went on answering.
      const deadline = Date.now() + 30_000;
      while (!accepted.get(stalled.socket.localPort!)?.destroyed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(accepted.get(stalled.socket.localPort!)?.destroyed).to.equal(true);
      expect((await reader.fetch("/health")).status).to.equal(200);
      const { bytes, closed } = await stalled.readToClose();
      expect(closed).to.equal(true);
      expect(parseRawAnswer(bytes).status).to.equal(200);
      // It was cut off well before the end of the backlog (whatever the kernel had taken on the way).
      expect(bytes.toString("latin1")).to.not.include(`id: ${ids[ids.length - 1]}\n`);
      expect((await reader.fetch("/health")).status).to.equal(200);
    } finally {
      await reader.close();
    }
  });

  it("drops or refuses every one of many clients that never read beyond the stream cap, and frees their places", async function () {
    const cap = 4;
    const reader = await startReader({ EVENTS_STALL_MS: "500", EVENTS_MAX_SUBSCRIBERS: String(cap) });
    try {
      const stalled = await Promise.all(
        Array.from({ length: 3 * cap }, () => rawRequest(reader.url, "/events/localhost", [["Last-Event-ID", "0"]])),
      );
      raws.push(...stalled);
      // Not one socket stays open: each stream was destroyed, each refusal closed its connection.
      expect(await streamsDownTo(reader, 0)).to.equal(0);
      const answers = await Promise.all(stalled.map((s) => s.readToClose()));
      expect(answers.map((a) => a.closed)).to.deep.equal(stalled.map(() => true));
      const parsed = answers.map((a) => parseRawAnswer(a.bytes));
      const streamed = parsed.filter((p) => p.status === 200);
      const refused = answers.filter((_, i) => parsed[i].status !== 200);
      expect(streamed.length).to.be.at.least(cap);
      expect(refused.length).to.be.at.least(1);
      for (const answer of refused) {
        await expectRefusal(answer.bytes, 503, "too_many_subscribers", { headers: { "retry-after": "5", connection: "close" } });
      }
      // The open-stream count went back down: the cap's worth of new clients is served again.
      for (let i = 0; i < cap; i++) {
        const client = await openSse(`${reader.url}/events/localhost`);
        sses.push(client);
        expect(client.status).to.equal(200);
      }
      await expectRefusal(await reader.fetch("/events/localhost"), 503, "too_many_subscribers");
    } finally {
      await reader.close();
    }
  });
});
