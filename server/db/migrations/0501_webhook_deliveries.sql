-- The delivery log of webhook subscriptions (server/webhooks/subscriptions.ts): one row per attempt, kept three days.
CREATE TABLE webhook_deliveries (
  subscription_id text NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  -- The change-log id (the webhook-id).
  change_id bigint NOT NULL,
  attempted_at timestamptz NOT NULL,
  -- The receiver's status, when it answered.
  status integer,
  -- NULL: accepted (2xx); else the class of the failure (timeout, connection, status, ...).
  failure text,
  message text,
  milliseconds integer NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, attempted_at DESC);
CREATE INDEX webhook_deliveries_expiry ON webhook_deliveries (expires_at);
