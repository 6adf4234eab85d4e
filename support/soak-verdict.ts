/** The soak's samples and verdicts (bench/soak/), here so that the tests check the criteria without running a soak. */

/** One minute (or `--sample-seconds`) of the run, as the soak writes it and the verdict and the graph read it. */
export interface Sample {
  /** Seconds since the load started, at the end of the window. */
  t: number;
  at: string;
  rssMiB: number;
  heapUsedMiB: number;
  /** RSS right after a full garbage collection (forced through the service's inspector), after the scrape above. */
  liveRssMiB: number;
  /** Heap used right after that collection: what the service still holds. */
  liveHeapMiB: number;
  /** Each V8 heap space's used size after that collection. */
  heapSpacesMiB: Record<string, number>;
  /** The event loop's delay p99 over the window (prom-client's histogram, reset at each scrape). */
  eventLoopP99Ms: number;
  handles: number;
  /** Sockets among the service's open file descriptors (clients, the database pool, the node, the metadata hosts). */
  sockets: number;
  /** The service's connections to its database, as PostgreSQL's pg_stat_activity counts them. */
  databaseConnections: number;
  /** The machine's 1-minute load average. */
  load1: number;
  /** Whether the PostgreSQL restart (from pg_ctl's start to its return) overlaps this window: its p99s are not judged. */
  restart: boolean;
  /** Whether a heap snapshot (`--heap-snapshot-minutes`), which pauses the service for seconds, was taken in this window. */
  snapshot?: boolean;
  /** The window's own p99 (ms) and request count per route family, as drawn; the verdict pools windows instead. */
  p99: Record<string, { p99: number; n: number }>;
  /** Per route family, the window's latencies as a histogram: {@link latencyBucket} → count. */
  latencies: Record<string, Record<string, number>>;
  answers: Record<string, number>;
}

export interface Criterion {
  name: string;
  passed: boolean;
  /** The figures behind the verdict, for people. */
  detail: string;
  /** The figure the budget judges (a growth, a ratio, a count) and the budget, for the benchmarks page. */
  value: number;
  unit: string;
  budget: string;
}

/** Growth allowed to RSS and heap after the warm-up, and the p99 ratio allowed to a route family. */
export const MAX_GROWTH = 0.1;
export const MAX_P99_RATIO = 1.5;

/**
 * How much `values` (at times `ts`) grow over the span, as the least-squares line through them says: from the
 * line's value at the first time to its value at the last, relative to the first. A line, not the last sample
 * against the first, so that one garbage collection just before a sample neither hides nor fakes a creep.
 */
export function growth(ts: number[], values: number[]): number {
  const n = ts.length;
  const mt = ts.reduce((a, b) => a + b, 0) / n;
  const mv = values.reduce((a, b) => a + b, 0) / n;
  const slope =
    ts.reduce((sum, t, i) => sum + (t - mt) * (values[i] - mv), 0) /
    Math.max(
      1e-9,
      ts.reduce((sum, t) => sum + (t - mt) ** 2, 0),
    );
  const first = mv + slope * (ts[0] - mt);
  return (slope * (ts[n - 1] - ts[0])) / first;
}

/**
 * RSS and heap used right after a full garbage collection, after `warmupSeconds`: each grows by at most
 * {@link MAX_GROWTH}. After a collection, because the heap as scraped counts the garbage the last collection left,
 * which swings by a third from one minute to the next with the load, not with what the service holds. `rssJudged`
 * false (a run that took heap snapshots, whose memory stays in the process) reports the RSS without judging it.
 */
export function memoryCriteria(samples: Sample[], warmupSeconds: number, { rssJudged = true } = {}): Criterion[] {
  const rest = samples.filter((s) => s.t > warmupSeconds);
  return (["liveRssMiB", "liveHeapMiB"] as const).map((key) => {
    const name = `${key === "liveRssMiB" ? "RSS" : "heap used"} after a full GC, growth after the warm-up`;
    if (rest.length < 2)
      return { name, passed: false, detail: "fewer than 2 samples after the warm-up", value: NaN, unit: "", budget: "≤ 10 %" };
    const g = growth(
      rest.map((s) => s.t),
      rest.map((s) => s[key]),
    );
    const figures = `${(g * 100).toFixed(1)} % over ${rest.length} samples (${rest[0][key]} MiB to ${rest[rest.length - 1][key]} MiB, most ${Math.max(...rest.map((s) => s[key]))} MiB)`;
    if (key === "liveRssMiB" && !rssJudged)
      return { name, passed: true, detail: `not judged (heap snapshots were taken): ${figures}`, value: NaN, unit: "%", budget: "≤ 10 %" };
    return { name, passed: g <= MAX_GROWTH, detail: figures, value: g * 100, unit: "%", budget: "≤ 10 %" };
  });
}

/** The ratio between a latency bucket's bounds: a p99 read from the histograms is at most 2 % above the true one. */
export const BUCKET_RATIO = 1.02;

/** The histogram bucket of a latency of `ms`: bucket i holds (BUCKET_RATIO^(i-1), BUCKET_RATIO^i] ms, bucket 0 up to 1 ms. */
export function latencyBucket(ms: number): number {
  return ms <= 1 ? 0 : Math.ceil(Math.log(ms) / Math.log(BUCKET_RATIO));
}

