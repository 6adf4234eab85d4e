import { expect } from "chai";
import { drawSamples } from "../../support/soak-graph";
import { growth, memoryCriteria, noneCriterion, p99Criteria, type Sample } from "../../support/soak-verdict";

/** A minute's sample with `over` changed: 100 MiB of RSS, 50 of heap, a family `data` at 100 ms. */
const sample = (t: number, over: Partial<Sample> = {}): Sample => ({
  t,
  at: new Date(t * 1000).toISOString(),
  rssMiB: 100,
  heapUsedMiB: 50,
  eventLoopP99Ms: 20,
  handles: 30,
  sockets: 20,
  databaseConnections: 5,
  load1: 2,
  restart: false,
  p99: { data: { p99: 100, n: 60 } },
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

  it("judges memory after the warm-up only, failing a creep over 10 % and passing a flat run", function () {
    const flat = [0, 60, 120, 180, 240, 300].map((t) => sample(t, { rssMiB: t < 120 ? 50 + t : 200, heapUsedMiB: 80 }));
    expect(memoryCriteria(flat, 120).map((c) => c.passed)).to.deep.equal([true, true]);
    const creeping = [0, 60, 120, 180, 240, 300].map((t) => sample(t, { heapUsedMiB: 80 + t / 10 }));
    const [rss, heap] = memoryCriteria(creeping, 60);
    expect(rss.passed).to.equal(true);
    expect(heap.passed, heap.detail).to.equal(false);
    expect(heap.value).to.be.closeTo(((110 - 92) / 92) * 100, 0.01);
    // Nothing to judge after the warm-up is a failure, not a pass.
    expect(memoryCriteria([sample(0), sample(60)], 60).every((c) => !c.passed)).to.equal(true);
  });

  it("compares each family's p99 with its first window outside the restart and leaves the restart's windows out", function () {
    const samples = [
      sample(60, { restart: true, p99: { data: { p99: 10, n: 5 } } }),
      sample(120),
      sample(180, { restart: true, p99: { data: { p99: 2_000, n: 60 } } }),
      sample(240, { p99: { data: { p99: 150, n: 60 } } }),
    ];
    const [passed] = p99Criteria(samples);
    expect(passed.passed, passed.detail).to.equal(true);
    expect(passed.value).to.equal(1.5);
    const [failed] = p99Criteria([...samples, sample(300, { p99: { data: { p99: 151, n: 60 } } })]);
    expect(failed.passed, failed.detail).to.equal(false);
    expect(failed.detail).to.include("at 300 s");
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
      sample(120, { restart: true, p99: {} }),
      sample(180, { p99: { data: { p99: 90, n: 3 }, login: { p99: 300, n: 9 } } }),
    ];
    const svg = drawSamples(samples, { title: "Soak <test>", warmupSeconds: 100 });
    expect(svg).to.match(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.trimEnd().endsWith("</svg>")).to.equal(true);
    expect(svg).to.include("Soak &lt;test&gt;");
    expect(svg).to.include("<title>PostgreSQL restart</title>");
    expect(svg).to.include('stroke-dasharray="4 3"');
    // RSS, heap, loop, load, two families, sockets, handles, connections.
    expect(svg.match(/<polyline /g)).to.have.length(9);
    expect(svg).not.to.match(/NaN|undefined|Infinity/);
  });
});
