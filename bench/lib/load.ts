import autocannon from "autocannon";
import { expectAnswered } from "./answers";

/** The connections of a suite's HTTP loads: one width in every suite, so that their figures compare. */
export const CONNECTIONS = 32;

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface NextRequest {
  method?: "GET" | "POST";
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * HTTP load from this process: `connections` concurrent keep-alive connections for `seconds` (or until `amount`
 * requests). `next` makes each request differ (a counter shared by all connections: no request is sent twice).
 * `what` names the load in the error that stops the bench when a request is not answered with a 2xx (answers.ts).
 */
export async function load(options: {
  what: string;
  url: string;
  connections: number;
  seconds?: number;
  amount?: number;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  next?: () => NextRequest;
}): Promise<LoadResult> {
  const next = options.next;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount === undefined ? { duration: options.seconds } : { amount: options.amount }),
    method: options.method ?? "GET",
    body: options.body,
    headers: options.headers,
    requests: next
      ? [
          {
            setupRequest: (request: autocannon.Request) => {
              const made = next();
              return { ...request, ...made, headers: { ...request.headers, ...made.headers } };
            },
          },
        ]
      : undefined,
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count ?? 0]));
  expectAnswered(options.what, { failed: result.errors + result.timeouts, statuses });
  return { requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
