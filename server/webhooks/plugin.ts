import fp from "fastify-plugin";
import type { FastifyPluginAsync } from "fastify";
import { checksummer } from "../chain/values";
import { firstChangeTimesAfter } from "../indexer";
import { Deliverer } from "./delivery";
import webhookRoutes from "./routes";
import { subscriptionPositions } from "./subscriptions";
import { WebhookWorker } from "./worker";

/**
 * Webhooks (docs/reference/webhooks.md): the HTTP API with which OAuth clients manage their subscriptions, and the
 * worker every instance runs to deliver the change log to them, unless WEBHOOKS_SECRET_KEYS is unset (their secrets
 * could not be read) or WEBHOOKS_CONCURRENCY is 0.
 */
const webhooks: FastifyPluginAsync = async (app) => {
  const config = app.config.webhooks;
  const { secretKeys, concurrency } = config;
  const deliverer =
    secretKeys === undefined
      ? undefined
      : new Deliverer({ allowPrivate: config.allowPrivate, timeoutMs: config.timeoutMs, maxSockets: Math.max(concurrency, 1) });
  await app.register(webhookRoutes, { deliverer });
  if (deliverer === undefined || secretKeys === undefined) return;
  app.addHook("onClose", async () => deliverer.close());
  const metrics = app.metrics;
  metrics?.webhookState(async () => {
    const { cursors, disabled } = await subscriptionPositions(app.db);
    const times = await firstChangeTimesAfter(
      app.db,
      cursors.map((c) => c.cursor),
    );
    const now = app.clock();
    return {
      disabled,
      oldest: cursors.map((c, i) => ({
        subscription: c.id,
        seconds: times[i] === null ? 0 : Math.max(0, (now - times[i]!.getTime()) / 1_000),
      })),
    };
  });
  if (concurrency === 0) return;
  const worker = new WebhookWorker({
    db: app.db,
    config: { ...config, secretKeys },
    clock: app.clock,
    checksum: checksummer(),
    events: {
      delivered: (_subscription, _row, milliseconds) => metrics?.webhookDelivery("delivered", milliseconds / 1_000),
      failed: (subscription, outcome, disabled, milliseconds) => {
        metrics?.webhookDelivery(outcome.failure, milliseconds / 1_000);
        app.log.info({ subscription: subscription.id, failure: outcome.failure, disabled }, `webhooks: ${outcome.message}`);
      },
      error: (error) => app.log.warn({ err: error }, "webhooks: delivering failed; retrying"),
    },
    pollMs: app.db.kind === "pglite" ? 250 : 1_000,
    deliverer,
    flagged: (network, contracts) => app.collections.flagged(network, contracts),
  });
  app.addHook("onReady", async () => {
    await worker.start();
  });
  app.addHook("preClose", async () => {
    await worker.stop();
  });
};

export default fp(webhooks, { name: "webhooks", dependencies: ["db", "config", "auth", "chain", "collections"] });
