-- A holders page is read from the key of nft_holdings alone (an index-only scan) instead of one table row per holder:
-- the count rides in the key's index. Holdings rows sit in the order the indexer met them, not by contract, so each
-- of a page's rows was a page of its own on a large index. Rebuilding the key holds writes to nft_holdings until done.
ALTER TABLE nft_holdings DROP CONSTRAINT nft_holdings_pkey;
ALTER TABLE nft_holdings ADD CONSTRAINT nft_holdings_pkey PRIMARY KEY (network_id, contract, owner) INCLUDE (count);
