import type { JsonRpcProvider } from "ethers";
import { rateLimited } from "./errors";

/** Longest pause one 429 sets: a Retry-After of hours is a provider's outage, asked about again after this. */
const MAX_PAUSE_MS = 60_000;
/** The first pause after a 429 without Retry-After; each further one in a row doubles it. */
const FIRST_PAUSE_MS = 500;

/** The backoff of each throttled provider, for the calls that bypass ethers (`rawRpc`). */
const backoffs = new WeakMap<object, ProviderBackoff>();

/**
 * One provider's rate limit as the whole instance sees it: a 429 pauses every call to that provider, not only the one
 * refused, for the Retry-After the provider names (in seconds, or an HTTP date) or else for a pause that doubles with
 * each 429 in a row. A call waits out the pause and is sent again while its deadline allows; one whose deadline would
 * pass first fails at once with `upstream_rate_limited` (503).
 */
export class ProviderBackoff {
  private pausedUntil = 0;
  private strikes = 0;

  constructor(
    private readonly network: string,
    private readonly timeoutMs: number,
  ) {}

  async run<T>(send: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) {
        if (this.pausedUntil >= deadline) throw rateLimited(this.network, Math.ceil(wait / 1000));
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      try {
        const result = await send();
        this.strikes = 0;
        return result;
      } catch (error) {
        const retryAfterMs = rateLimitOf(error);
        if (retryAfterMs === undefined) throw error;
        const pause = Math.min(MAX_PAUSE_MS, retryAfterMs ?? FIRST_PAUSE_MS * 2 ** this.strikes);
        this.strikes++;
        this.pausedUntil = Math.max(this.pausedUntil, Date.now() + pause);
      }
    }
  }
}

/**
 * Puts every call of `provider` through one {@link ProviderBackoff}. ethers' own 429 retries are turned off: they read
 * Retry-After as milliseconds (12 calls in 50 ms for "Retry-After: 2") and check the deadline before each wait, not
 * after it.
 */
export function throttleProvider(provider: JsonRpcProvider, backoff: ProviderBackoff): void {
  provider._getConnection = ((getConnection) => () => {
    const request = getConnection();
    request.retryFunc = async () => false;
    return request;
  })(provider._getConnection.bind(provider));
  const send = provider._send.bind(provider);
  provider._send = (payload) => backoff.run(() => send(payload));
  backoffs.set(provider, backoff);
}

/** `send` through the backoff of `provider` (when it is throttled). */
export function throttled<T>(provider: JsonRpcProvider, send: () => Promise<T>): Promise<T> {
  const backoff = backoffs.get(provider);
  return backoff ? backoff.run(send) : send();
}

/**
 * For an HTTP 429: the pause its Retry-After asks for (ms), or null without a usable one; undefined for any other
 * error. Reads ethers' errors (`response`) and rawRpc's alike.
 */
export function rateLimitOf(error: unknown): number | null | undefined {
  const response = (error as { response?: { statusCode?: number; headers?: Record<string, string> } } | null)?.response;
  if (response?.statusCode !== 429) return undefined;
  const header = response.headers?.["retry-after"]?.trim();
  if (!header) return null;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
