-- ERC-4906 MetadataUpdate / BatchMetadataUpdate and ERC-1155 URI (docs/reference/indexer.md): a mark per log that the
-- metadata of the ids from_token_id–to_token_id of a contract changed. A cached document (token_metadata) fetched
-- before marked_at is stale. One row per log, however many ids it names: a whole-collection update is one row.
-- Written in the indexer's range transaction; a reorg removes the marks of the blocks it undoes.
CREATE TABLE nft_metadata_updates (
  network text NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  tx_hash text NOT NULL,
  contract text NOT NULL,
  from_token_id numeric(78, 0) NOT NULL,
  to_token_id numeric(78, 0) NOT NULL,
  marked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network, block_number, log_index)
);
CREATE INDEX nft_metadata_updates_contract ON nft_metadata_updates (network, contract, from_token_id);
CREATE INDEX nft_metadata_updates_marked ON nft_metadata_updates (marked_at);

-- The change log announces them: kind 'metadata', token_id the first id of the range and to_token_id its last.
ALTER TABLE nft_changes ADD COLUMN to_token_id numeric(78, 0);
ALTER TABLE nft_changes DROP CONSTRAINT nft_changes_kind_check;
ALTER TABLE nft_changes ADD CONSTRAINT nft_changes_kind_check CHECK (kind IN ('transfer', 'removed', 'reset', 'metadata'));
