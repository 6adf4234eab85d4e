import { expect } from "chai";
import { drawSamples } from "../../support/soak-graph";
import {
  growth,
  latencyBucket,
  memoryCriteria,
  MIN_POOLED,
  noneCriterion,
  p99Criteria,
  pools,
  type Sample,
} from "../../support/soak-verdict";

/** A histogram of `n` latencies of `ms`, and `slow` more of `slowMs`. */
const histogram = (n: number, ms: number, slow = 0, slowMs = ms): Record<string, number> => {
  const h: Record<string, number> = { [latencyBucket(ms)]: n };
  if (slow > 0) h[latencyBucket(slowMs)] = (h[latencyBucket(slowMs)] ?? 0) + slow;
  return h;
};

/** A minute's sample with `over` changed: 100 MiB of RSS, 50 of heap, a family `data` of 60 requests at 100 ms. */
const sample = (t: number, over: Partial<Sample> = {}): Sample => ({
  t,
  at: new Date(t * 1000).toISOString(),
  rssMiB: 100,
  heapUsedMiB: 50,
  liveRssMiB: 80,
  liveHeapMiB: 40,
  heapSpacesMiB: { old_space: 30 },
  eventLoopP99Ms: 20,
  handles: 30,
  sockets: 20,
  databaseConnections: 5,
  load1: 2,
  restart: false,
  p99: { data: { p99: 100, n: 60 } },
  latencies: { data: histogram(60, 100) },
  answers: { "200": 60 },
  ...over,
});

