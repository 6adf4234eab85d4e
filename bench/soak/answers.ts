import { latencyBucket } from "../../support/soak-verdict";
import { percentile } from "../lib/load";

/** The error answers a route documents in the OpenAPI document, as `status code` (e.g. `503 database_busy`), by route. */
export type DocumentedErrors = Map<string, Set<string>>;

/** An answer that is not documented, or no answer at all: what made the "every error documented" criterion fail. */
export interface Undocumented {
  at: number;
  route: string;
  status: number;
  error?: string;
}

/**
 * What the soak's clients got back, per minute window: latencies per route family (for its p99), answers by status
 * and error code, and the undocumented ones. `take()` hands the window over and starts the next.
 */
export class Answers {
  private latencies = new Map<string, number[]>();
  private byCode = new Map<string, number>();
  readonly undocumented: Undocumented[] = [];
  /** Every answer of the run by `status code` (`200`, `503 database_busy`, `no answer`). */
  readonly total = new Map<string, number>();
  /** Every answer of the run by route, then by `status code`. */
  readonly byRoute = new Map<string, Map<string, number>>();

  constructor(private readonly documented: DocumentedErrors) {}

  /**
   * One answer of `route` (`GET /token/{network}/{contract}/{id}`), in `family`, after `ms`. `status` 0 is no answer
   * (the connection failed or timed out). A 2xx or 3xx is a success; an error is documented when the route's OpenAPI
   * responses list its status and code; a 500 never is, even though every route lists `internal_error`: it is a bug.
   */
  record({ family, route, ms, status, error }: { family: string; route: string; ms: number; status: number; error?: string }): void {
    const list = this.latencies.get(family) ?? [];
    list.push(ms);
    this.latencies.set(family, list);
    const key = status === 0 ? "no answer" : status < 400 ? String(status) : `${status} ${error ?? "?"}`;
    this.byCode.set(key, (this.byCode.get(key) ?? 0) + 1);
    this.total.set(key, (this.total.get(key) ?? 0) + 1);
    const ofRoute = this.byRoute.get(route) ?? new Map<string, number>();
    ofRoute.set(key, (ofRoute.get(key) ?? 0) + 1);
    this.byRoute.set(route, ofRoute);
    if (status >= 400 || status === 0) {
      const ok = status !== 500 && status !== 0 && this.documented.get(route)?.has(`${status} ${error}`);
      if (!ok) this.undocumented.push({ at: Date.now(), route, status, error });
    }
  }

  /**
   * The window's p99 (ms), request count and latency histogram per family, and its answers by status and code; then a
   * new window.
   */
  take(): {
    p99: Record<string, { p99: number; n: number }>;
    latencies: Record<string, Record<string, number>>;
    answers: Record<string, number>;
  } {
    const p99 = Object.fromEntries(
      [...this.latencies].map(([family, values]) => [family, { p99: Math.round(percentile(values, 99) * 10) / 10, n: values.length }]),
    );
    // The window's latencies as histograms, so that the verdict can pool windows into p99s of enough requests.
    const latencies = Object.fromEntries(
      [...this.latencies].map(([family, values]) => {
        const histogram: Record<string, number> = {};
        for (const ms of values) histogram[latencyBucket(ms)] = (histogram[latencyBucket(ms)] ?? 0) + 1;
        return [family, histogram];
      }),
    );
    const answers = Object.fromEntries(this.byCode);
    this.latencies = new Map();
    this.byCode = new Map();
    return { p99, latencies, answers };
  }
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
}

/** The error codes each route of the service's OpenAPI document lists, per status (`enum` of the error body). */
export function documentedErrors(document: OpenApiDocument): DocumentedErrors {
  const documented: DocumentedErrors = new Map();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const set = new Set<string>();
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) {
          for (const code of errorCodes(media.schema)) set.add(`${status} ${code}`);
        }
      }
      documented.set(`${method.toUpperCase()} ${path}`, set);
    }
  }
  return documented;
}

/** The `error` enum of an error body's schema (`anyOf`s of them included). */
function errorCodes(schema: unknown): string[] {
  if (!schema || typeof schema !== "object") return [];
  const s = schema as { properties?: { error?: { enum?: string[] } }; anyOf?: unknown[]; oneOf?: unknown[] };
  return [...(s.properties?.error?.enum ?? []), ...[...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(errorCodes)];
}
