import type { Queryable } from "../db/database";
import { BoundedCache } from "../lib/bounded-cache";
import { DomainError } from "../lib/domain-error";

/** A requester's count in the current window, this request included, and the milliseconds until the window ends. */
export interface RateCount {
  current: number;
  ttl: number;
}

/** Counts requests per family of routes, requester and fixed window (`now` rounded down to a multiple of `windowMs`). */
export interface RateCounts {
  /**
   * `max`: the family's limit, past which the requester is refused until the window ends. A promise whatever the store:
   * @fastify/rate-limit awaits each count anyway, so the memory store's resolved promise costs one microtask, no wait.
   */
  count(family: string, requester: string, now: number, windowMs: number, max: number): Promise<RateCount>;
  /**
   * For a route whose own statement counts its request ({@link StatementCount}): the count that statement is to make,
   * "refused" when this instance knows the requester is past `max` in this window, or undefined when the count must be
   * made now with {@link count} (a store without a shared table, or one counting in memory while the database fails).
   */
  countInStatement?(family: string, requester: string, now: number, windowMs: number, max: number): StatementCount | "refused" | undefined;
}

/**
 * A request counted by its route's own statement rather than by one of its own (a login's requests: docs/reference/login.md):
 * the statement adds one to the requester's row of `request_windows` for this window, and does its work only when the
 * new count is at most `max`. The key of the row, and the limit, as the statement's parameters.
 */
export interface StatementCount {
  family: string;
  requester: string;
  /** Milliseconds since the epoch, a multiple of the window's length. */
  windowStart: number;
  max: number;
  /** Milliseconds until the window ends, when this request came. */
  ttl: number;
  /** The count the statement made (this request included); undefined until one did. */
  readonly current: number | undefined;
  /** Called by the statement's caller with the count it returned: once. */
  counted(current: number): void;
}

/** The refusal of a request past its limit (`ttlMs`: until the window ends), as every route words it. */
export function tooManyRequests(ttlMs: number): DomainError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new DomainError("too_many", "too_many_requests", `Rate limit exceeded, retry in ${seconds} seconds`, seconds);
}

/** Requesters one family counts at once in memory: beyond it the least recently counted are forgotten (a bound on memory). */
const MAX_REQUESTERS = 100_000;

/** The counts of this process alone: the store of a single-process service (PGlite), and the shared store's fallback. */
export class MemoryRateCounts implements RateCounts {
  private readonly families = new Map<string, BoundedCache<{ count: number; start: number }>>();

  async count(family: string, requester: string, now: number, windowMs: number): Promise<RateCount> {
    const start = now - (now % windowMs);
    const count = (this.known(family, requester, start) ?? 0) + 1;
    this.set(family, requester, start, count);
    return { current: count, ttl: start + windowMs - now };
  }

  /** The requester's count in the window beginning at `start`, if this process has one. */
  known(family: string, requester: string, start: number): number | undefined {
    const window = this.families.get(family)?.get(requester);
    return window?.start === start ? window.count : undefined;
  }

  set(family: string, requester: string, start: number, count: number): void {
    let counts = this.families.get(family);
    if (!counts) this.families.set(family, (counts = new BoundedCache(MAX_REQUESTERS)));
    counts.set(requester, { count, start });
  }
}

export interface SharedRateCountsOptions {
  /** How long a count may take before this request is counted in memory instead (ms). */
  timeoutMs: number;
  /** After a count failed or timed out, how long counts stay in memory before the database is tried again (ms). */
  retryAfterMs: number;
  /** Called once per request counted in memory instead of in the database. */
  onFallback(error: unknown): void;
}

/** Past windows one sweep deletes at most: a sweep is one short statement, whatever the table holds. */
export const SWEEP_ROWS = 1_000;

/** Counts one statement adds at most: the rest wait for the next. */
export const BATCH_COUNTS = 500;
/** Counts that may wait for a statement at once (a bound on memory while the database is slow): beyond, in memory. */
const MAX_WAITING = 10_000;

// The windows in the order they are given (sorted: two instances' batches lock their rows in the same order, so they
// cannot deadlock), each added its number of requests; a window comes back with its new count.
const COUNT = `INSERT INTO request_windows AS w (family, requester, window_start, count)
  SELECT family, requester, window_start, n FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) WITH ORDINALITY
    AS c(family, requester, window_start, n, i) ORDER BY i
  ON CONFLICT (family, requester, window_start) DO UPDATE SET count = w.count + EXCLUDED.count
  RETURNING family, requester, window_start, count`;
const SWEEP = `DELETE FROM request_windows WHERE ctid = ANY(ARRAY(
  SELECT ctid FROM request_windows WHERE window_start < $1 LIMIT ${SWEEP_ROWS}))`;

/**
 * The counts every instance on the database shares (the `request_windows` table): one statement per counted request,
 * an UPSERT that returns the new count. A database that fails or is slow must not turn each limited request into an
 * error or a wait: the request is then counted in this process's memory (a limit per instance, as before the counts
 * were shared) and `onFallback` is told; the database is tried again `retryAfterMs` later.
 */
