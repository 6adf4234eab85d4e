import { expect } from "chai";
import { MAX_DELAY_MS, retryAfterMs, retryDelay } from "../../../server/webhooks/retries";

const MINUTE = 60_000;

describe("webhooks: the retry schedule", function () {
  it("doubles from 30 s to 4 h 16 min, then waits 6 h each time, as documented", function () {
    const steps = Array.from({ length: 14 }, (_, i) => retryDelay(i + 1, undefined, () => 0.5));
    expect(steps).to.deep.equal([
      0.5 * MINUTE,
      MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
      16 * MINUTE,
      32 * MINUTE,
      64 * MINUTE,
      128 * MINUTE,
      256 * MINUTE,
      360 * MINUTE,
      360 * MINUTE,
      360 * MINUTE,
      360 * MINUTE,
    ]);
    // However many attempts failed before.
    expect(retryDelay(1_000, undefined, () => 0.5)).to.equal(MAX_DELAY_MS);
  });

  it("draws each delay within ±20 % of its step", function () {
    for (const attempt of [1, 5, 11]) {
      const step = retryDelay(attempt, undefined, () => 0.5);
      expect(retryDelay(attempt, undefined, () => 0)).to.equal(step * 0.8);
      expect(retryDelay(attempt, undefined, () => 0.999_999)).to.be.closeTo(step * 1.2, step * 1e-5);
    }
  });

  it("a day of failures is thirteen to fifteen attempts: the first after a day is the one that disables", function () {
    // The attempt times, the first at 0, with the steps at their shortest, middle and longest.
    const firstPastADay = (random: () => number) => {
      let at = 0;
      let attempt = 1;
      while (at < 24 * 60 * MINUTE) at += retryDelay(attempt++, undefined, random);
      return attempt;
    };
    expect(firstPastADay(() => 0.999_999)).to.equal(13);
    expect(firstPastADay(() => 0.5)).to.equal(14);
    expect(firstPastADay(() => 0)).to.equal(15);
  });

  it("waits at least as long as a Retry-After says, in seconds or as an HTTP date, and at most 6 h", function () {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("120", now)).to.equal(120_000);
    expect(retryAfterMs(" 7 ", now)).to.equal(7_000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:05:00 GMT", now)).to.equal(5 * MINUTE);
    // A date past is no wait of its own; what cannot be read is none.
    expect(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now)).to.equal(0);
    expect(retryAfterMs("soon", now)).to.equal(undefined);
    expect(retryAfterMs(undefined, now)).to.equal(undefined);
    // Longer than the backoff's step: the receiver's word; shorter: the step; past 6 h: 6 h.
    expect(retryDelay(1, 120_000, () => 0.5)).to.equal(120_000);
    expect(retryDelay(5, 1_000, () => 0.5)).to.equal(8 * MINUTE);
    expect(retryDelay(1, retryAfterMs("86400", now), () => 0.5)).to.equal(MAX_DELAY_MS);
    expect(retryDelay(1, retryAfterMs("86400", now), () => 0)).to.equal(MAX_DELAY_MS);
  });
});
