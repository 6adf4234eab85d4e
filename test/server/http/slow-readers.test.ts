import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { expect } from "chai";
import { MetadataNFT__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { SuiteChain } from "../../helpers/suite-chain";
import { connectionsDownTo, parseRawAnswer, rawRequest, type RawClient } from "../../helpers/raw-http";

/**
 * Tokens whose metadata documents are about a megabyte each (the fetch's default bound is a MiB): a page of all of them
 * is about ten megabytes, more than Linux takes into its socket buffers for a client that does not read (between 3 and
 * 5 MB on loopback), so the rest stays in the service's process until the client reads it.
 */
const TOKENS = 10;
const DOCUMENT_BYTES = 1_000_000;

/**
 * Clients that send a request with a large answer and then do not read it: the answer is made, and the slots that made
 * it given back, whatever the client does; its connection is closed when it leaves the answer unread past
 * HTTP_SEND_TIMEOUT_MS.
 */
describe("slow readers: a client that does not read its answer holds no shared slot", function () {
  this.timeout(300_000);
  const raws: RawClient[] = [];
  /** The service's end of each connection, by the client's port. */
  const accepted = new Map<number, Socket>();

  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const host = http.createServer((request, response) => {
      const id = /\/meta\/(\d+)$/.exec(request.url ?? "")?.[1] ?? "0";
      const document = JSON.stringify({ name: `Big #${id}`, description: "x".repeat(DOCUMENT_BYTES - 100) });
      response.writeHead(200, { "content-type": "application/json" }).end(document);
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    // Registered before the app, so closed after it: the app reads its metadata from the host.
    chain.closesWith({
      close: async () => {
        host.closeAllConnections();
        host.close();
      },
    });
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    const deployer = await chain.signer(0);
    const holder = await (await chain.signer(12)).getAddress();
    const nft = await new MetadataNFT__factory(deployer).deploy();
    const contract = await nft.getAddress();
    const pagePath = `/inventory/localhost/${holder}/${contract}?metadata=true&limit=${TOKENS}`;
    for (let id = 1; id <= TOKENS; id++) await (await nft.mint(holder, id, `${base}/meta/${id}`)).wait();
    // Indexes and listens; one metadata answer at a time, so that one held slot would stop every other answer.
    const t = await chain.startIndexingApp({
      listen: true,
      env: {
        INDEXER_CONTRACTS_LOCALHOST: contract,
        METADATA_FETCH_ALLOW_PRIVATE: "true",
        METADATA_FETCH_WAIT_MS: "20000",
        METADATA_ANSWERS_MAX_BYTES: String(16 * 1024 * 1024),
        METADATA_ANSWERS_CONCURRENCY: "1",
        // Longer than the test: here no client is let go for being slow.
        HTTP_SEND_TIMEOUT_MS: "3600000",
      },
    });
    t.app.server.on("connection", (socket: Socket) => accepted.set(socket.remotePort!, socket));
    // Every document in the cache: the answers below are made from it.
    for (let tries = 0; ; tries++) {
      const items = (await (await t.fetch(pagePath)).json()) as Array<{ metadataError: string | null }>;
      if (items.every((item) => item.metadataError === null)) break;
      if (tries > 20) throw new Error(`metadata not read: ${JSON.stringify(items.map((item) => item.metadataError))}`);
    }
    return { holder, contract, pagePath, t };
  });
  afterEach(function () {
    for (const raw of raws.splice(0)) raw.destroy();
  });

  /** A client that asks for the page of every token's metadata, takes the first bytes of its answer and stops reading. */
  async function stalledPageReader(url: string): Promise<RawClient> {
    const raw = await rawRequest(url, suite().pagePath);
    raws.push(raw);
    const first = await raw.readUntil((bytes) => bytes.includes("\r\n\r\n"));
    expect(parseRawAnswer(first).status, "no answer began: the answer slot is held by another client").to.equal(200);
    return raw;
  }

  /** What the service still holds unsent for a client's connection. */
  const unsent = (raw: RawClient) => accepted.get(raw.socket.localPort!)?.writableLength ?? 0;

  it("answers other metadata requests while clients that do not read hold megabytes of metadata answers", async function () {
    const { t, holder, contract } = suite();
    const stalled = [await stalledPageReader(t.url), await stalledPageReader(t.url), await stalledPageReader(t.url)];
    // The answers are made and are waiting for their clients in the service's process, not in the kernel.
    for (const raw of stalled) expect(unsent(raw)).to.be.greaterThan(1_000_000);

    // With one answer slot, any answer still holding it would keep these waiting for as long as its client does not read.
    const token = await t.fetch(`/token/localhost/${contract}/3`);
    expect(token.status).to.equal(200);
    expect(await token.json()).to.deep.include({ id: 3, metadataError: null });
    const page = await t.fetch(`/inventory/localhost/${holder}/${contract}?metadata=true&limit=2`);
    expect(page.status).to.equal(200);
    expect(((await page.json()) as Array<{ metadata: { name: string } }>).map((item) => item.metadata.name)).to.deep.equal([
      "Big #1",
      "Big #2",
    ]);
    // The database is free as well: nothing waits for a connection.
    expect(t.app.db.stats().waiting).to.equal(0);

    // The slow clients lost nothing: each reads its whole answer when it reads at last.
    for (const raw of stalled) {
      expect(unsent(raw)).to.be.greaterThan(1_000_000);
      const bytes = await raw.readUntil((read) => parseRawAnswer(read).complete, 60_000);
      const items = JSON.parse(parseRawAnswer(bytes).body.toString("utf8")) as Array<{ id: number; metadata: { name: string } }>;
      expect(items.map((item) => item.metadata.name)).to.deep.equal(Array.from({ length: TOKENS }, (_, i) => `Big #${i + 1}`));
    }
  });

  /** A second service on the same index, not indexing, whose HTTP_SEND_TIMEOUT_MS is `sendTimeoutMs`. */
  async function startReaderApp(sendTimeoutMs: number) {
    const { chain, t } = suite();
    const reader = await startTestApp({
      listen: true,
      database: t.database,
      env: {
        RPC_URL_LOCALHOST: chain.url,
        INDEXER: "false",
        METADATA_ANSWERS_MAX_BYTES: String(16 * 1024 * 1024),
        HTTP_SEND_TIMEOUT_MS: String(sendTimeoutMs),
      },
    });
    reader.app.server.on("connection", (socket: Socket) => accepted.set(socket.remotePort!, socket));
    return reader;
  }

  it("closes the connection of a client that leaves its answer unread past HTTP_SEND_TIMEOUT_MS, and not of one that reads", async function () {
    const { pagePath } = suite();
    const reader = await startReaderApp(2_000);
    try {
      const stalled = await stalledPageReader(reader.url);
      expect(unsent(stalled)).to.be.greaterThan(1_000_000);
      expect(await connectionsDownTo(reader.app.server, 0, 60_000)).to.equal(0);
      const { bytes, closed } = await stalled.readToClose();
      expect(closed).to.equal(true);
      expect(await reader.app.metrics!.registry.metrics()).to.match(/^http_slow_readers_closed_total 1$/m);
      const answer = parseRawAnswer(bytes);
      expect(answer.status).to.equal(200);
      expect(answer.body.length).to.be.below(answer.length!);

      // A client that reads takes the same answer whole.
      const page = await reader.fetch(pagePath);
      expect(page.status).to.equal(200);
      expect((await page.json()) as unknown[]).to.have.length(TOKENS);
    } finally {
      await reader.close();
    }
  });

  it("keeps the connection of a client that reads its answer slowly but steadily, however long the whole answer takes", async function () {
    // The time is the app's clock, moved on by the test: a loaded machine (the service runs in this process) slows the
    // reading, not the time the deadline sees, which is what made this test fail with a bound of real seconds.
    const timeoutMs = 60_000;
    const reader = await startReaderApp(timeoutMs);
    try {
      const raw = await stalledPageReader(reader.url);
      const length = parseRawAnswer(await raw.readUntil(() => true)).length!;
      expect(length).to.be.greaterThan(TOKENS * DOCUMENT_BYTES - 1);
      // A megabyte, then 12 s of the app's time and a sweep (once a second of real time): the whole answer takes about
      // twice the bound, and is one write of the service's (a single drain at its end). The service sees the reading as
      // the kernel takes more of that write, in steps of about half its send buffer (two megabytes or so on loopback):
      // two or three of these turns apart, well within the bound.
      const started = reader.clock.now();
      let bytes: Buffer = Buffer.alloc(0);
      for (let want = 1_000_000; ; want += 1_000_000) {
        bytes = await raw.readUntil((read) => read.length >= want || parseRawAnswer(read).complete);
        if (parseRawAnswer(bytes).complete || raw.socket.destroyed) break;
        reader.clock.advance(12_000);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
      }
      expect(reader.clock.now() - started).to.be.greaterThan(timeoutMs);
      const answer = parseRawAnswer(bytes);
      expect(answer.body.length, "the service closed the connection of a client that kept reading").to.equal(length);
      expect(await reader.app.metrics!.registry.metrics()).to.match(/^http_slow_readers_closed_total 0$/m);
      const items = JSON.parse(answer.body.toString("utf8")) as Array<{ metadata: { name: string } }>;
      expect(items.map((item) => item.metadata.name)).to.deep.equal(Array.from({ length: TOKENS }, (_, i) => `Big #${i + 1}`));
    } finally {
      await reader.close();
    }
  });
});