export class SharedRateCounts implements RateCounts {
  private retryAt = -Infinity;
  /**
   * The requesters this instance saw past their limit, with the window they are refused in: counts only grow within a
   * window, so their next requests are refused here without a statement, and a flood from one address costs the
   * database one statement per instance and minute once it is refused.
   */
  private readonly refused = new MemoryRateCounts();
  /** Counts waiting for the statement in flight to end, by window. */
  private waiting = new Map<string, { family: string; requester: string; start: number; waiters: Waiter[] }>();
  private waitingCount = 0;
  private inFlight = false;
  /** The window start of the last sweep this instance began. */
  private sweptAt = -Infinity;

  constructor(
    private readonly db: Queryable,
    private readonly fallback: MemoryRateCounts,
    private readonly options: SharedRateCountsOptions,
  ) {}

  async count(family: string, requester: string, now: number, windowMs: number, max: number): Promise<RateCount> {
    const start = now - (now % windowMs);
    const over = this.refused.known(family, requester, start);
    if (over) return this.refused.count(family, requester, now, windowMs);
    if (now < this.retryAt) return this.counted(family, requester, now, windowMs, undefined);
    if (start > this.sweptAt) void this.sweep(start, windowMs);
    try {
      const current = await within(this.shared(family, requester, start), this.options.timeoutMs);
      if (current > max) this.refused.set(family, requester, start, current);
      return { current, ttl: start + windowMs - now };
    } catch (error) {
      this.retryAt = now + this.options.retryAfterMs;
      return this.counted(family, requester, now, windowMs, error);
    }
  }

  countInStatement(family: string, requester: string, now: number, windowMs: number, max: number): StatementCount | "refused" | undefined {
    const start = now - (now % windowMs);
    if (this.refused.known(family, requester, start)) {
      void this.refused.count(family, requester, now, windowMs);
      return "refused";
    }
    if (now < this.retryAt) return undefined;
    if (start > this.sweptAt) void this.sweep(start, windowMs);
    const refused = this.refused;
    let current: number | undefined;
    return {
      family,
      requester,
      windowStart: start,
      max,
      ttl: start + windowMs - now,
      get current() {
        return current;
      },
      counted(count) {
        current = count;
        // As for a count of its own: this instance refuses the requester's next requests of the window at once.
        if (count > max) refused.set(family, requester, start, count);
      },
    };
  }

  /**
   * The count of this request, from one statement for all the counts that arrived while the previous one ran: one
   * statement at a time per instance, so under load each carries many requests, and alone a request does not wait.
   */
  private shared(family: string, requester: string, start: number): Promise<number> {
    if (this.waitingCount >= MAX_WAITING) return Promise.reject(new Error(`${MAX_WAITING} counts already wait for the database`));
    return new Promise<number>((resolve, reject) => {
      const key = JSON.stringify([family, requester, start]);
      let window = this.waiting.get(key);
      if (!window) this.waiting.set(key, (window = { family, requester, start, waiters: [] }));
      window.waiters.push({ resolve, reject });
      this.waitingCount++;
      if (!this.inFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.inFlight = true;
    try {
      await this.flushWaiting();
    } finally {
      this.inFlight = false;
    }
  }

  private async flushWaiting(): Promise<void> {
    while (this.waiting.size > 0) {
      const batch: { key: string; family: string; requester: string; start: number; waiters: Waiter[] }[] = [];
      for (const [key, window] of this.waiting) {
        if (batch.length >= BATCH_COUNTS) break;
        batch.push({ key, ...window });
        this.waiting.delete(key);
        this.waitingCount -= window.waiters.length;
      }
      batch.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      try {
        const { rows } = await this.db.query<{ family: string; requester: string; window_start: string; count: number }>(
          COUNT,
          [batch.map((w) => w.family), batch.map((w) => w.requester), batch.map((w) => w.start), batch.map((w) => w.waiters.length)],
          { prepare: true },
        );
        const counts = new Map(rows.map((row) => [JSON.stringify([row.family, row.requester, Number(row.window_start)]), row.count]));
        for (const window of batch) {
          const total = counts.get(window.key);
          // Each request of the window gets its own place among the counts the statement added.
          window.waiters.forEach(({ resolve, reject }, i) =>
            total === undefined ? reject(new Error("the count was not returned")) : resolve(total - window.waiters.length + i + 1),
          );
        }
      } catch (error) {
        for (const window of batch) for (const { reject } of window.waiters) reject(error);
      }
    }
  }

  private counted(family: string, requester: string, now: number, windowMs: number, error: unknown): Promise<RateCount> {
    this.options.onFallback(error);
    return this.fallback.count(family, requester, now, windowMs);
  }

  /**
   * Deletes windows that ended before the previous one (instances' clocks may differ a little), at most
   * {@link SWEEP_ROWS}, once per window and instance; a full sweep means more are left, swept on the next request.
   * A request does not wait for it, and a failed sweep is tried again with the next window. Resolves to the rows deleted.
   */
  sweep(start: number, windowMs: number): Promise<number> {
    this.sweptAt = start;
    return this.db.query(SWEEP, [start - windowMs], { prepare: true }).then(
      ({ rowCount }) => {
        if (rowCount >= SWEEP_ROWS && this.sweptAt === start) this.sweptAt = -Infinity;
        return rowCount;
      },
      () => 0,
    );
  }
}

interface Waiter {
  resolve(count: number): void;
  reject(error: unknown): void;
}

/** `promise`, or a rejection after `ms` (the promise itself still runs to its end). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
