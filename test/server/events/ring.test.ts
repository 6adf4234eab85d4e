import { expect } from "chai";
import { checksummer } from "../../../server/chain/values";
import type { Database } from "../../../server/db/database";
import { ChangeFeed, type ChangeEvent, type Sink } from "../../../server/events/feed";
import { ChangeRing } from "../../../server/events/ring";
import type { ChangeRow } from "../../../server/indexer";
import { appendSyntheticChanges } from "../../helpers/changes";
import { openMigratedTestDatabase, type TestDatabase } from "../../helpers/database";
import { withQueryHook } from "../../../support/query-hook";

const ADDRESSES = { contract: `0x${"0c".repeat(20)}`, from: `0x${"0a".repeat(20)}`, to: `0x${"0b".repeat(20)}` };

/** A stream's sink whose client takes what it is sent only when the test lets it (`release`), recording every write. */
class SlowSink implements Sink {
  readonly events: ChangeEvent[] = [];
  readonly writes: Buffer[] = [];
  closed = false;
  private held = true;
  private waiting: Array<(taken: boolean) => void> = [];

  /** Each write fills the socket: the feed must wait for `drained` before the next. */
  send(frames: { events: readonly ChangeEvent[]; bytes: Buffer }): boolean {
    this.events.push(...frames.events);
    this.writes.push(frames.bytes);
    return false;
  }

  drained(): Promise<boolean> {
    if (!this.held) return new Promise((resolve) => setImmediate(() => resolve(true)));
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    this.held = false;
    for (const resolve of this.waiting.splice(0)) resolve(true);
  }
}

const idsOf = (events: readonly ChangeEvent[]) => events.map((e) => Number(e.id));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * A burst leaves streams behind the feed: those within the ring of the latest changes catch up from memory, sharing
 * the bytes of each chunk; those further behind read the change log up to the ring, then go on from it; none misses
 * or repeats a change.
 */
describe("live events: streams that fall behind catch up from the ring of recent changes", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: Database;
  /** Each backlog read (the one statement with an upper id bound): the ids it looked through. */
  const reads: Array<{ after: bigint; upTo: bigint }> = [];

  beforeEach(async function () {
    reads.splice(0);
    ({ database, db } = await openMigratedTestDatabase());
  });
  afterEach(async () => {
    await db?.close();
    await database?.drop();
  });

  const watched = () =>
    withQueryHook(db, async (sql, params, run) => {
      if (/WHERE c\.id > \$1 AND c\.id <= \$2/.test(sql))
        reads.push({ after: BigInt(params![0] as string), upTo: BigInt(params![1] as string) });
      return run();
    });

  async function until(done: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 1_200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    if (!done()) expect.fail(`timed out waiting until ${what}`);
  }

  it("serves streams behind within the ring from memory, one set of bytes for all at the same point", async function () {
    const changes = 5_000;
    const feed = new ChangeFeed(watched(), checksummer(), { pollMs: 50, onError: (error) => expect.fail(String(error)) });
    await feed.start();
    const sinks = Array.from({ length: 100 }, () => new SlowSink());
    try {
      for (const sink of sinks)
        feed.subscribe({ network: "localhost", contract: ADDRESSES.contract }, sink, undefined, (e) => expect.fail(String(e)));
      await appendSyntheticChanges(db, changes, ADDRESSES);
      await until(() => feed.position === BigInt(changes), "the feed read every change");
      for (const sink of sinks) sink.release();
      await until(() => sinks.every((sink) => sink.events.length >= changes), "every stream got every change");
    } finally {
      await feed.stop();
    }
    for (const sink of sinks) expect(idsOf(sink.events)).to.deep.equal(range(1, changes));
    expect(reads).to.deep.equal([]);
    // Every stream was written the very same buffers, made once.
    const [first] = sinks;
    expect(first.writes.length).to.be.above(changes / 200);
    for (const sink of sinks) expect(sink.writes.every((bytes, i) => bytes === first.writes[i])).to.equal(true);
  });

  it("serves a stream behind the ring from the log up to the ring, then from the ring, with no gap or repeat", async function () {
    const ringSize = 1_000;
    const changes = 5_000;
    const feed = new ChangeFeed(watched(), checksummer(), { pollMs: 50, ringSize, onError: (error) => expect.fail(String(error)) });
    await feed.start();
    const behind = new SlowSink();
    const owner = `0x${"0d".repeat(20)}`;
    const filtered = new SlowSink();
    try {
      feed.subscribe({ network: "localhost" }, behind, undefined, (e) => expect.fail(String(e)));
      // Filtered by an owner only the last change names: nothing is written to it until that one.
      feed.subscribe({ network: "localhost", owner }, filtered, undefined, (e) => expect.fail(String(e)));
      await appendSyntheticChanges(db, changes, { ...ADDRESSES, lastTo: owner });
      await until(() => feed.position === BigInt(changes), "the feed read every change");
      // Some more the stream reads live once it has caught up.
      behind.release();
      filtered.release();
      await until(() => behind.events.length >= changes && filtered.events.length >= 1, "both streams caught up");
      await appendSyntheticChanges(db, 10, ADDRESSES);
      await until(() => behind.events.length >= changes + 10, "the stream got the changes after");
    } finally {
      await feed.stop();
    }
    expect(idsOf(behind.events)).to.deep.equal(range(1, changes + 10));
    expect(idsOf(filtered.events)).to.deep.equal([changes]);
    // The log was read up to where the ring begins, never past it.
    expect(reads.length).to.be.above(0);
    expect(Math.max(...reads.map((r) => Number(r.upTo)))).to.equal(changes - ringSize);
  });
});

describe("live events: the ring of recent changes", function () {
  const row = (id: number) => ({ id: String(id) }) as ChangeRow;

  it("keeps at most its capacity, and covers exactly the ids after its oldest kept one", function () {
    const ring = new ChangeRing<string>(3);
    ring.reset(10n);
    expect(ring.covers(10n)).to.equal(true);
    expect(ring.covers(9n)).to.equal(false);
    ring.append([row(11), row(13)], 14n);
    expect([ring.from, ring.to, ring.size]).to.deep.equal([10n, 14n, 2]);
    expect([...ring.after(11n)].map((e) => e.id)).to.deep.equal([13n]);
    for (let id = 15; id < 40; id++) {
      ring.append([row(id)], BigInt(id));
      expect(ring.size).to.be.at.most(3);
    }
    expect([ring.from, ring.to, ring.size]).to.deep.equal([36n, 39n, 3]);
    expect(ring.covers(35n)).to.equal(false);
    expect([...ring.after(36n)].map((e) => e.id)).to.deep.equal([37n, 38n, 39n]);
    expect([...ring.after(39n)]).to.deep.equal([]);
  });

  it("keeps nothing at capacity 0, covering only its end", function () {
    const ring = new ChangeRing<string>(0);
    ring.reset(5n);
    ring.append([row(6), row(7)], 7n);
    expect([ring.from, ring.to, ring.size]).to.deep.equal([7n, 7n, 0]);
  });
});