describe("the soak's verdicts (npm run soak)", function () {
  it("measures growth along the least-squares line, so that one low or high sample does not decide", function () {
    expect(growth([0, 1, 2, 3], [100, 110, 120, 130])).to.be.closeTo(0.3, 1e-9);
    expect(growth([0, 1, 2, 3, 4], [100, 100, 60, 100, 100])).to.be.closeTo(0, 1e-9);
    // A sawtooth of garbage collections around a flat level is no creep.
    expect(growth([0, 1, 2, 3, 4], [100, 140, 100, 140, 100])).to.be.closeTo(0, 1e-9);
  });

  it("judges memory after a full GC and after the warm-up only, failing a creep over 10 % and passing a flat run", function () {
    const flat = [0, 60, 120, 180, 240, 300].map((t) => sample(t, { liveRssMiB: t < 120 ? 50 + t : 200, liveHeapMiB: 80 }));
    expect(memoryCriteria(flat, 120).map((c) => c.passed)).to.deep.equal([true, true]);
    const creeping = [0, 60, 120, 180, 240, 300].map((t) => sample(t, { liveHeapMiB: 80 + t / 10 }));
    const [rss, heap] = memoryCriteria(creeping, 60);
    expect(rss.passed).to.equal(true);
    expect(heap.passed, heap.detail).to.equal(false);
    expect(heap.value).to.be.closeTo(((110 - 92) / 92) * 100, 0.01);
    // The heap as scraped, garbage included, swings with the collections: it is drawn, not judged.
    const swinging = [0, 60, 120, 180, 240, 300].map((t, i) => sample(t, { heapUsedMiB: i % 2 ? 140 : 90 + t / 5 }));
    expect(memoryCriteria(swinging, 60).map((c) => c.passed)).to.deep.equal([true, true]);
    // Nothing to judge after the warm-up is a failure, not a pass.
    expect(memoryCriteria([sample(0), sample(60)], 60).every((c) => !c.passed)).to.equal(true);
  });

  it("reports the RSS of a run that took heap snapshots without judging it", function () {
    const grown = [0, 60, 120, 180].map((t) => sample(t, { liveRssMiB: t < 120 ? 200 : 480 }));
    const [rss, heap] = memoryCriteria(grown, 0, { rssJudged: false });
    expect(rss.passed).to.equal(true);
    expect(rss.detail).to.match(/^not judged \(heap snapshots were taken\)/);
    expect(heap.passed).to.equal(true);
    expect(memoryCriteria(grown, 0)[0].passed).to.equal(false);
  });

  it("pools windows until they hold enough requests, never across the restart, the rest joining the pool before", function () {
    // 200 requests a minute: a pool closes every third window.
    const minute = (t: number, over: Partial<Sample> = {}) => sample(t, { latencies: { data: histogram(200, 100) }, ...over });
    const samples = [60, 120, 180, 240, 300, 360, 420].map((t) => minute(t, { restart: t === 300 }));
    // 240's requests, cut off by the restart, are not judged; nor are 360 and 420's, with no pool after the restart to join.
    expect(pools(samples, "data").map((p) => [p.from, p.to, p.n])).to.deep.equal([[0, 180, 600]]);
    // Three windows more: a pool closes at 480, and 540 and 600 (400 requests) join it.
    const longer = [...samples, minute(480), minute(540), minute(600)];
    expect(pools(longer, "data").map((p) => [p.from, p.to, p.n])).to.deep.equal([
      [0, 180, 600],
      [300, 600, 1000],
    ]);
    expect(pools(longer, "data").every((p) => p.p99 >= 100 && p.p99 <= 102)).to.equal(true);
  });

  it("judges each family's p99 over pools of at least MIN_POOLED requests, against its first pool", function () {
    const pooled = Math.ceil(MIN_POOLED / 60);
    // One minute's slowest request at 1 s, as a stall of a loaded machine makes it: one window's p99, not a pool's.
    const samples = Array.from({ length: pooled * 3 }, (_, i) =>
      sample(60 * (i + 1), { latencies: { data: i === pooled + 1 ? histogram(59, 100, 1, 1_000) : histogram(60, 100) } }),
    );
    const [steady] = p99Criteria(samples);
    expect(steady.passed, steady.detail).to.equal(true);
    expect(steady.value).to.be.closeTo(1, 1e-9);
    expect(steady.detail).to.include("over 3 pools");
    // Slow in the last pool's tail (2 % of its requests at 151 ms, the first pool's p99 at 100 ms): more than 1.5×.
    const creeping = samples.map((s, i) => (i >= pooled * 2 ? sample(s.t, { latencies: { data: histogram(58, 100, 2, 153) } }) : s));
    const [failed] = p99Criteria(creeping);
    expect(failed.passed, failed.detail).to.equal(false);
    expect(failed.value).to.be.greaterThan(1.5);
    expect(failed.detail).to.match(/worst 15\d(\.\d)? ms/);
    // Too few requests for two pools: not judged, and said so.
    const [short] = p99Criteria(samples.slice(0, pooled));
    expect(short.passed).to.equal(true);
    expect(short.detail).to.include("not judged");
  });

  it("leaves the windows of the restart and of heap snapshots out of the p99s", function () {
    const pooled = Math.ceil(MIN_POOLED / 60);
    const slow = { latencies: { data: histogram(60, 5_000) } };
    const samples = Array.from({ length: pooled * 2 + 2 }, (_, i) =>
      sample(60 * (i + 1), i === pooled ? { restart: true, ...slow } : i === pooled + 1 ? { snapshot: true, ...slow } : {}),
    );
    const [judged] = p99Criteria(samples);
    expect(judged.passed, judged.detail).to.equal(true);
    expect(judged.value).to.be.closeTo(1, 1e-9);
    const [counted] = p99Criteria(samples.map((s) => ({ ...s, snapshot: false })));
    expect(counted.passed, counted.detail).to.equal(false);
  });

  it("fails a count that must be none, naming examples", function () {
    expect(noneCriterion("posts not stored", 0, [], "10 acknowledged").passed).to.equal(true);
    const failed = noneCriterion("posts not stored", 2, [{ tokenId: 7 }], "10 acknowledged");
    expect(failed.passed).to.equal(false);
    expect(failed.detail).to.include('"tokenId":7');
  });

  it("draws every series, the restart and the warm-up, with no point left undefined", function () {
    const samples = [
      sample(60),
      sample(120, { restart: true, p99: {}, latencies: {} }),
      sample(180, { p99: { data: { p99: 90, n: 3 }, login: { p99: 300, n: 9 } } }),
    ];
    const svg = drawSamples(samples, { title: "Soak <test>", warmupSeconds: 100 });
    expect(svg).to.match(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.trimEnd().endsWith("</svg>")).to.equal(true);
    expect(svg).to.include("Soak &lt;test&gt;");
    expect(svg).to.include("<title>PostgreSQL restart</title>");
    expect(svg).to.include('stroke-dasharray="4 3"');
    // RSS and heap as scraped and after a full GC, loop, load, two families, sockets, handles, connections.
    expect(svg.match(/<polyline /g)).to.have.length(11);
    expect(svg).not.to.match(/NaN|undefined|Infinity/);
  });
});
