import { fmt, type Row } from "../../support/bench-report";

export { fmt, type Row } from "../../support/bench-report";

/** A benchmark suite: its name is its file's in bench/suites/, as SUITES in bench/run.ts lists it. */
export interface Suite {
  /** Runs only when named (`npm run bench -- scale`): it takes long. */
  onlyWhenNamed?: boolean;
  /** How it measures, one sentence a line: docs/reference/benchmarks.md shows it above the suite's figures. */
  method: string[];
  run(context: BenchContext): Promise<Row[]>;
}

export interface BenchContext {
  /** Seconds each HTTP load lasts (BENCH_SECONDS, default 5; 1 in the smoke). */
  seconds: number;
  /**
   * The smoke run (`npm run bench -- --smoke`, in CI): every suite on small data with short loads, to show that it
   * still runs; its figures say nothing and its budgets are not judged.
   */
  smoke: boolean;
  /** Whether the service runs on PostgreSQL (DATABASE_URL) or the embedded PGlite. */
  database: "PostgreSQL" | "PGlite";
  /** The git ref whose code a suite's "before" runs (`--before <ref>`, default DEFAULT_BEFORE_REF in before.ts). */
  beforeRef: string;
  /** `--profile`: the suites that can also write a CPU profile of the service and a summary of it (login by layer, events by function). */
  profile: boolean;
  log(message: string): void;
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
