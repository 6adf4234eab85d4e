-- Rollbacks of the change log (server/indexer/store/changes.ts): one row per reorg undone and per index started over,
-- with the head the index had reached before it. A reader that waits for confirmations (webhook subscriptions) tells
-- from them whether a change it has not sent yet was undone before it was deep enough, and then sends nothing of it.
CREATE TABLE nft_change_rollbacks (
  -- In the order they happened (several may follow the same change).
  id bigserial PRIMARY KEY,
  network_id smallint NOT NULL,
  -- The newest change logged before the rollback: the rows it undid have ids up to this one, its own are after it.
  change_id bigint NOT NULL,
  -- Blocks above this one were undone (-1: the whole index, started over).
  ancestor_block bigint NOT NULL,
  -- The block the index had reached before the rollback.
  head_block bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX nft_change_rollbacks_network ON nft_change_rollbacks (network_id, change_id);

-- How many blocks a subscription waits for on top of a change's block before it delivers it (0: at once), and the
-- block the network's index must reach before the subscription is worth claiming again (NULL: none awaited).
ALTER TABLE webhook_subscriptions ADD COLUMN confirmations integer NOT NULL DEFAULT 0;
ALTER TABLE webhook_subscriptions ADD COLUMN wait_block bigint;
-- Whether the changes of collections flagged as spam are left out ('exclude') or sent ('include').
ALTER TABLE webhook_subscriptions ADD COLUMN spam text NOT NULL DEFAULT 'include';
