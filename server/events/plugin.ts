import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import fp from "fastify-plugin";
import { Type } from "typebox";
import { checksummer } from "../chain/values";
import { NetworkParam } from "../http/schemas";
import { example } from "../http/openapi-examples";
import { refusals } from "../http/refusals";
import { TRANSFER_EXAMPLE } from "../data";
import { SpamQuery } from "../collections";
import { badRequest, HttpError } from "../http/http-error";
import { limitRequests } from "../http/rate-limit";
import { parseAddress } from "../chain/values";
import { ChangeFeed, type Subscription } from "./feed";
import { EventStream } from "./stream";

const LAST_EVENT_ID = /^\d{1,19}$/;
/** How long a stream ended at shutdown may take to deliver its end before it is destroyed. */
const END_GRACE_MS = 2_000;

/**
 * Live transfers as Server-Sent Events: what the indexer commits (`transfer`), what a reorg undid (`removed`), and a
 * network's index starting over (`reset`), filtered by owner and contract. Event ids are the change log's, so a
 * client that reconnects with Last-Event-ID gets everything after it. Any instance serves any subscriber: the
 * indexer's commit notifies them all through the database.
 */
const events: FastifyPluginAsyncTypebox = async (app) => {
  const { maxSubscribers, heartbeatMs, maxBufferedBytes, stallMs, ringSize } = app.config.events;
  const feed = new ChangeFeed(app.db, checksummer(), {
    pollMs: app.db.kind === "pglite" ? 250 : 2_000,
    onError: (error) => app.log.warn({ err: error }, "events: reading the change log failed; retrying"),
    flagged: (network, contracts) => app.collections.flagged(network, contracts),
    ringSize,
  });
  /** Open streams, each counted until its socket closes: the cap counts sockets, not subscriptions. */
  const streams = new Set<EventStream>();
  let heartbeat: NodeJS.Timeout | undefined;

  app.addHook("onReady", async () => {
    await feed.start();
    heartbeat = setInterval(() => {
      for (const stream of streams) stream.heartbeat();
    }, heartbeatMs);
  });
  // Open streams would hold the server's close up: they end first, and clients reconnect to another instance.
  app.addHook("preClose", async () => {
    clearInterval(heartbeat);
    for (const stream of streams) stream.end(END_GRACE_MS);
    await feed.stop();
  });

  // In a scope of its own, so that the data routes' budget counts this route and no other of the app.
  const route: FastifyPluginAsyncTypebox = async (scope) => {
    // A stream costs its backlog's read from the change log: each counts as a request of the data routes.
    await limitRequests(scope, { max: app.config.rateLimits.data, global: true, family: "data" });
    scope.get(
      "/events/:network",
      {
        schema: {
          tags: ["data"],
          summary: "Live transfers (Server-Sent Events) as the indexer commits them; reorgs as `removed` events",
          description:
            "A `text/event-stream`. Events: `transfer` and `removed` (data: a transfer as the history routes give it), `reset` " +
            "(data: `{network}`; the network's index started over). Each has an `id`; reconnecting with `Last-Event-ID` " +
            "(or `?lastEventId=`) resumes after it. Comment lines are sent as heartbeats. The stream never ends by itself " +
            "(Swagger UI waits for its end: try it with `curl -N`). `?spam=exclude` leaves out the transfers and metadata changes of " +
            "collections flagged as spam (a `removed` is sent all the same). Each stream counts as a request against the data routes' rate limit; " +
            "past EVENTS_MAX_SUBSCRIBERS streams on an instance, 503 `too_many_subscribers`.",
          params: Type.Object({ network: NetworkParam }),
          querystring: Type.Object({
            owner: Type.Optional(
              Type.String({ maxLength: 42, description: "Only transfers from or to this address", ...example("owner") }),
            ),
            contract: Type.Optional(Type.String({ maxLength: 42, description: "Only transfers of this contract", ...example("contract") })),
            spam: SpamQuery,
            lastEventId: Type.Optional(
              Type.String({ maxLength: 19, description: "Resume after this event id (as the Last-Event-ID header)", examples: ["0"] }),
            ),
          }),
          headers: Type.Object({
            "last-event-id": Type.Optional(
              Type.String({
                maxLength: 19,
                description: "Resume after this event id (what EventSource sends on reconnecting)",
                examples: ["0"],
              }),
            ),
          }),
          response: {
            200: {
              description: "The event stream",
              content: {
                "text/event-stream": {
                  schema: { type: "string" },
                  example: `id: 42\nevent: transfer\ndata: ${JSON.stringify(TRANSFER_EXAMPLE)}\n\n`,
                },
              },
            },
            ...refusals(
              "unknown_network",
              "network_unavailable",
              "invalid_address",
              "too_many_subscribers",
              "uri_too_long",
              "too_many_requests",
            ),
          },
        },
      },
      async (request, reply) => {
        const { network } = request.params;
        app.networks.provider(network);
        const owner = request.query.owner === undefined ? undefined : parseAddress(request.query.owner, "owner").toLowerCase();
        const contract = request.query.contract === undefined ? undefined : parseAddress(request.query.contract, "contract").toLowerCase();
        const resume = request.headers["last-event-id"] ?? request.query.lastEventId;
        if (resume !== undefined && (!LAST_EVENT_ID.test(resume) || BigInt(resume) > 2n ** 63n - 1n)) {
          throw badRequest("invalid_request", "Last-Event-ID must be an event id this service gave");
        }
        if (streams.size >= maxSubscribers) {
          // The refusal closes its connection: a client that never reads it cannot keep a socket once refused.
          throw new HttpError(503, "too_many_subscribers", "This instance streams to as many subscribers as it takes; retry later", {
            "retry-after": "5",
            connection: "close",
          });
        }

        let subscription: Subscription | undefined = undefined;
        const stream = new EventStream(reply.raw, {
          maxBuffered: maxBufferedBytes,
          stallMs,
          onClose: () => {
            subscription?.close();
            streams.delete(stream);
          },
          onError: (error) => request.log.debug({ err: error }, "events: the stream failed"),
        });
        streams.add(stream);
        reply.hijack();
        reply.raw.writeHead(200, {
          // Hooks that set headers on sending (the request id) do not run for a hijacked reply.
          ...(reply.getHeaders() as Record<string, string>),
          "x-request-id": request.id,
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-store",
          // nginx buffers answers unless told not to.
          "x-accel-buffering": "no",
        });
        stream.write("retry: 2000\n: connected\n\n");
        // A client gone before its stream began has no close to come: it is let go here.
        if (stream.closed) return stream.destroy();
        const excludeSpam = request.query.spam === "exclude";
        subscription = feed.subscribe(
          { network, owner, contract, excludeSpam },
          stream,
          resume === undefined ? undefined : BigInt(resume),
          (error) => {
            request.log.warn({ err: error }, "events: reading the backlog failed");
            stream.destroy();
          },
        );
      },
    );
  };
  await app.register(route);
};

export default fp(events, { name: "events", dependencies: ["db", "chain", "collections"] });
