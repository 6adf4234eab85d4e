import type { FastifyInstance } from "fastify";
import { buildApp, type AppOptions } from "../../server/app";
import { loadConfig, type Config, type DatabaseConfig } from "../../server/config";
import type { Database } from "../../server/db/database";
import { createTestDatabase, type TestDatabase } from "./database";

export interface TestApp {
  app: FastifyInstance;
  /**
   * A request to the app, answered as `fetch` answers: through `app.inject` (no socket, no port) unless the app
   * listens, then over real HTTP. `path` is the path and query, e.g. `/block/localhost/latest`.
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * The same request through `app.inject`, also when the app listens: it runs in the caller's async context, which a
   * socket does not carry (`recordRequestStatements` tells a request's statements by it).
   */
  inject(path: string, init?: RequestInit): Promise<Response>;
  /** Base URL of the real HTTP server, e.g. http://127.0.0.1:41234, of an app started with `listen: true` (else it throws). */
  url: string;
  config: Config;
  /** The time the app's caches read: `clock.advance(ms)` moves it forward instead of sleeping past a cache. */
  clock: TestClock;
  /** The test database (dropped by close() when this helper created it). */
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment the config is read from (on top of a quiet default); RPC_URL_* go here too. */
  env?: Record<string, string>;
  /** Share a database with another app (two instances); a fresh one is made otherwise. */
  database?: TestDatabase;
  /**
   * `true`: listen on 127.0.0.1 and a free port, and answer `fetch` over real HTTP. By default the app does not listen
   * and `fetch` goes through `app.inject`. A real port is for what needs a network boundary: browsers, OIDC clients
   * and other processes that fetch the service by themselves, event streams, the HTTP parser's own refusals, sockets
   * at shutdown, the metrics listener (it opens when the app listens).
   */
  listen?: boolean;
  /** Listen, on this port instead of a free one (an OIDC issuer URL must name the port before the app starts). */
  port?: number;
  /** Where log lines go (at LOG_LEVEL, which `env` may set): a test reads what an operator would. */
  logStream?: { write(line: string): void };
  /** Register extra routes or hooks before the app starts (e.g. a route that throws). */
  configure?: (app: FastifyInstance) => void | Promise<void>;
  /** The OpenAPI document's examples (as `npm start` gives its demo's). */
  apiExamples?: AppOptions["apiExamples"];
}

/**
 * The whole service over a real database: config from an environment (validated like in production), a fresh
 * database unless one is shared; requests through `app.inject`, or with `listen: true` over HTTP on 127.0.0.1.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const owned = !options.database;
  const { database: databaseConfig, db } = await database.appOptions();
  const config = testConfig(options.env, databaseConfig);
  const clock = new TestClock();
  const listening = options.listen === true || options.port !== undefined;
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp(config, { db, clock: clock.now, logStream: options.logStream, apiExamples: options.apiExamples });
    await options.configure?.(app);
    if (listening) await app.listen({ host: "127.0.0.1", port: options.port ?? 0 });
    else await app.ready();
  } catch (error) {
    await app?.close();
    if (owned) await database.drop();
    throw error;
  }
  const started = app;
  const url = listening ? `http://127.0.0.1:${(app.server.address() as { port: number }).port}` : undefined;
  return {
    app: started,
    fetch: (path, init) => (url ? fetch(`${url}${path}`, init) : inject(started, path, init)),
    inject: (path, init) => inject(started, path, init),
    get url(): string {
      if (!url) throw new Error("this test app does not listen: start it with { listen: true } to reach it over HTTP");
      return url;
    },
    config,
    clock,
    database,
    async close() {
      await started.close();
      if (owned) await database.drop();
    },
  };
}

/** The system's time plus how far a test moved it forward. */
export class TestClock {
  private offset = 0;
  readonly now = (): number => Date.now() + this.offset;

  advance(ms: number): void {
    this.offset += ms;
  }
}

