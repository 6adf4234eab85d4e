import { performance } from "node:perf_hooks";
import type { Answers } from "./answers";

/** How long a request of the soak may take before it counts as unanswered. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface Reply {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text when it is not JSON; undefined when unanswered. */
  body: unknown;
}

/**
 * One request of the soak to the service, timed and recorded in `answers` under `route` (the OpenAPI template, for the
 * documented errors) and `family` (for the p99). Redirects are not followed: a redirect is the answer.
 */
export async function send(
  answers: Answers,
  base: string,
  request: { family: string; route: string; path: string; init?: RequestInit },
): Promise<Reply> {
  const started = performance.now();
  try {
    const response = await fetch(`${base}${request.path}`, {
      redirect: "manual",
      ...request.init,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // a page or a redirect: kept as text
    }
    const error = response.status >= 400 ? errorCode(body) : undefined;
    answers.record({ family: request.family, route: request.route, ms: performance.now() - started, status: response.status, error });
    return { status: response.status, headers: response.headers, body };
  } catch {
    answers.record({ family: request.family, route: request.route, ms: performance.now() - started, status: 0 });
    return { status: 0, headers: new Headers(), body: undefined };
  }
}

/**
 * The code of an error answer: `error` of a JSON body, or the code a page names (oidc-provider's error page says
 * "code: description", the hosted sign-in page has it in `data-error`).
 */
function errorCode(body: unknown): string | undefined {
  if (body && typeof body === "object") return (body as { error?: string }).error;
  if (typeof body !== "string") return undefined;
  return (/ data-error="([a-z_]+)"/.exec(body) ?? /\b([a-z]+(?:_[a-z]+)+):/.exec(body))?.[1];
}

/** A JSON POST's init. */
export const jsonPost = (payload: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(payload),
});

/** A form POST's init (the token endpoint). */
export const formPost = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

/** Runs `each` again and again until `running()` turns false, pausing `pauseMs` between runs. */
export async function loop(running: () => boolean, pauseMs: number, each: () => Promise<unknown>): Promise<void> {
  while (running()) {
    await each();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/**
 * Runs `each` at most once every `periodMs` until `running()` turns false: at a steady rate while the service keeps
 * up, one run after the other (never two at once) when it does not.
 */
export async function paced(running: () => boolean, periodMs: number, each: () => Promise<unknown>): Promise<void> {
  while (running()) {
    const started = performance.now();
    await each();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + periodMs - performance.now())));
  }
}
