-- The three history indexes of ERC-721 transfers (of a token, from an address, to an address) carry every column a
-- history page returns (INCLUDE), so a first page is read from the index alone (an index-only scan) instead of one
-- random heap page per transfer. Pages written since the last vacuum are still read from the table (the visibility
-- map says which); autovacuum keeps up with an indexer's appends. The indexes take about three times the disk of
-- the key-only ones. Built in the migration's transaction: on a large index this holds writes to nft_transfers
-- until it is done.
DROP INDEX nft_transfers_token;
CREATE INDEX nft_transfers_token ON nft_transfers (network, contract, token_id, block_number, log_index)
  INCLUDE (block_time, tx_hash, from_address, to_address);
DROP INDEX nft_transfers_from;
CREATE INDEX nft_transfers_from ON nft_transfers (network, from_address, block_number, log_index)
  INCLUDE (block_time, tx_hash, contract, token_id, to_address);
DROP INDEX nft_transfers_to;
CREATE INDEX nft_transfers_to ON nft_transfers (network, to_address, block_number, log_index)
  INCLUDE (block_time, tx_hash, contract, token_id, from_address);
