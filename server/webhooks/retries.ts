/** The delay before the first retry; each next one doubles, up to `MAX_DELAY_MS`. */
export const FIRST_DELAY_MS = 30_000;
export const MAX_DELAY_MS = 6 * 3_600_000;
/** Each delay is drawn within this fraction either side of its step, so receivers that failed together do not retry together. */
const JITTER = 0.2;

/**
 * How long to wait after failed attempt number `attempt` (1 for the first failure): 30 s, 1, 2, 4, 8, 16, 32 min,
 * 1 h 4 min, 2 h 8 min, 4 h 16 min, then every 6 h, each ±20 %; a `Retry-After` the receiver sent (429, 503) is
 * honoured when longer, up to 6 h.
 */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, random = Math.random): number {
  const step = Math.min(FIRST_DELAY_MS * 2 ** Math.min(attempt - 1, 30), MAX_DELAY_MS);
  // Jittered after the step's cap, so that the 6 h retries spread too.
  const jittered = Math.round(step * (1 - JITTER + 2 * JITTER * random()));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_DELAY_MS));
}

/** A `Retry-After` header in milliseconds from `now`: seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d{1,9}$/.test(value)) return Number(value) * 1_000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
