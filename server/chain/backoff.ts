import type { JsonRpcProvider } from "ethers";
import { systemClock, type Clock } from "../lib/clock";
import { rateLimited } from "./errors";

/** Longest pause one 429 sets: a Retry-After of hours is a provider's outage, asked about again after this. */
const MAX_PAUSE_MS = 60_000;
/** The first pause after a 429 without Retry-After; each further one in a row doubles it. */
const FIRST_PAUSE_MS = 500;

/**
 * One provider's rate limit as the whole instance sees it: a 429 pauses every call to that provider, not only the one
 * refused, for the Retry-After the provider names (in seconds, or an HTTP date) or else for a pause that doubles with
 * each 429 in a row. A call waits out the pause and is sent again while its deadline allows; one whose deadline would
 * pass first fails at once with `upstream_rate_limited` (503). A network with other providers does not wait: it sends
 * elsewhere (`wait: false`, see ProviderPool).
 */
export class ProviderBackoff {
  pausedUntil = 0;
  private strikes = 0;

  constructor(
    private readonly network: string,
    private readonly timeoutMs: number,
    private readonly clock: Clock = systemClock,
  ) {}

  paused(now: number): boolean {
    return now < this.pausedUntil;
  }

  /** `send()` within the pause; `wait: false` sends at once and throws a 429 after recording its pause. */
  async run<T>(send: () => Promise<T>, { wait: waitOut = true } = {}): Promise<T> {
    const deadline = this.clock() + this.timeoutMs;
    for (;;) {
      const wait = this.pausedUntil - this.clock();
      if (wait > 0 && waitOut) {
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
        this.pausedUntil = Math.max(this.pausedUntil, this.clock() + pause);
        if (!waitOut) throw error;
      }
    }
  }
}

/**
 * Turns ethers' own 429 retries off for `provider`: they read Retry-After as milliseconds (12 calls in 50 ms for
 * "Retry-After: 2") and check the deadline before each wait, not after it. Its {@link ProviderBackoff} paces it instead.
 */
export function withoutEthersRetries(provider: JsonRpcProvider): void {
  provider._getConnection = ((getConnection) => () => {
    const request = getConnection();
    request.retryFunc = async () => false;
    return request;
  })(provider._getConnection.bind(provider));
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
  // An HTTP date is on the node's wall clock, so the wait until it is measured on ours; the pause then runs on the app's.
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
