-- Each collection's spam verdict (docs/reference/collections.md#spam): the flag, the named reasons, and the number of
-- its transfers the index held when it was classified (a contract whose summary moved on is classified again). Written
-- by the collections' classifier, read beside the summaries and by the filters of ?spam=exclude.
CREATE TABLE nft_spam_flags (
  network_id smallint NOT NULL,
  contract bytea NOT NULL,
  flag boolean NOT NULL,
  reasons text[] NOT NULL,
  classified_transfers bigint NOT NULL,
  classified_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network_id, contract)
);
