import { expect } from "chai";
import { checksummer } from "../../../server/chain/values";
import type { Database } from "../../../server/db/database";
import { ChangeFeed, type ChangeEvent } from "../../../server/events/feed";
import { lastChangeId } from "../../../server/indexer/store/reads";
import { appendSyntheticChanges } from "../../helpers/changes";
import { databaseForSuite } from "../../helpers/suite-database";
import { withQueryHook } from "../../../support/query-hook";
import { subscribeCollectors } from "../../helpers/sse";

const ADDRESSES = { contract: `0x${"0c".repeat(20)}`, from: `0x${"0a".repeat(20)}`, to: `0x${"0b".repeat(20)}` };

/**
 * Every HTTP instance runs a feed, and most have no live stream most of the time: a feed that no stream waits on
 * moves past new changes without reading them (a stream that resumes from an earlier id reads its backlog itself).
 */
describe("live events: a feed without streams reads no changes", function () {
  this.timeout(60_000);
  /** Change rows the feed's own reads (changesAfter) returned. */
  let rowsRead = 0;
  const suite = databaseForSuite();

  /** `db` with the rows of the feed's reads counted (the one statement with a lower id bound only). */
  function counted(): Database {
    return withQueryHook(suite().db, async (sql, _params, run) => {
      const result = await run();
      if (/WHERE c\.id > \$1 ORDER BY c\.id/.test(sql)) rowsRead += result.rows.length;
      return result;
    });
  }

  const settled = async (feed: ChangeFeed) => {
    const last = await lastChangeId(suite().db);
    for (let i = 0; i < 100 && feed.position < last; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(feed.position).to.equal(last);
  };

  it("moves past changes no stream waits for, then hands a stream that comes later what follows", async function () {
    const { db } = suite();
    const feed = new ChangeFeed(counted(), checksummer(), { pollMs: 50, onError: (error) => expect.fail(String(error)) });
    await feed.start();
    let received: ChangeEvent[][] = [];
    try {
      await appendSyntheticChanges(db, 3_000, ADDRESSES);
      await settled(feed);
      expect(rowsRead).to.equal(0);

      received = subscribeCollectors(feed, 2, { network: "localhost" }, undefined, (error) => expect.fail(String(error)));
      await appendSyntheticChanges(db, 5, ADDRESSES);
      await settled(feed);
    } finally {
      await feed.stop();
    }
    expect(rowsRead).to.equal(5);
    for (const events of received) expect(events.map((e) => e.event)).to.deep.equal(Array(5).fill("transfer"));
  });
});