/**
 * The fewest requests a p99 is judged on. A p99 is the ⌈n/100⌉-th slowest of n requests: of one minute's 10 to 60
 * requests it is the slowest, which one stall of a loaded machine decides; of 500 it is the fifth slowest, which one
 * stall does not move.
 */
export const MIN_POOLED = 500;

/** The p99 (ms, the upper bound of its bucket) of a histogram holding `n` latencies. */
function histogramP99(histogram: Map<number, number>, n: number): number {
  const rank = Math.ceil(0.99 * n);
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket)!;
    if (seen >= rank) return Math.round(BUCKET_RATIO ** bucket * 10) / 10;
  }
  return NaN;
}

/** Consecutive windows whose latencies of one family are judged together. */
export interface Pool {
  from: number;
  to: number;
  n: number;
  p99: number;
  /** The machine's highest 1-minute load average over the pool's windows. */
  load: number;
}

/**
 * One family's windows pooled in order, each pool closed once it holds {@link MIN_POOLED} requests. A window the
 * restart overlaps (or a heap snapshot paused) is left out and closes the pool before it (a pool never spans the restart); what is left at the end,
 * fewer than MIN_POOLED, joins the pool before it unless the restart lies between.
 */
export function pools(samples: Sample[], family: string): Pool[] {
  const closed: Array<Pool & { histogram: Map<number, number> }> = [];
  let open: (Pool & { histogram: Map<number, number> }) | undefined;
  let restartSinceClosed = false;
  const add = (pool: Pool & { histogram: Map<number, number> }, sample: Sample, histogram: Record<string, number>, start: number) => {
    if (pool.n === 0) pool.from = start;
    pool.to = sample.t;
    pool.load = Math.max(pool.load, sample.load1);
    for (const [bucket, count] of Object.entries(histogram)) {
      pool.histogram.set(Number(bucket), (pool.histogram.get(Number(bucket)) ?? 0) + count);
      pool.n += count;
    }
  };
  samples.forEach((sample, i) => {
    if (sample.restart || sample.snapshot) {
      open = undefined;
      restartSinceClosed = true;
      return;
    }
    const histogram = sample.latencies[family];
    if (!histogram) return;
    open ??= { from: 0, to: 0, n: 0, p99: NaN, load: 0, histogram: new Map() };
    add(open, sample, histogram, i === 0 ? 0 : samples[i - 1].t);
    if (open.n >= MIN_POOLED) {
      closed.push(open);
      open = undefined;
      restartSinceClosed = false;
    }
  });
  const last = closed[closed.length - 1];
  if (open && last && !restartSinceClosed) {
    last.to = open.to;
    last.load = Math.max(last.load, open.load);
    last.n += open.n;
    for (const [bucket, count] of open.histogram) last.histogram.set(bucket, (last.histogram.get(bucket) ?? 0) + count);
  }
  return closed.map(({ histogram, ...pool }) => ({ ...pool, p99: histogramP99(histogram, pool.n) }));
}

/**
 * Each route family's p99, over pools of at least {@link MIN_POOLED} requests (see {@link pools}), against its first
 * pool's: the first window outside the restart, extended until its p99 means something.
 */
export function p99Criteria(samples: Sample[]): Criterion[] {
  const families = new Set(samples.flatMap((s) => Object.keys(s.latencies)));
  return [...families].sort().map((family) => {
    const judged = pools(samples, family);
    if (judged.length < 2) {
      const n = samples.reduce((sum, s) => sum + (s.restart || s.snapshot ? 0 : (s.p99[family]?.n ?? 0)), 0);
      return {
        name: `p99 of ${family}`,
        passed: true,
        detail: `not judged: ${n} requests outside the restart, fewer than two pools of ${MIN_POOLED}`,
        value: NaN,
        unit: "×",
        budget: "≤ 1.5×",
      };
    }
    const [first, ...rest] = judged;
    const worst = rest.reduce((w, pool) => (pool.p99 > w.p99 ? pool : w));
    const ratio = worst.p99 / Math.max(first.p99, 1);
    const span = (pool: Pool) => `${pool.from}–${pool.to} s, ${pool.n} requests, load ≤ ${pool.load}`;
    return {
      name: `p99 of ${family}`,
      passed: ratio <= MAX_P99_RATIO,
      detail: `first pool ${first.p99} ms (${span(first)}), worst ${worst.p99} ms (${span(worst)}), ${ratio.toFixed(2)}× over ${judged.length} pools`,
      value: ratio,
      unit: "×",
      budget: "≤ 1.5×",
    };
  });
}

/** A count that must be 0 (undocumented errors, unredeemed codes, posts not stored). */
export function noneCriterion(name: string, count: number, examples: unknown[], of: string): Criterion {
  return {
    name,
    passed: count === 0,
    detail: count === 0 ? `none (${of})` : `${count} (${of}); e.g. ${JSON.stringify(examples.slice(0, 5))}`,
    value: count,
    unit: "",
    budget: "0",
  };
}
