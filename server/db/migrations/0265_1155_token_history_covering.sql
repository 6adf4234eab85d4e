-- The history of one ERC-1155 token is read from its index alone (an index-only scan). An id moves between many
-- holders (a game item: hundreds of transfers), so a page of 100 read through the key-only index fetched 100 table
-- pages spread over the table, which a large index keeps outside shared memory; the covering index keeps one
-- token's transfers side by side. Pages written since the last vacuum are still read from the table (the visibility
-- map says which); autovacuum keeps up with an indexer's appends. An ERC-721 token has a few transfers and keeps its
-- key-only index. Built in the migration's transaction: it holds writes to nft_1155_transfers until it is done.
DROP INDEX nft_1155_transfers_token;
CREATE INDEX nft_1155_transfers_token ON nft_1155_transfers (network_id, contract_id, token_id, block_number, log_index, batch_index)
  INCLUDE (block_time, from_id, to_id, tx_hash, amount);
