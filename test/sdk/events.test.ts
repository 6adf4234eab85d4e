import { expect } from "chai";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createDataClient, type LiveEvent } from "../../sdk/src/index";
import { startTestApp } from "../helpers/app";
import { indexedTo } from "../helpers/index-check";
import { SuiteChain } from "../helpers/suite-chain";
import { expectRefusal } from "../helpers/refusal";
import { rejection, sdkRefusal } from "../helpers/sdk";
import { startTcpProxy } from "../helpers/tcp-proxy";
import { firstArrival, type Arrivals } from "../helpers/sse";
import { pollUntil } from "../helpers/waiters";

/** A subscription read in the background: `events` fills as they arrive; `until` waits for one. */
interface Reading {
  events: LiveEvent[];
  until(match: (event: LiveEvent) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  /** Resolves when the iteration ended (with the error it threw, if any). */
  ended: Promise<unknown>;
}

function read(events: AsyncIterable<LiveEvent>): Reading {
  let done = false;
  const arrivals: Arrivals<LiveEvent> = { items: [], waiters: new Set(), ended: () => done };
  const ended = (async () => {
    try {
      for await (const event of events) {
        arrivals.items.push(event);
        arrivals.waiters.forEach((wake) => wake());
      }
    } catch (error) {
      return error;
    } finally {
      done = true;
      arrivals.waiters.forEach((wake) => wake());
    }
  })();
  return { events: arrivals.items, ended, until: (match, timeoutMs = 30_000) => firstArrival(arrivals, match, timeoutMs) };
}

const transferOf = (tx: string) => (event: LiveEvent) => event.type === "transfer" && event.transfer.tx === tx;

describe("SDK live events against the service", function () {
  const stops: AbortController[] = [];
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const [a, b] = await Promise.all([1, 2].map((i) => chain.signer(i)));
    const alice = await chain.deployAlice();
    const aliceAddress = await alice.getAddress();
    const t = await chain.startIndexingApp({ listen: true });
    // Between the SDK and the service, so that a test can cut the connection.
    const proxy = chain.closesWith(await startTcpProxy("127.0.0.1", Number(new URL(t.url).port)));
    return { a, b, alice, aliceAddress, t, proxy };
  });
  afterEach(() => stops.splice(0).forEach((stop) => stop.abort()));

  function subscribe(options: { owner?: string; lastEventId?: string } = {}, wait?: (ms: number) => Promise<void>): Reading {
    const stop = new AbortController();
    stops.push(stop);
    const { t, proxy, aliceAddress } = suite();
    const client = createDataClient({ baseUrl: proxy.url(t.url), network: "localhost", retry: wait && { wait } });
    return read(client.events({ contract: aliceAddress, ...options, signal: stop.signal }));
  }

  it("gives transfers as they are indexed, typed, ids and blocks as decimal strings", async function () {
    const { a, alice, aliceAddress } = suite();
    const live = subscribe({ owner: a.address });
    const receipt = (await (await alice.mint(a.address, 1n)).wait())!;
    const event = await live.until(transferOf(receipt.hash));
    expect(event.id).to.match(/^\d+$/);
    expect(event)
      .to.have.property("transfer")
      .that.deep.includes({ block: String(receipt.blockNumber), id: "1", to: a.address, contract: aliceAddress });
    if (event.type === "transfer") expect(event.transfer.logIndex).to.be.a("number");
  });

  it("resumes after a disconnect from the last event, nothing missed and nothing twice", async function () {
    const { a, b, alice, t, proxy, chain } = suite();
    let restored!: () => void;
    const back = new Promise<void>((resolve) => (restored = resolve));
    const waits: number[] = [];
    // Reconnecting waits until the test restores the connection, instead of sleeping through attempts that fail.
    const live = subscribe({}, async (ms) => {
      waits.push(ms);
      await back;
    });
    const first = (await (await alice.mint(a.address, 2n)).wait())!;
    await live.until(transferOf(first.hash));

    proxy.cut();
    const missed = [];
    for (const id of [3n, 4n]) missed.push((await (await alice.mint(b.address, id)).wait())!.hash);
    await indexedTo(t.app.db, "localhost", chain.provider);
    proxy.restore();
    restored();
    const after = (await (await alice.mint(b.address, 5n)).wait())!;
    await live.until(transferOf(after.hash));

    expect(waits.length).to.be.at.least(1);
    const transfers = live.events.filter((event) => event.type === "transfer").map((event) => event.transfer.tx);
    expect(transfers.slice(transfers.indexOf(first.hash))).to.deep.equal([first.hash, ...missed, after.hash]);
    expect(new Set(live.events.map((event) => event.id)).size).to.equal(live.events.length);
    const ids = live.events.map((event) => BigInt(event.id));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1])).to.equal(true);
  });

  it("starts after a kept event id", async function () {
    const { a, alice } = suite();
    const live = subscribe();
    const first = (await (await alice.mint(a.address, 6n)).wait())!;
    const kept = await live.until(transferOf(first.hash));
    const next = (await (await alice.mint(a.address, 7n)).wait())!;
    await live.until(transferOf(next.hash));
    const resumed = subscribe({ lastEventId: kept.id });
    await resumed.until(transferOf(next.hash));
    expect(resumed.events.some(transferOf(first.hash))).to.equal(false);
  });

  it("surfaces what a reorg undid as removed", async function () {
    const { a, b, alice, chain } = suite();
    const live = subscribe();
    const snapshot = await chain.provider.send("evm_snapshot", []);
    const undone = (await (await alice.connect(a).transferFrom(a.address, b.address, 1n)).wait())!;
    const seen = await live.until(transferOf(undone.hash));
    await chain.provider.send("evm_revert", [snapshot]);
    const replacement = (await (await alice.mint(b.address, 10n)).wait())!;
    await (await alice.mint(b.address, 11n)).wait();
    const removed = await live.until((event) => event.type === "removed" && event.transfer.tx === undone.hash);
    expect(removed)
      .to.have.property("transfer")
      .that.deep.equals((seen as { transfer: unknown }).transfer);
    expect(BigInt(removed.id)).to.be.above(BigInt(seen.id));
    await live.until(transferOf(replacement.hash));
  });

  it("ends the iteration cleanly when its signal aborts", async function () {
    const { a, alice, t } = suite();
    const stop = new AbortController();
    const client = createDataClient({ baseUrl: t.url, network: "localhost" });
    const live = read(client.events({ signal: stop.signal }));
    const receipt = (await (await alice.mint(a.address, 12n)).wait())!;
    await live.until(transferOf(receipt.hash));
    stop.abort();
    expect(await live.ended).to.equal(undefined);
  });

  it("throws a refusal that waiting cannot change as its ApiError", async function () {
    const { t } = suite();
    const client = createDataClient({ baseUrl: t.url, network: "localhost" });
    const error = await rejection(read(client.events({ owner: "0x12" })).ended.then((thrown) => Promise.reject(thrown)));
    await expectRefusal(sdkRefusal(error), 400, "invalid_address");
  });
});

