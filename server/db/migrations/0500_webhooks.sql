-- Webhook subscriptions (server/webhooks/subscriptions.ts): where and what to deliver, and where delivery stands. A
-- subscription reads the change log (nft_changes) after its cursor; the log keeps what a subscription has not
-- delivered yet through the hold below.
CREATE TABLE webhook_subscriptions (
  -- Random, not a sequence: an id says nothing about how many subscriptions there are.
  id text PRIMARY KEY,
  -- The OAuth client that owns it; NULL: the operator's (made with the CLI).
  client_id text,
  network text NOT NULL,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  kinds text[] NOT NULL,
  -- Lower-case hex addresses; empty: every contract, every owner.
  contracts text[] NOT NULL DEFAULT '{}',
  owners text[] NOT NULL DEFAULT '{}',
  -- The signing secret, encrypted (AES-256-GCM) with a key of WEBHOOKS_SECRET_KEYS: a dump alone does not reveal it.
  secret bytea NOT NULL,
  -- The secret before a rotation, still signing beside the new one until previous_secret_until.
  previous_secret bytea,
  previous_secret_until timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  disabled_at timestamptz,
  -- Every change up to this id that the subscription matches was delivered (or it was created after it).
  cursor bigint NOT NULL,
  -- Failed attempts at the change after the cursor, since when it fails, and why it last failed.
  attempts integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  last_error text,
  next_attempt_at timestamptz NOT NULL,
  -- The instance delivering it, until when: another instance takes it over once the lease has run out.
  lease_token text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The workers' claim: enabled subscriptions by when they are due.
CREATE INDEX webhook_subscriptions_due ON webhook_subscriptions (next_attempt_at) WHERE enabled;
CREATE INDEX webhook_subscriptions_client ON webhook_subscriptions (client_id);

-- Holds on the change log (server/indexer/store/changes.ts): the log's pruning keeps every change after a holder's id,
-- however old, so that a reader whose position is durable (webhook subscriptions) misses nothing.
CREATE TABLE nft_change_holds (
  holder text PRIMARY KEY,
  after_id bigint NOT NULL
);
