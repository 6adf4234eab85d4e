import fp from "fastify-plugin";
import type { FastifyPluginAsync } from "fastify";
import { checksummer } from "../chain/values";
import { WebhookWorker } from "./worker";

/**
 * Webhooks: every instance delivers the change log to the subscriptions (server/webhooks/worker.ts), unless
 * WEBHOOKS_SECRET_KEYS is unset (their secrets could not be read) or WEBHOOKS_CONCURRENCY is 0.
 */
const webhooks: FastifyPluginAsync = async (app) => {
  const { secretKeys, concurrency } = app.config.webhooks;
  if (secretKeys === undefined || concurrency === 0) return;
  const worker = new WebhookWorker(
    app.db,
    { ...app.config.webhooks, secretKeys },
    app.clock,
    checksummer(),
    {
      delivered: () => {},
      failed: (subscription, outcome, disabled) =>
        app.log.info({ subscription: subscription.id, failure: outcome.failure, disabled }, `webhooks: ${outcome.message}`),
      error: (error) => app.log.warn({ err: error }, "webhooks: delivering failed; retrying"),
    },
    app.db.kind === "pglite" ? 250 : 1_000,
  );
  app.addHook("onReady", async () => {
    await worker.start();
  });
  app.addHook("preClose", async () => {
    await worker.stop();
  });
};

export default fp(webhooks, { name: "webhooks", dependencies: ["db", "config"] });