/**
 * Moves `clocks` together to the start of the next minute of the first. Rate limits count per fixed minute of the
 * app's clock, which runs with the wall clock: a test counting up to a limit that crossed :00 would see its counts
 * start over, so each starts a minute of its own and has the whole of it.
 */
export function startOfMinute(...clocks: TestClock[]): void {
  const step = 60_000 - (clocks[0].now() % 60_000);
  for (const clock of clocks) clock.advance(step);
}

/**
 * The origin injected requests pretend to reach (their Host header; an app that does not listen may name it as its
 * public URL). A redirect to another origin leaves the app and is fetched for real.
 */
export const INJECT_ORIGIN = "http://127.0.0.1";

/**
 * `init` as `app.inject` takes it; the answer as a fetch `Response`, so a test reads it the same either way. Redirects
 * are followed as fetch follows them (unless `redirect` is "manual" or "error").
 */
async function inject(app: FastifyInstance, path: string, init: RequestInit = {}): Promise<Response> {
  let target = new URL(path, INJECT_ORIGIN);
  let request = init;
  for (let redirects = 0; ; redirects++) {
    const response = await injectOnce(app, target, request);
    const location = response.headers.get("location");
    if (![301, 302, 303, 307, 308].includes(response.status) || location === null || request.redirect === "manual") return response;
    if (request.redirect === "error" || redirects === 20) throw new TypeError("fetch failed", { cause: new Error("redirect") });
    target = new URL(location, target);
    // 303, and 301/302 after a POST, become a GET without a body, as fetch does.
    const method = (request.method ?? "GET").toUpperCase();
    if (response.status === 303 ? method !== "GET" && method !== "HEAD" : [301, 302].includes(response.status) && method === "POST") {
      const headers = new Headers(request.headers);
      for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"])
        headers.delete(name);
      request = { ...request, method: "GET", body: undefined, headers };
    }
    if (target.origin !== INJECT_ORIGIN) return fetch(target, request);
  }
}

async function injectOnce(app: FastifyInstance, target: URL, init: RequestInit): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  headers.host ??= target.host;
  let payload: string | Buffer | undefined;
  if (init.body instanceof URLSearchParams) {
    payload = init.body.toString();
    headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
  } else if (typeof init.body === "string" || Buffer.isBuffer(init.body)) {
    payload = init.body;
    // fetch labels a string body text/plain when the caller gives no type.
    if (typeof init.body === "string") headers["content-type"] ??= "text/plain;charset=UTF-8";
  } else if (init.body !== undefined && init.body !== null) {
    throw new Error("inject() takes a string, Buffer or URLSearchParams body");
  }
  // The path as fetch sends it (a parsed URL: dot segments resolved, characters percent-encoded, no fragment).
  const answer = await app.inject({ method: method as "GET", url: `${target.pathname}${target.search}`, headers, payload });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) responseHeaders.append(name, String(one));
  }
  const noBody = method === "HEAD" || [101, 204, 205, 304].includes(answer.statusCode);
  return new Response(noBody ? null : answer.rawPayload, {
    status: answer.statusCode,
    statusText: answer.statusMessage,
    headers: responseHeaders,
  });
}

/** The config a test app runs with: LOG_LEVEL silent (TEST_LOG_LEVEL to see logs), no embedded chain. */
export function testConfig(env: Record<string, string> = {}, database?: DatabaseConfig): Config {
  // METRICS_PORT 0: a free port per app, so apps alive at once (and other test runs) do not fight over 9464.
  // A PostgreSQL database is read as DATABASE_URL, so that the pool's settings in `env` apply to it.
  const url = database?.kind === "postgres" ? { DATABASE_URL: database.url } : {};
  const config = loadConfig({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent", LOCAL_CHAIN: "false", METRICS_PORT: "0", ...url, ...env });
  return database ? { ...config, database: database.kind === "postgres" ? config.database : database } : config;
}

export type { Database };

/** A request to the app whose answer is JSON: its status and headers, its body as sent and as parsed. */
export async function fetchJson(t: Pick<TestApp, "fetch">, path: string, init?: RequestInit) {
  const response = await t.fetch(path, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}