describe("SDK live events when the chain is replaced", function () {
  const suite = SuiteChain.forSuite("own", async () => ({}));

  it("surfaces the index starting over (its chain replaced below its first block) as reset", async function () {
    const { chain } = suite();
    const fork = await chain.provider.send("evm_snapshot", []);
    const first = (await chain.provider.getBlockNumber()) + 1;
    await chain.provider.send("hardhat_mine", ["0x4"]);
    // The index starts above the fork, so none of the blocks it remembers is on the branch that replaces them.
    const t = await chain.startIndexingApp({ listen: true, env: { INDEXER_START_BLOCK_LOCALHOST: String(first) } });
    const stop = new AbortController();
    const live = read(createDataClient({ baseUrl: t.url, network: "localhost" }).events({ signal: stop.signal }));
    try {
      await chain.provider.send("evm_revert", [fork]);
      // A branch with other blocks: a transaction in its first one (blocks mined empty by hardhat_mine on the same
      // parent could carry the same hashes as the ones they replace, and then nothing was replaced).
      const signer = await chain.signer(0);
      await (await signer.sendTransaction({ to: signer.address, value: 0 })).wait();
      await chain.provider.send("hardhat_mine", ["0x6", "0x2"]);
      const reset = await live.until((event) => event.type === "reset");
      expect(reset).to.deep.include({ type: "reset", network: "localhost" });
    } finally {
      stop.abort();
    }
  });
});

describe("SDK live events from a stream that never ends its event", function () {
  it("drops a connection whose event outgrows MAX_EVENT_CHARS and connects again", async function () {
    let connections = 0;
    // Not the service: a server that sends one endless data line (the service's own lines are bounded).
    const server = http.createServer((_request, response) => {
      connections++;
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = `data: ${"x".repeat(64 * 1024)}`;
      response.write(chunk);
      const timer = setInterval(() => response.write("x".repeat(64 * 1024)), 1);
      response.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const stop = new AbortController();
    const waits: number[] = [];
    const client = createDataClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      network: "localhost",
      retry: {
        wait: async (ms) => {
          waits.push(ms);
          if (waits.length === 2) stop.abort();
        },
      },
    });
    try {
      const live = read(client.events({ signal: stop.signal }));
      expect(await live.ended).to.equal(undefined);
      expect(live.events).to.deep.equal([]);
      expect(connections).to.equal(2);
      expect(waits).to.deep.equal([2_000, 4_000]);
    } finally {
      stop.abort();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("SDK live events aborted by their signal", function () {
  const suite = SuiteChain.forSuite("own", async () => ({}));

  it("lets the service close without waiting for the connection fetch opens after the abort", async function () {
    const { chain } = suite();
    const t = await startTestApp({ listen: true, env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50" } });
    let closed = false;
    try {
      const deployer = await chain.signer(0);
      const alice = await chain.deployAlice();
      await indexedTo(t.app.db, "localhost", chain.provider);
      const stop = new AbortController();
      const live = read(createDataClient({ baseUrl: t.url, network: "localhost" }).events({ signal: stop.signal }));
      const receipt = (await (await alice.mint(deployer.address, 1n)).wait())!;
      await live.until(transferOf(receipt.hash));
      stop.abort();
      expect(await live.ended).to.equal(undefined);
      let done = false;
      const closing = t.close().then(() => (done = true));
      await pollUntil("the service closed", async () => done);
      closed = true;
      await closing;
    } finally {
      if (!closed) await t.close();
    }
  });
});
