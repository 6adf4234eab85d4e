import autocannon from "autocannon";

/** One line of the benchmark table. */
export interface Row {
  suite: string;
  metric: string;
  value: number;
  unit: string;
  /** What the figure is measured against in the same run (the limit of the machine or the floor). */
  reference?: { label: string; value: number };
  /** value / reference, or reference / value for "lower is better" metrics; see `ratioLabel`. */
  ratio?: number;
  /** The budget of the issue, e.g. "≥ 0.25" or "≤ 50 ms", and whether this run met it. */
  budget?: { text: string; met: boolean };
}

export interface Suite {
  name: string;
  /** What the suite needs, e.g. "PostgreSQL"; shown when it cannot run. */
  run(context: BenchContext): Promise<Row[]>;
}

export interface BenchContext {
  /** Seconds each HTTP load lasts (BENCH_SECONDS, default 5). */
  seconds: number;
  /** Whether the service runs on PostgreSQL (DATABASE_URL) or the embedded PGlite. */
  database: "PostgreSQL" | "PGlite";
  log(message: string): void;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** HTTP load from this process: `connections` concurrent keep-alive connections for `seconds`. */
export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** Different requests in turn (e.g. each a different path). */
  requests?: autocannon.Request[];
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? "GET",
    body: options.body,
    headers: options.headers,
    requests: options.requests,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Rounds for display: large numbers to integers, small ones to 3 significant digits. */
export function fmt(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  return Number(value.toPrecision(3)).toString();
}

export function printTable(rows: Row[], out: (line: string) => void = console.log): void {
  const header = ["suite", "metric", "value", "reference", "ratio", "budget"];
  const cells = rows.map((row) => [
    row.suite,
    row.metric,
    `${fmt(row.value)} ${row.unit}`,
    row.reference ? `${fmt(row.reference.value)} ${row.unit} (${row.reference.label})` : "",
    row.ratio === undefined ? "" : fmt(row.ratio),
    row.budget ? `${row.budget.text} ${row.budget.met ? "✓" : "✗ MISSED"}` : "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(" | ")} |`;
  out(line(header));
  out(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const c of cells) out(line(c));
}
