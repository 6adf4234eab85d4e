import { expect } from "chai";
import { checksummer } from "../../../server/chain/values";
import { ChangeFeed, type ChangeEvent } from "../../../server/events/feed";
import { appendSyntheticChanges } from "../../helpers/changes";
import { databaseForSuite } from "../../helpers/suite-database";
import { subscribeCollectors } from "../../helpers/sse";

const SUBSCRIBERS = 500;
const CHANGES = 20;

/**
 * A change that many live streams match is made into its event once per instance, not once per stream: a burst of
 * changes read by a thousand streams would otherwise cost a thousand times the checksums and JSON of each.
 */
describe("live events: one event text per change, whatever the number of streams", function () {
  this.timeout(60_000);
  const suite = databaseForSuite();

  it("checksums each change's addresses once and sends every stream the same text", async function () {
    const { db } = suite();
    const inner = checksummer();
    let checksums = 0;
    const feed = new ChangeFeed(
      db,
      (address) => {
        checksums++;
        return inner(address);
      },
      { pollMs: 50, onError: (error) => expect.fail(String(error)) },
    );
    await feed.start();
    let received: ChangeEvent[][] = [];
    try {
      received = subscribeCollectors(feed, SUBSCRIBERS, { network: "localhost" }, undefined, (error) => expect.fail(String(error)));
      await appendSyntheticChanges(db, CHANGES, {
        contract: `0x${"0c".repeat(20)}`,
        from: `0x${"0a".repeat(20)}`,
        to: `0x${"0b".repeat(20)}`,
      });
      for (let i = 0; i < 300 && received.some((events) => events.length < CHANGES); i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await feed.stop();
    }
    // Three addresses (contract, sender, receiver) per change, once each.
    expect(checksums).to.equal(3 * CHANGES);
    const first = received[0];
    expect(first.map((e) => e.event)).to.deep.equal(Array(CHANGES).fill("transfer"));
    expect(JSON.parse(first[0].json)).to.include({
      block: 1,
      from: inner(`0x${"0a".repeat(20)}`),
      contract: inner(`0x${"0c".repeat(20)}`),
      to: inner(`0x${"0b".repeat(20)}`),
    });
    for (const events of received) expect(events).to.deep.equal(first);
  });
});
