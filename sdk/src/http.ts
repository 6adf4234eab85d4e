import { ApiError } from "./errors.ts";
import { parseJson } from "./json.ts";

/** How refusals that say "later" (429, 503) are retried; `false` turns retries off. */
export interface RetryOptions {
  /** Attempts after the first (default 2). */
  retries?: number;
  /** The longest wait before one attempt (default 10 000 ms); a `Retry-After` beyond it is not waited for but thrown. */
  maxDelayMs?: number;
  /**
   * Waits `ms` before the next attempt, ending early with the signal's reason when it aborts. The default is a timer;
   * give another to schedule retries yourself (or, in tests, to move a fake clock).
   */
  wait?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

export interface ClientOptions {
  /** The service's origin, e.g. `https://login.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  retry?: RetryOptions | false;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** Statuses that mean "not now" rather than "not this". */
const RETRIED = [429, 503];
/** Without `Retry-After`: 500 ms, then twice as long each time. */
const FIRST_BACKOFF_MS = 500;

/** The HTTP side every part of the SDK shares: URLs, retries, refusals as {@link ApiError}. */
export class Http {
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly headers: Record<string, string>;
  private readonly retry: Required<RetryOptions> | undefined;
  /** How the SDK waits (the retry options' `wait`, else a timer). */
  readonly wait: (ms: number, signal: AbortSignal | undefined) => Promise<void>;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.headers = options.headers ?? {};
    this.retry = options.retry === false ? undefined : { retries: 2, maxDelayMs: 10_000, wait: waitFor, ...options.retry };
    this.wait = (options.retry && options.retry.wait) || waitFor;
  }

  /** The absolute URL of `path` (a path of the service, or a URL it gave, such as a `Link`). */
  url(path: string, query?: Record<string, string | number | boolean | undefined>): string {
    const url = new URL(/^https?:/.test(path) ? path : `${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  /** Sends the request once, with the client's headers, whatever its answer. */
  open(url: string, init: RequestInit & { signal?: AbortSignal } = {}): Promise<Response> {
    return this.fetch(url, { ...init, headers: { ...this.headers, ...(init.headers as Record<string, string>) } });
  }

  /** Sends the request (again on 429/503, as {@link RetryOptions} say) and resolves with a 2xx answer, else throws {@link ApiError}. */
  async send(url: string, init: RequestInit & { signal?: AbortSignal } = {}): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      init.signal?.throwIfAborted();
      const response = await this.open(url, init);
      if (response.ok) return response;
      const error = await refusal(response);
      const delay = error.retryAfterMs ?? FIRST_BACKOFF_MS * 2 ** attempt;
      if (!this.retry || !RETRIED.includes(response.status) || attempt >= this.retry.retries || delay > this.retry.maxDelayMs) throw error;
      await this.retry.wait(delay, init.signal);
    }
  }

  /** GET `url` as JSON, integers as decimal strings (json.ts). */
  async json<T>(
    url: string,
    options: CallOptions & { method?: string; headers?: Record<string, string> } = {},
  ): Promise<{ body: T; headers: Headers }> {
    const headers = { accept: "application/json", ...options.headers };
    const response = await this.send(url, { method: options.method, signal: options.signal, headers });
    return { body: parseJson(await response.text()) as T, headers: response.headers };
  }
}

/** The {@link ApiError} an answer that is not a 2xx stands for. */
export async function refusal(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  let code = "unexpected_response";
  let message = `HTTP ${response.status}`;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; error_description?: unknown };
    if (typeof body.error === "string") {
      code = body.error;
      const said = body.message ?? body.error_description;
      if (typeof said === "string") message = said;
    }
  } catch {
    // Not the service's JSON (a proxy's page): the status says what there is to say.
  }
  return new ApiError({
    status: response.status,
    code,
    message,
    retryAfterMs: retryAfterMs(response.headers.get("retry-after")),
    requestId: response.headers.get("x-request-id") ?? undefined,
  });
}

/** `Retry-After` as milliseconds from now: delay-seconds, or an HTTP date. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** A timer that ends early, rejecting with the signal's reason, when `signal` aborts. */
export function waitFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
