import { expect } from "chai";
import { checksummer } from "../../../server/chain/values";
import type { Database } from "../../../server/db/database";
import { ChangeFeed, REPLAY_READS, REPLAY_SCAN, type ChangeEvent } from "../../../server/events/feed";
import { appendSyntheticChanges } from "../../helpers/changes";
import { databaseForSuite } from "../../helpers/suite-database";
import { withQueryHook } from "../../../support/query-hook";
import { subscribeCollectors } from "../../helpers/sse";
import type { Sink } from "../../../server/events/feed";

const CHANGES = 2 * REPLAY_SCAN + 5_000;
const SUBSCRIBERS = 3 * REPLAY_READS;
const OWNER = `0x${"0b".repeat(20)}`;

/**
 * A stream that resumes from far back, filtered by an owner the log hardly names, reads its backlog from the change
 * log: each read looks through at most REPLAY_SCAN ids, and an instance runs at most REPLAY_READS such reads at once,
 * so no stream holds a pool connection for a whole log's read and streams leave the pool room for other requests.
 * Streams of the same filter at the same point share each read.
 */
describe("live events: the reads of a backlog are bounded", function () {
  this.timeout(120_000);
  /** Each backlog read: the ids it looked through, and how many ran at that moment. */
  const reads: Array<{ after: bigint; upTo: bigint; running: number }> = [];
  let running = 0;
  beforeEach(() => reads.splice(0));

  const suite = databaseForSuite(async (db) => {
    // Changes of other owners, then one of OWNER at the very end.
    await appendSyntheticChanges(db, CHANGES, {
      contract: `0x${"0c".repeat(20)}`,
      from: `0x${"00".repeat(20)}`,
      to: `0x${"0a".repeat(20)}`,
      lastTo: OWNER,
    });
    return {};
  });

  /**
   * `db` with every backlog read (the one statement with an upper id bound) recorded, each taking at least 20 ms: PGlite
   * answers within the event loop's turn, so without a wait no two reads would ever overlap, bounded or not.
   */
  function watched(): Database {
    return withQueryHook(suite().db, async (sql, params, run) => {
      if (!/WHERE c\.id > \$1 AND c\.id <= \$2/.test(sql)) return run();
      reads.push({ after: BigInt(params![0] as string), upTo: BigInt(params![1] as string), running: ++running });
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return await run();
      } finally {
        running--;
      }
    });
  }

  it("looks through REPLAY_SCAN ids at a time, REPLAY_READS reads at once, and misses nothing", async function () {
    const feed = new ChangeFeed(watched(), checksummer(), { pollMs: 60_000, onError: (error) => expect.fail(String(error)) });
    await feed.start();
    const received: ChangeEvent[][] = [];
    try {
      // Each from an id of its own: no two share a read.
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const events: ChangeEvent[] = [];
        const sink: Sink = { send: (frames) => events.push(...frames.events) > 0, drained: async () => true, closed: false };
        feed.subscribe({ network: "localhost", owner: OWNER }, sink, BigInt(i), (error) => expect.fail(String(error)));
        received.push(events);
      }
      for (let i = 0; i < 600 && received.some((events) => events.length === 0); i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await feed.stop();
    }
    for (const events of received) expect(events.map((e) => [e.id, e.event])).to.deep.equal([[String(CHANGES), "transfer"]]);
    // Every subscriber looked through the whole log, a window at a time.
    expect(reads.length).to.be.at.least(SUBSCRIBERS * Math.ceil((CHANGES - SUBSCRIBERS) / REPLAY_SCAN));
    expect(Math.max(...reads.map((r) => Number(r.upTo - r.after)))).to.equal(REPLAY_SCAN);
    expect(Math.max(...reads.map((r) => r.running))).to.equal(REPLAY_READS);
  });

  it("reads each window once for the streams of the same filter resuming from the same id", async function () {
    const feed = new ChangeFeed(watched(), checksummer(), { pollMs: 60_000, onError: (error) => expect.fail(String(error)) });
    await feed.start();
    let received: ChangeEvent[][] = [];
    try {
      received = subscribeCollectors(feed, SUBSCRIBERS, { network: "localhost", owner: OWNER }, 0n, (error) => expect.fail(String(error)));
      for (let i = 0; i < 600 && received.some((events) => events.length === 0); i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await feed.stop();
    }
    for (const events of received) expect(events.map((e) => [e.id, e.event])).to.deep.equal([[String(CHANGES), "transfer"]]);
    expect(reads.map((r) => [r.after, r.upTo])).to.deep.equal(
      Array.from({ length: Math.ceil(CHANGES / REPLAY_SCAN) }, (_, i) => [
        BigInt(i * REPLAY_SCAN),
        BigInt(Math.min(CHANGES, (i + 1) * REPLAY_SCAN)),
      ]),
    );
  });
});
