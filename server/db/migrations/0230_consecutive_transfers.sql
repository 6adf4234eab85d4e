-- ERC-2309 ConsecutiveTransfer (docs/reference/indexer.md): one log moves a range of ERC-721 ids, each stored as a transfer.
-- batch_index is the id's position in its log: 0 for a Transfer, its offset in the range for a ConsecutiveTransfer,
-- so the ids of one log share (block_number, log_index) and stay apart in the key and in the history order.
-- Rebuilding the key and the three history indexes holds writes to nft_transfers until the migration is done.
ALTER TABLE nft_transfers ADD COLUMN batch_index integer NOT NULL DEFAULT 0;
ALTER TABLE nft_transfers DROP CONSTRAINT nft_transfers_pkey;
ALTER TABLE nft_transfers ADD PRIMARY KEY (network, block_number, log_index, batch_index);
DROP INDEX nft_transfers_token;
CREATE INDEX nft_transfers_token ON nft_transfers (network, contract, token_id, block_number, log_index, batch_index)
  INCLUDE (block_time, tx_hash, from_address, to_address);
DROP INDEX nft_transfers_from;
CREATE INDEX nft_transfers_from ON nft_transfers (network, from_address, block_number, log_index, batch_index)
  INCLUDE (block_time, tx_hash, contract, token_id, to_address);
DROP INDEX nft_transfers_to;
CREATE INDEX nft_transfers_to ON nft_transfers (network, to_address, block_number, log_index, batch_index)
  INCLUDE (block_time, tx_hash, contract, token_id, from_address);

-- ConsecutiveTransfer logs the indexer did not expand: more ids than its bound (INDEXER_MAX_CONSECUTIVE), or a
-- reversed range. Their contract is not fully indexed (answers about it say so); a reorg removes them with their block.
CREATE TABLE nft_skipped_ranges (
  network text NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  tx_hash text NOT NULL,
  contract text NOT NULL,
  from_token_id numeric(78, 0) NOT NULL,
  to_token_id numeric(78, 0) NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  PRIMARY KEY (network, block_number, log_index)
);
CREATE INDEX nft_skipped_ranges_contract ON nft_skipped_ranges (network, contract);
