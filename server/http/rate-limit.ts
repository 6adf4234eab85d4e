import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Clock } from "../lib/clock";
import { requesterOf } from "../lib/requester";
import { MemoryRateCounts, SharedRateCounts, type RateCounts } from "../rate-limits";

declare module "fastify" {
  interface FastifyInstance {
    /** Where every rate limit ({@link limitRequests}) counts: the database every instance shares, or this process. */
    rateCounts: RateCounts;
  }
}

const WINDOW_MS = 60_000;
/** A count the database has not given by then is made in memory: a limited request never waits much longer for it. */
const SHARED_TIMEOUT_MS = 250;
/** Once the database failed a count, counts stay in memory this long: an outage does not cost every request a wait. */
const SHARED_RETRY_MS = 5_000;

/**
 * The store @fastify/rate-limit counts a family's requests in. A family of routes (all the data routes) has one
 * budget; without a family each route counts on its own, under its method and path.
 */
class FamilyStore implements FastifyRateLimitStore {
  constructor(
    private readonly counts: RateCounts,
    private readonly now: Clock,
    private readonly family: string | undefined,
  ) {}

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void {
    this.counts.count(this.family ?? "", key, this.now(), timeWindow, max).then((result) => callback(null, result), callback);
  }

  /** Given the route's merged limit options (its route as `routeInfo`, whatever the plugin's types say). */
  child(options: object): FamilyStore {
    if (this.family) return this;
    const route = (options as { routeInfo: { method: string | string[]; url: string } }).routeInfo;
    return new FamilyStore(this.counts, this.now, `${[route.method].flat().join(",")} ${route.url}`);
  }
}

export interface LimitOptions {
  /** Requests per minute and requester. */
  max: number;
  /** Every route of the scope, or only those whose `config` has `rateLimit: {}`. */
  global: boolean;
  /** Counts shared by every route of this name, in any scope; without it each route counts on its own (`global` needs one). */
  family?: string;
}

/**
 * Counts the requests of `scope`'s routes per requester (the client address as TRUST_PROXY resolves it, an IPv6
 * address by its /64) and minute; past `max`, 429 `too_many_requests` with Retry-After. The counts are those of all
 * the instances on the database (see `app.rateCounts`), in fixed minutes.
 */
export async function limitRequests(scope: FastifyInstance, { max, global, family }: LimitOptions): Promise<void> {
  // A global limit counts every route of the scope in one store (the plugin gives it no route): without a name it
  // would share its counts with every other unnamed global limit.
  if (global && !family) throw new Error("a global rate limit needs a family");
  const store = new FamilyStore(scope.rateCounts, scope.clock, family);
  await scope.register(rateLimit, {
    global,
    max,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => requesterOf(request.ip),
    // The plugin builds its store with `new`: a constructor that returns an object gives that object.
    store: function build() {
      return store;
    } as unknown as FastifyRateLimitStoreCtor,
  });
}

/**
 * `app.rateCounts`: on PostgreSQL (unless RATE_LIMIT_STORE is `memory`) the `request_windows` table every
 * instance shares, falling back to this process's counts while the database fails; on PGlite, which one process
 * holds, the process's counts.
 */
export default fp(
  async function rateCounts(app: FastifyInstance) {
    const memory = new MemoryRateCounts();
    const shared = app.db.kind === "postgres" && app.config.rateLimits.store === "database";
    app.decorate<RateCounts>(
      "rateCounts",
      shared
        ? new SharedRateCounts(app.db, memory, {
            timeoutMs: SHARED_TIMEOUT_MS,
            retryAfterMs: SHARED_RETRY_MS,
            onFallback: (error) => {
              app.metrics?.rateLimitFallback();
              if (error !== undefined) app.log.warn({ err: error }, "rate limits counted per instance: the database did not count");
            },
          })
        : memory,
    );
  },
  { name: "rate-counts", dependencies: ["config", "db"] },
);
