import { expect } from "chai";
import { BoundedCache } from "../../../server/lib/bounded-cache";
import { heldCalls } from "../../helpers/held-calls";

/** A clock the test moves forward (the cache's time-to-live is measured in it), instead of sleeping. */
function manualClock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe("BoundedCache", function () {
  it("forgets its oldest entries beyond its bound", function () {
    const cache = new BoundedCache<number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).to.deep.equal([undefined, 2, 3]);
  });

  it("forgets a deleted entry, and counts a value set again as the newest", function () {
    const cache = new BoundedCache<number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.delete("b");
    cache.delete("never-set");
    cache.set("c", 3);
    cache.set("a", 4);
    cache.set("d", 5);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).to.deep.equal([4, undefined, undefined, 5]);
  });

  it("over a long churn of sets, sets again and deletes, holds exactly the last-set entries a list would", function () {
    // The reference: keys in the order they were last set, the oldest first.
    const order: string[] = [];
    const values = new Map<string, number>();
    const cache = new BoundedCache<number>(50);
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 20_000; step++) {
      const key = `k${next(200)}`;
      if (next(10) === 0) {
        cache.delete(key);
        values.delete(key);
        if (order.includes(key)) order.splice(order.indexOf(key), 1);
        continue;
      }
      cache.set(key, step);
      values.set(key, step);
      if (order.includes(key)) order.splice(order.indexOf(key), 1);
      order.push(key);
      if (order.length > 50) values.delete(order.shift()!);
      if (step % 997 === 0) {
        const all = Array.from({ length: 200 }, (_, i) => `k${i}`);
        expect(all.map((k) => cache.get(k))).to.deep.equal(all.map((k) => values.get(k)));
      }
    }
  });

  it("without a time-to-live, keeps a value however old", async function () {
    const clock = manualClock();
    const cache = new BoundedCache<number>(10, { now: clock.now });
    cache.set("a", 1);
    clock.advance(365 * 24 * 3600_000);
    expect(cache.get("a")).to.equal(1);
    expect(await cache.getOrLoad("a", async () => 2)).to.equal(1);
  });

  it("with a time-to-live, serves a value until it is that old, then loads it again", async function () {
    const young = new BoundedCache<number>(10, { ttlMs: 60_000 });
    young.set("a", 1);
    expect(await young.getOrLoad("a", async () => 2)).to.equal(1);

    const clock = manualClock();
    const cache = new BoundedCache<number>(10, { ttlMs: 20, now: clock.now });
    cache.set("a", 1);
    clock.advance(19);
    expect(cache.get("a")).to.equal(1);
    clock.advance(1);
    expect(cache.get("a")).to.equal(undefined);
    expect(await cache.getOrLoad("a", async () => 2)).to.equal(2);
    expect(cache.get("a")).to.equal(2);
  });

  it("shares one load between concurrent askers of an expired entry, and does not keep a failure", async function () {
    const clock = manualClock();
    const cache = new BoundedCache<number>(10, { ttlMs: 20, now: clock.now });
    cache.set("head", 0);
    clock.advance(20);
    const { call: load, calls, release } = heldCalls();
    const asks = [cache.getOrLoad("head", load), cache.getOrLoad("head", load), cache.getOrLoad("head", load)];
    release();
    expect(await Promise.all(asks)).to.deep.equal([1, 1, 1]);
    expect(calls()).to.equal(1);

    clock.advance(20);
    const failing = cache.getOrLoad("head", async () => Promise.reject(new Error("node down")));
    await expect(failing).to.be.rejectedWith("node down");
    expect(await cache.getOrLoad("head", async () => 5)).to.equal(5);
  });

  it("with a time-to-live of 0, loads on every ask that finds no load in flight", async function () {
    const cache = new BoundedCache<number>(10, { ttlMs: 0 });
    let calls = 0;
    expect(await cache.getOrLoad("a", async () => ++calls)).to.equal(1);
    expect(await cache.getOrLoad("a", async () => ++calls)).to.equal(2);
  });
});
