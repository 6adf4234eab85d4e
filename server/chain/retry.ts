import { upstreamError } from "./errors";

export interface RetryOptions {
  /** Tries in all, the first included. */
  attempts?: number;
  /** The pause after the first failure; each further one doubles it, up to `maxPauseMs`. */
  firstPauseMs?: number;
  maxPauseMs?: number;
  /** A node failure that must not be tried again as it is (a range to ask smaller): the caller handles it. */
  giveUp?: (error: unknown) => boolean;
}

/**
 * `call()`, tried again after a node failure (transport, HTTP, JSON-RPC error, timeout, rate limit) with a pause that
 * doubles, a bounded number of times; the last failure is thrown as the chain's upstream error. Anything else (a
 * bug of ours) is thrown at once. With a fifth of the calls failing, a step of ten calls would otherwise rarely get
 * through whole.
 */
export async function retryUpstream<T>(
  network: string,
  call: () => Promise<T>,
  { attempts = 5, firstPauseMs = 100, maxPauseMs = 2_000, giveUp = () => false }: RetryOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const upstream = upstreamError(error, network);
      if (!upstream || giveUp(error)) throw error;
      if (attempt >= attempts) throw upstream;
      await new Promise((resolve) => setTimeout(resolve, Math.min(maxPauseMs, firstPauseMs * 2 ** (attempt - 1))));
    }
  }
}
