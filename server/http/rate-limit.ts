import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { BoundedCache } from "../lib/bounded-cache";
import type { Clock } from "../lib/clock";
import { requesterOf } from "../lib/requester";

declare module "fastify" {
  interface FastifyInstance {
    /** The shared count of a family of routes ({@link limitRequests}), one per name. */
    requestWindows(family: string): RequestWindows;
  }
}

/** Requesters one family counts at once: beyond it the least recently counted are forgotten (a bound on memory). */
const MAX_REQUESTERS = 100_000;
const WINDOW_MS = 60_000;

/**
 * A count per requester in fixed one-minute windows, for every route it is given to: @fastify/rate-limit's own
 * store keeps one count per route, and a family of routes (all the data routes) has one budget.
 */
export class RequestWindows implements FastifyRateLimitStore {
  private readonly counts = new BoundedCache<{ count: number; start: number }>(MAX_REQUESTERS);

  constructor(private readonly now: Clock) {}

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
    const now = this.now();
    const known = this.counts.get(key);
    const window = known && known.start + timeWindow > now ? known : { count: 0, start: now };
    window.count++;
    this.counts.set(key, window);
    callback(null, { current: window.count, ttl: window.start + timeWindow - now });
  }

  child(): RequestWindows {
    return this;
  }
}

export interface LimitOptions {
  /** Requests per minute and requester. */
  max: number;
  /** Every route of the scope, or only those whose `config` has `rateLimit: {}`. */
  global: boolean;
  /** Counts shared by every route of this name, in any scope; without it each route counts on its own. */
  family?: string;
}

/**
 * Counts the requests of `scope`'s routes per requester (the client address as TRUST_PROXY resolves it, an IPv6
 * address by its /64) and minute; past `max`, 429 `too_many_requests` with Retry-After. Counters are per instance: a
 * limit against floods from one address, not an exact budget across instances.
 */
export async function limitRequests(scope: FastifyInstance, { max, global, family }: LimitOptions): Promise<void> {
  await scope.register(rateLimit, {
    global,
    max,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => requesterOf(request.ip),
    ...(family ? { store: storeOf(scope.requestWindows(family)) } : {}),
  });
}

/** The plugin builds its store with `new`: a constructor that returns an object gives that object. */
function storeOf(windows: RequestWindows): FastifyRateLimitStoreCtor {
  return function store() {
    return windows;
  } as unknown as FastifyRateLimitStoreCtor;
}

/** `app.requestWindows`: the counts of the route families, read on the app's clock. */
export default fp(
  async function requestWindows(app: FastifyInstance) {
    const families = new Map<string, RequestWindows>();
    app.decorate("requestWindows", (family: string) => {
      let windows = families.get(family);
      if (!windows) families.set(family, (windows = new RequestWindows(app.clock)));
      return windows;
    });
  },
  { name: "request-windows", dependencies: ["config"] },
);
