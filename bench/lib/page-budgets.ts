import type { Row } from "./suite";

/**
 * The data pages' budgets against the latest-block route (the HTTP floor: no statement) in the same run, on
 * PostgreSQL: at least this share of its requests per second at 32 connections, and at most this multiple of its p99.
 * The indexer suite holds its pages to them, and the scale suite its pages at each of its sizes.
 */
export const PAGE_RATE_SHARE = 0.25;
export const PAGE_P99_MULTIPLE = 4;

/**
 * A page's two budgeted rows against the latest block measured beside it: its rate (`rateMetric`) and its p99
 * (`p99Metric`). `judged`: false where the budgets do not apply (off PostgreSQL), which the budget's text says.
 */
export function pageAgainstLatestBlock(options: {
  suite: string;
  rateMetric: string;
  p99Metric: string;
  page: { rps: number; p99: number };
  floor: { rps: number; p99: number };
  judged: boolean;
}): Row[] {
  const { suite, rateMetric, p99Metric, page, floor, judged } = options;
  const rate = page.rps / floor.rps;
  const p99 = page.p99 / floor.p99;
  const where = judged ? "" : " (on PostgreSQL)";
  return [
    {
      suite,
      metric: rateMetric,
      value: page.rps,
      unit: "req/s",
      reference: { label: "latest block", value: floor.rps },
      ratio: rate,
      budget: { text: `≥ ${PAGE_RATE_SHARE}${where}`, met: !judged || rate >= PAGE_RATE_SHARE },
    },
    {
      suite,
      metric: p99Metric,
      value: page.p99,
      unit: "ms",
      reference: { label: "latest block", value: floor.p99 },
      ratio: p99,
      budget: { text: `≤ ${PAGE_P99_MULTIPLE}${where}`, met: !judged || p99 <= PAGE_P99_MULTIPLE },
    },
  ];
}
