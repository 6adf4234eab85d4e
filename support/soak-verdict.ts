/** The soak's samples and verdicts (bench/soak/), here so that the tests check the criteria without running a soak. */

/** One minute (or `--sample-seconds`) of the run, as the soak writes it and the verdict and the graph read it. */
export interface Sample {
  /** Seconds since the load started, at the end of the window. */
  t: number;
  at: string;
  rssMiB: number;
  heapUsedMiB: number;
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
  p99: Record<string, { p99: number; n: number }>;
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

/** RSS and heap after `warmupSeconds`: each grows by at most {@link MAX_GROWTH}. */
export function memoryCriteria(samples: Sample[], warmupSeconds: number): Criterion[] {
  const rest = samples.filter((s) => s.t > warmupSeconds);
  return (["rssMiB", "heapUsedMiB"] as const).map((key) => {
    const name = key === "rssMiB" ? "RSS" : "heap used";
    if (rest.length < 2)
      return {
        name: `${name} growth after the warm-up`,
        passed: false,
        detail: "fewer than 2 samples after the warm-up",
        value: NaN,
        unit: "",
        budget: "≤ 10 %",
      };
    const g = growth(
      rest.map((s) => s.t),
      rest.map((s) => s[key]),
    );
    return {
      name: `${name} growth after the warm-up`,
      passed: g <= MAX_GROWTH,
      detail: `${(g * 100).toFixed(1)} % over ${rest.length} samples (${rest[0][key]} MiB to ${rest[rest.length - 1][key]} MiB, most ${Math.max(...rest.map((s) => s[key]))} MiB)`,
      value: g * 100,
      unit: "%",
      budget: "≤ 10 %",
    };
  });
}

/** Each route family's p99 in every window outside the restart, against its first such window's. */
export function p99Criteria(samples: Sample[]): Criterion[] {
  const families = new Set(samples.flatMap((s) => Object.keys(s.p99)));
  return [...families].sort().map((family) => {
    const windows = samples.filter((s) => !s.restart && s.p99[family]);
    if (windows.length < 2)
      return {
        name: `p99 of ${family}`,
        passed: true,
        detail: "one window only: nothing to compare",
        value: NaN,
        unit: "×",
        budget: "≤ 1.5×",
      };
    const first = windows[0].p99[family].p99;
    const worst = windows.slice(1).reduce((w, s) => (s.p99[family].p99 > w.p99[family].p99 ? s : w));
    const ratio = worst.p99[family].p99 / Math.max(first, 1);
    return {
      name: `p99 of ${family}`,
      passed: ratio <= MAX_P99_RATIO,
      detail: `first window ${first} ms, worst ${worst.p99[family].p99} ms at ${worst.t} s (load ${worst.load1}), ${ratio.toFixed(2)}×`,
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
