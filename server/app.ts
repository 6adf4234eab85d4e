import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import cors from "@fastify/cors";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import pino from "pino";
import auth from "./auth/plugin";
import chain from "./chain/plugin";
import type { Config } from "./config";
import { systemClock, type Clock } from "./lib/clock";
import converter from "./converter/plugin";
import type { Database } from "./db/database";
import data from "./data/plugin";
import database from "./db/plugin";
import events from "./events/plugin";
import errors, { clientErrorHandler, frameworkErrors } from "./http/errors";
import health from "./http/health";
import home from "./home/plugin";
import inputGuard from "./http/input-guard";
import { REDACTED_PATHS, redactUrl } from "./http/log-redact";
import openapi, { type OpenApiOptions } from "./http/openapi";
import { EXAMPLE_KEYWORD } from "./http/openapi-examples";
import pageAssets from "./http/page-assets";
import rateCounts from "./http/rate-limit";
import requestTargets, { rewriteTarget } from "./http/request-target";
import securityHeaders from "./http/security-headers";
import indexer from "./indexer/plugin";
import indexReads from "./indexer/index-reads";
import metadata from "./signed-metadata/plugin";
import metrics from "./metrics/plugin";
import tokenMetadata from "./token-metadata/plugin";
import collections from "./collections/plugin";
import webhooks from "./webhooks/plugin";
import { closeUnusedConnectionsOnClose } from "./http/unused-connections";
import { closeSlowReaders } from "./http/send-deadline";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    /** The time this app's time-bound memories (caches with a time-to-live) read. */
    clock: Clock;
  }
}

export interface AppOptions {
  /** Use this database instead of opening the configured one (it is then not closed with the app). */
  db?: Database;
  /** The examples of the OpenAPI document, over neutral ones (`npm start` gives its demo's: server/http/openapi.ts). */
  apiExamples?: OpenApiOptions["examples"];
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** The time caches read instead of the system's (a test moves it forward instead of sleeping). */
  clock?: Clock;
  /**
   * One log line per request at `info` (default true). `npm start` turns it off below `debug`: its banner, with the
   * demo client's secret, must not scroll away under a line per curl.
   */
  requestLog?: boolean;
}

/** The answer headers a page of another origin may read (the SDK's lists, refusals and retries read them). */
export const EXPOSED_HEADERS = [
  "Link",
  "Retry-After",
  "X-Request-Id",
  "X-Indexed-Block",
  "X-Snapshot-Block",
  "X-Index-Complete",
  "X-Signed-Omitted",
  "X-Metadata-Omitted",
];

/** A client-chosen request id is kept when it looks like one; anything else gets a fresh id. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Builds the whole service: core plugins, then every feature plugin. Does not listen. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify<Server>({
    logger: { level: config.logLevel, redact: REDACTED_PATHS, ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: config.bodyLimit,
    // A hop count N trusts the N proxies nearest to us (the function form, which Fastify's types accept).
    trustProxy: typeof config.trustProxy === "number" ? hops(config.trustProxy) : config.trustProxy,
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Closing waits for requests in flight; idle keep-alive connections are closed at once.
    forceCloseConnections: "idle",
    return503OnClosing: true,
    // One line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors,
    clientErrorHandler,
    // Before routing: an absolute-form target becomes its path, or is refused (requestTargets below).
    rewriteUrl: rewriteTarget(config.issuer),
    // The OpenAPI document's annotation of what example a schema takes: known to Ajv, so that strict mode lets it by.
    ajv: { customOptions: { keywords: [EXAMPLE_KEYWORD] } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Once closing, answers tell clients to drop their keep-alive connection: otherwise the connection of a
  // request that was in flight stays open until its keep-alive timeout and holds the shutdown up.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });

  // Only where the level writes it: at warn and above the line's fields, the redacted URL above all, would be built for
  // nothing on every request.
  if (options.requestLog !== false && pino.levels.values[config.logLevel] <= pino.levels.values.info) {
    app.addHook("onResponse", async (request, reply) => {
      request.log.info(
        { method: request.method, url: redactUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        "request",
      );
    });
  }

  await app.register(
    fp(
      async (instance) => {
        instance.decorate("config", config);
        instance.decorate("clock", options.clock ?? systemClock);
      },
      { name: "config" },
    ),
  );
  await app.register(errors);
  await app.register(requestTargets);
  await app.register(inputGuard);
  // Only JSON (and, in the login plugin's scope, forms): text/plain on a JSON route is a 415, not a string body.
  app.removeContentTypeParser("text/plain");
  await app.register(securityHeaders);
  // A public API called from dApps in browsers; no cookies are involved. A browser hides every answer header but a
  // few from a page of another origin unless named here: the pages' cursors, the index's block, the retry hints.
  await app.register(cors, { origin: "*", exposedHeaders: EXPOSED_HEADERS });
  await app.register(openapi, { examples: options.apiExamples });
  // Before the plugins whose figures it collects.
  await app.register(metrics);
  await app.register(database, { db: options.db });
  // Before the features: the data routes and the token route read the index through it.
  await app.register(indexReads);
  // Before the features whose routes it counts.
  await app.register(rateCounts);
  await app.register(chain);
  await app.register(health);
  await app.register(pageAssets);

  // Features.
  await app.register(auth);
  // Before data: the inventory adds token metadata on request.
  await app.register(tokenMetadata);
  await app.register(collections);
  await app.register(data);
  await app.register(metadata);
  await app.register(converter);
  await app.register(home);
  await app.register(indexer);
  await app.register(events);
  await app.register(webhooks);
  closeUnusedConnectionsOnClose(app);
  closeSlowReaders(app, {
    timeoutMs: config.sendTimeoutMs,
    clock: options.clock ?? systemClock,
    onClosed: () => app.metrics?.slowReaderClosed(),
  });

  return app;
}

function hops(count: number) {
  return (_address: string, hop: number) => hop < count;
}
