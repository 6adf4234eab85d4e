import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Clock } from "../lib/clock";
import { requesterOf } from "../lib/requester";
import type { DomainError } from "../lib/domain-error";
import { MemoryRateCounts, SharedRateCounts, tooManyRequests, type RateCounts, type StatementCount } from "../rate-limits";

declare module "fastify" {
  interface FastifyInstance {
    /** Where every rate limit ({@link limitRequests}) counts: the database every instance shares, or this process. */
    rateCounts: RateCounts;
  }
  interface FastifyRequest {
    /** The count this request's own statement is to make ({@link limitInStatement}); undefined: none is to. */
    countInStatement: CountInStatement | undefined;
  }
}

/** A request's count that its route's statement makes, and what is done when none did. */
export interface CountInStatement {
  /** What the statement is handed. */
  statement: StatementCount;
  /**
   * Counts the request now unless its statement did (it failed before it, or sent another): resolves to the refusal
   * when the request is past its limit. Called once its answer is known, before it goes out.
   */
  settle(): Promise<DomainError | undefined>;
}

/** A route's `config` when its own statement counts it against the limit of {@link limitInStatement}. */
export const COUNTED_IN_STATEMENT = { countedInStatement: true };

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

/** The family a route counts in when it has none of its own: its method and path, as for the plugin's routes. */
function familyOf(route: { method: string | string[]; url: string }): string {
  return `${[route.method].flat().join(",")} ${route.url}`;
}

/**
 * Counts the requests of `scope`'s routes whose config is {@link COUNTED_IN_STATEMENT} per requester and minute, each
 * route on its own, as {@link limitRequests} does, but with no statement of its own where the counts are shared: the
 * route's statement (a login's: docs/reference/login.md) adds the request to its row of `request_windows` and does its
 * work only within `max`. A request whose statement did not count it (it failed before, or took another way) is
 * counted before its answer goes out, and an error answer past the limit becomes the 429; a success is not taken
 * back. A requester this instance saw past the limit is refused at once, before any work, for the rest of the window.
 * The hijacked routes (oidc-provider's) settle their count themselves ({@link CountInStatement.settle}).
 */
export async function limitInStatement(scope: FastifyInstance, { max }: { max: number }): Promise<void> {
  scope.decorateRequest("countInStatement", undefined);
  scope.addHook("onRequest", async (request) => {
    if ((request.routeOptions.config as { countedInStatement?: boolean }).countedInStatement !== true) return;
    const family = familyOf(request.routeOptions as { method: string | string[]; url: string });
    const requester = requesterOf(request.ip);
    const now = scope.clock();
    const later = scope.rateCounts.countInStatement?.(family, requester, now, WINDOW_MS, max);
    if (later === "refused") throw tooManyRequests(WINDOW_MS - (now % WINDOW_MS));
    if (later === undefined) {
      const { current, ttl } = await scope.rateCounts.count(family, requester, now, WINDOW_MS, max);
      if (current > max) throw tooManyRequests(ttl);
      return;
    }
    let settled: Promise<DomainError | undefined> | undefined;
    request.countInStatement = {
      statement: later,
      settle: () =>
        (settled ??= (async () => {
          if (later.current !== undefined) return later.current > max ? tooManyRequests(later.ttl) : undefined;
          const { current, ttl } = await scope.rateCounts.count(family, requester, scope.clock(), WINDOW_MS, max);
          return current > max ? tooManyRequests(ttl) : undefined;
        })()),
    };
  });
  scope.addHook("onSend", async (request, reply, payload) => {
    const refusal = await request.countInStatement?.settle();
    if (!refusal || reply.statusCode < 400 || reply.statusCode === 429) return payload;
    reply.code(429);
    reply.header("retry-after", String(refusal.retryAfterSeconds));
    reply.header("content-type", "application/json; charset=utf-8");
    return JSON.stringify({ error: refusal.code, message: refusal.message });
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
