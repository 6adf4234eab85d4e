import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { HttpError } from "../http/http-error";
import { limitRequests } from "../http/rate-limit";
import { DATABASE_WRITE, JSON_BODY, refusals } from "../http/refusals";
import { randomString } from "../lib/random";
import type { Deliverer } from "./delivery";
import { replay } from "./replay";
import { subscribe } from "./subscribe";
import {
  EVENT_KINDS,
  MAX_CONFIRMATIONS,
  SPAM_CHOICES,
  findSubscription,
  listDeliveries,
  listSubscriptions,
  removeSubscription,
  rotateSecret,
  sealedSubscription,
  setEnabled,
} from "./subscriptions";
import { toJson } from "../http/wire";
import { signature } from "./secrets";
import { secretsOf } from "./worker";
import { describe } from "./wire";

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Most attempts one read of the delivery log answers. */
const MAX_LOG_PAGE = 100;

const AddressList = (what: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength: 42 }), { description: `${what} (lower or EIP-55 case); any of them matches` }));

const SubscriptionBody = Type.Object(
  {
    network: Type.String({ maxLength: 64, description: "Network name, e.g. mainnet" }),
    url: Type.String({ maxLength: 4096, description: "The endpoint: https, public addresses only" }),
    kinds: Type.Optional(
      Type.Array(Type.String({ maxLength: 40 }), { maxItems: 8, description: `Event kinds (${EVENT_KINDS.join(", ")}); default all` }),
    ),
    contracts: AddressList("Only changes of these contracts"),
    owners: AddressList("Only transfers from or to these addresses"),
    description: Type.Optional(Type.String({ maxLength: 400 })),
    confirmations: Type.Optional(
      Type.Integer({
        description: `Blocks indexed on top of a change's block before it is delivered, 0 to ${MAX_CONFIRMATIONS} (else 400 invalid_subscription); default the network's (WEBHOOKS_CONFIRMATIONS), else 0: at once`,
        examples: [12],
      }),
    ),
    spam: Type.Optional(
      Type.String({
        maxLength: 40,
        description: `${SPAM_CHOICES.join(" or ")}: exclude leaves out the transfers and metadata changes of collections flagged as spam (docs/reference/collections.md#spam); default include`,
        examples: ["exclude"],
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        network: "mainnet",
        url: "https://receiver.example/hook",
        kinds: ["transfer", "removed"],
        owners: ["0x00000000000000000000000000000000000000aa"],
      },
    ],
  },
);

const IdParams = Type.Object({
  id: Type.String({ maxLength: 64, description: "Subscription id (ws_…)", examples: ["ws_Jx3kq9VbT0aLm2Qe"] }),
});

/** The answer's form of a subscription (never its secrets). */
const SubscriptionAnswer = Type.Object(
  {
    id: Type.String(),
    client_id: Type.Union([Type.String(), Type.Null()]),
    network: Type.String(),
    url: Type.String(),
    description: Type.String(),
    kinds: Type.Array(Type.String()),
    contracts: Type.Array(Type.String()),
    owners: Type.Array(Type.String()),
    confirmations: Type.Integer({ description: "Blocks on top of a change's block before it is delivered (0: at once)" }),
    spam: Type.String({ description: "include, or exclude: the changes of collections flagged as spam are left out" }),
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.String(), Type.Null()]),
    disabled_at: Type.Union([Type.String(), Type.Null()]),
    cursor: Type.String({ description: "Every matching change up to this id was delivered" }),
    attempts: Type.Integer({ description: "Failed attempts at the next change" }),
    failing_since: Type.Union([Type.String(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    next_attempt_at: Type.String(),
    created_at: Type.String(),
  },
  { description: "A webhook subscription" },
);

const COMMON = ["invalid_token", "too_many_requests", ...DATABASE_WRITE] as const;

/**
 * The HTTP API with which an OAuth client manages its own webhook subscriptions, authenticated by its
 * client_credentials access token (`Authorization: Bearer`); another client's subscription is answered as unknown.
 */
const webhookRoutes: FastifyPluginAsyncTypebox<{ deliverer?: Deliverer }> = async (scope, { deliverer }) => {
  const app = scope;
  const config = app.config.webhooks;
  await limitRequests(scope, { max: app.config.rateLimits.data, global: true, family: "webhooks" });
  const tags = ["webhooks"];
  const served = () => app.networks.configured();

  /** The client the request's Bearer token names, or a 401. */
  const clientOf = async (request: FastifyRequest): Promise<string> => {
    const token = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const client = token === undefined ? undefined : await app.clientTokens.clientOf(token);
    if (client === undefined)
      throw new HttpError(401, "invalid_token", "send a client_credentials access token of your client as Authorization: Bearer", {
        "www-authenticate": 'Bearer error="invalid_token"',
      });
    return client;
  };
  const security = [{ bearer: [] }];

  scope.post(
    "/webhooks/subscriptions",
    {
      schema: {
        tags,
        security,
        summary: "Subscribe an endpoint to a network's events; the answer carries the signing secret, once",
        description:
          "The endpoint passes the outbound guard (https, public addresses only, checked for every address its host resolves to). Deliveries start with the changes logged from now on (docs/reference/webhooks.md). Authenticated by the client's client_credentials token.",
        body: SubscriptionBody,
        response: {
          201: Type.Object({ subscription: SubscriptionAnswer, secret: Type.String({ description: "whsec_…: shown this once" }) }),
          ...refusals(
            ...COMMON,
            ...JSON_BODY,
            "unknown_network",
            "network_unavailable",
            "invalid_address",
            "invalid_subscription",
            "endpoint_refused",
            "too_many_filters",
            "too_many_subscriptions",
            "webhooks_off",
          ),
        },
      },
    },
    async (request, reply) => {
      const clientId = await clientOf(request);
      const { subscription, secret } = await subscribe(app.db, {
        input: request.body,
        clientId,
        config,
        served: served(),
        now: app.clock(),
      });
      return reply.code(201).send({ subscription: describe(subscription), secret });
    },
  );

  scope.get(
    "/webhooks/subscriptions",
    {
      schema: {
        tags,
        security,
        summary: "The client's subscriptions",
        description:
          "Every subscription of the client whose token authenticates the request, oldest first, with where delivery stands (cursor, failures, disabled reason).",
        response: { 200: Type.Object({ subscriptions: Type.Array(SubscriptionAnswer) }), ...refusals(...COMMON) },
      },
    },
    async (request) => ({ subscriptions: (await listSubscriptions(app.db, await clientOf(request))).map(describe) }),
  );

  scope.get(
    "/webhooks/subscriptions/:id",
    {
      schema: {
        tags,
        security,
        summary: "One subscription",
        description: "A subscription of the client; another client's is answered as unknown (404).",
        params: IdParams,
        response: { 200: SubscriptionAnswer, ...refusals(...COMMON, "subscription_not_found") },
      },
    },
    async (request) => describe(await findSubscription(app.db, request.params.id, await clientOf(request))),
  );

  scope.delete(
    "/webhooks/subscriptions/:id",
    {
      schema: {
        tags,
        security,
        summary: "Remove a subscription (with its delivery log)",
        description: "Nothing more is delivered; a delivery in flight may still arrive.",
        params: IdParams,
        response: { 204: Type.Null({ description: "Removed" }), ...refusals(...COMMON, "subscription_not_found") },
      },
    },
    async (request, reply) => {
      await removeSubscription(app.db, request.params.id, await clientOf(request));
      return reply.code(204).send(null);
    },
  );

  for (const enabled of [true, false]) {
    scope.post(
      `/webhooks/subscriptions/:id/${enabled ? "enable" : "disable"}`,
      {
        schema: {
          tags,
          security,
          summary: enabled
            ? "Enable a subscription: it resumes where it stopped, at once"
            : "Disable a subscription: it keeps its place (WEBHOOKS_RETENTION_MS)",
          description: enabled
            ? "Its failures are forgotten and it delivers from its cursor: nothing it missed meanwhile is lost (within WEBHOOKS_RETENTION_MS)."
            : "Nothing is delivered until it is enabled again.",
          params: IdParams,
          response: { 200: SubscriptionAnswer, ...refusals(...COMMON, "subscription_not_found") },
        },
      },
      async (request) =>
        describe(
          await setEnabled(app.db, {
            id: request.params.id,
            clientId: await clientOf(request),
            enabled,
            reason: "disabled by its client",
            now: app.clock(),
          }),
        ),
    );
  }

  scope.post(
    "/webhooks/subscriptions/:id/rotate-secret",
    {
      schema: {
        tags,
        security,
        summary: "A new signing secret; the old one keeps signing beside it for 24 hours",
        description:
          "Deliveries carry both signatures in webhook-signature until previous_secret_expires_at, so a receiver switches to the new secret without refusing a delivery. The new secret is shown this once.",
        params: IdParams,
        response: {
          200: Type.Object({ secret: Type.String(), previous_secret_expires_at: Type.String() }),
          ...refusals(...COMMON, "subscription_not_found", "webhooks_off"),
        },
      },
    },
    async (request) => {
      const clientId = await clientOf(request);
      if (config.secretKeys === undefined) throw new HttpError(503, "webhooks_off", "webhooks are off on this service");
      const { secret, previousUntil } = await rotateSecret(app.db, {
        id: request.params.id,
        clientId,
        keys: config.secretKeys,
        now: app.clock(),
        overlapMs: ROTATION_OVERLAP_MS,
      });
      return { secret, previous_secret_expires_at: previousUntil.toISOString() };
    },
  );

  scope.post(
    "/webhooks/subscriptions/:id/replay",
    {
      schema: {
        tags,
        security,
        summary: "Deliver again from an event id (included) or a time, within what the change log keeps",
        description:
          "Moves the subscription's cursor: the changes it matches are delivered again, in order, under their webhook-ids. A point before the oldest change kept is refused (replay_out_of_range).",
        params: IdParams,
        body: Type.Object(
          {
            from_event: Type.Optional(Type.String({ maxLength: 19, description: "A webhook-id: deliver it and what follows" })),
            from_time: Type.Optional(Type.String({ maxLength: 40, description: "ISO 8601: deliver what was logged from then on" })),
          },
          { additionalProperties: false, examples: [{ from_event: "42" }] },
        ),
        response: {
          200: SubscriptionAnswer,
          ...refusals(...COMMON, ...JSON_BODY, "subscription_not_found", "invalid_subscription", "replay_out_of_range"),
        },
      },
    },
    async (request) =>
      describe(
        await replay(app.db, {
          id: request.params.id,
          clientId: await clientOf(request),
          fromEvent: request.body.from_event,
          fromTime: request.body.from_time,
          now: app.clock(),
        }),
      ),
  );

  scope.get(
    "/webhooks/subscriptions/:id/deliveries",
    {
      schema: {
        tags,
        security,
        summary: "The delivery log: attempts newest first (kept three days)",
        description:
          "Each attempt: the webhook-id, when, the receiver's status, the failure's class (null: accepted), and how long it took.",
        params: IdParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LOG_PAGE, default: MAX_LOG_PAGE, examples: [20] })),
        }),
        response: {
          200: Type.Object({
            deliveries: Type.Array(
              Type.Object({
                webhook_id: Type.String(),
                attempted_at: Type.String(),
                status: Type.Union([Type.Integer(), Type.Null()]),
                failure: Type.Union([Type.String(), Type.Null()], { description: "null: accepted" }),
                message: Type.Union([Type.String(), Type.Null()]),
                milliseconds: Type.Integer(),
              }),
            ),
          }),
          ...refusals(...COMMON, "subscription_not_found"),
        },
      },
    },
    async (request) => {
      const rows = await listDeliveries(app.db, {
        id: request.params.id,
        clientId: await clientOf(request),
        limit: request.query.limit ?? MAX_LOG_PAGE,
      });
      return {
        deliveries: rows.map((r) => ({
          webhook_id: r.changeId,
          attempted_at: r.attemptedAt.toISOString(),
          status: r.status,
          failure: r.failure,
          message: r.message,
          milliseconds: r.milliseconds,
        })),
      };
    },
  );

  scope.post(
    "/webhooks/subscriptions/:id/test",
    {
      schema: {
        tags,
        security,
        summary: "Send a signed test delivery (type test, webhook-id test_…) now and answer how the endpoint answered",
        description:
          "The delivery is signed like the others (with both secrets during a rotation's overlap) and sent at once, outside the subscription's order; it is neither retried nor logged.",
        params: IdParams,
        response: {
          200: Type.Object({
            ok: Type.Boolean(),
            status: Type.Union([Type.Integer(), Type.Null()]),
            failure: Type.Union([Type.String(), Type.Null()]),
            message: Type.Union([Type.String(), Type.Null()]),
          }),
          ...refusals(...COMMON, "subscription_not_found", "webhooks_off"),
        },
      },
    },
    async (request) => {
      const clientId = await clientOf(request);
      const sealed = await sealedSubscription(app.db, request.params.id, clientId);
      if (config.secretKeys === undefined || deliverer === undefined)
        throw new HttpError(503, "webhooks_off", "webhooks are off on this service");
      const id = `test_${randomString(12, "base64url")}`;
      const body = toJson({ id, type: "test", network: sealed.network, subscription: sealed.id, data: {} });
      const timestamp = Math.floor(app.clock() / 1_000);
      const secrets = secretsOf(sealed, config.secretKeys, app.clock());
      const outcome = await deliverer.send({
        url: sealed.url,
        body,
        headers: {
          "webhook-id": id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": secrets.map((secret) => signature(secret, id, timestamp, body)).join(" "),
        },
      });
      return outcome.ok
        ? { ok: true, status: outcome.status, failure: null, message: null }
        : { ok: false, status: outcome.status ?? null, failure: outcome.failure, message: outcome.message };
    },
  );
};

export default webhookRoutes;
