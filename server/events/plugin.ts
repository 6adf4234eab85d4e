import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ServerResponse } from "node:http";
import fp from "fastify-plugin";
import { Type } from "typebox";
import { checksummer } from "../chain/values";
import { NetworkParam } from "../data/schemas";
import { TRANSFER_EXAMPLE } from "../data/history";
import { badRequest, HttpError } from "../http/http-error";
import { toJson } from "../http/wire";
import { parseAddress } from "../chain/values";
import { ChangeFeed, type ChangeEvent, type Subscription } from "./feed";

/** A stream whose client reads slower than this many buffered bytes is closed (it resumes with Last-Event-ID). */
const MAX_BUFFERED = 1 << 20;
const LAST_EVENT_ID = /^\d{1,19}$/;

/**
 * Live transfers as Server-Sent Events: what the indexer commits (`transfer`), what a reorg undid (`removed`), and a
 * network's index starting over (`reset`), filtered by owner and contract. Event ids are the change log's, so a
 * client that reconnects with Last-Event-ID gets everything after it. Any instance serves any subscriber: the
 * indexer's commit notifies them all through the database.
 */
const events: FastifyPluginAsyncTypebox = async (app) => {
  const { maxSubscribers, heartbeatMs } = app.config.events;
  const feed = new ChangeFeed(app.db, checksummer(), {
    pollMs: app.db.kind === "pglite" ? 250 : 2_000,
    onError: (error) => app.log.warn({ err: error }, "events: reading the change log failed; retrying"),
  });
  const streams = new Set<ServerResponse>();
  let heartbeat: NodeJS.Timeout | undefined;

  app.addHook("onReady", async () => {
    await feed.start();
    heartbeat = setInterval(() => {
      for (const stream of streams) stream.write(": heartbeat\n\n");
    }, heartbeatMs);
  });
  // Open streams would hold the server's close up: they end first, and clients reconnect to another instance.
  app.addHook("preClose", async () => {
    clearInterval(heartbeat);
    for (const stream of streams) stream.end();
    streams.clear();
    await feed.stop();
  });

  app.get(
    "/events/:network",
    {
      schema: {
        tags: ["data"],
        summary: "Live transfers (Server-Sent Events) as the indexer commits them; reorgs as `removed` events",
        description:
          "A `text/event-stream`. Events: `transfer` and `removed` (data: a transfer as the history routes give it), `reset` " +
          "(data: `{network}`; the network's index started over). Each has an `id`; reconnecting with `Last-Event-ID` " +
          "(or `?lastEventId=`) resumes after it. Comment lines are sent as heartbeats.",
        params: Type.Object({ network: NetworkParam }),
        querystring: Type.Object({
          owner: Type.Optional(Type.String({ maxLength: 42, description: "Only transfers from or to this address" })),
          contract: Type.Optional(Type.String({ maxLength: 42, description: "Only transfers of this contract" })),
          lastEventId: Type.Optional(
            Type.String({ maxLength: 19, description: "Resume after this event id (as the Last-Event-ID header)" }),
          ),
        }),
        headers: Type.Object({ "last-event-id": Type.Optional(Type.String({ maxLength: 19 })) }),
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
        throw new HttpError(503, "too_many_subscribers", "This instance streams to as many subscribers as it takes; retry later", {
          "retry-after": "5",
        });
      }

      const stream = reply.raw;
      let subscription: Subscription | undefined;
      const end = () => {
        subscription?.close();
        streams.delete(stream);
        if (!stream.writableEnded) stream.end();
      };
      const send = ({ id, event, data }: ChangeEvent) => {
        stream.write(`id: ${id}\nevent: ${event}\ndata: ${toJson(data)}\n\n`);
        if (stream.writableLength > MAX_BUFFERED) end();
      };
      reply.hijack();
      stream.writeHead(200, {
        // Hooks that set headers on sending (the request id) do not run for a hijacked reply.
        ...(reply.getHeaders() as Record<string, string>),
        "x-request-id": request.id,
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        // nginx buffers answers unless told not to.
        "x-accel-buffering": "no",
      });
      stream.write("retry: 2000\n: connected\n\n");
      streams.add(stream);
      stream.once("close", end);
      try {
        subscription = await feed.subscribe({ network, owner, contract }, send, resume === undefined ? undefined : BigInt(resume));
        if (!streams.has(stream)) subscription.close();
      } catch (error) {
        request.log.warn({ err: error }, "events: subscribing failed");
        end();
      }
    },
  );
};

export default fp(events, { name: "events", dependencies: ["db", "chain"] });
