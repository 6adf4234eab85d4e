-- Each address's EIP-55 form is kept beside it, computed once by the indexer when the address is first written, so
-- a history page (up to 200 addresses drawn from every owner the index knows) is read ready for the wire instead of
-- hashed by the service per address and page. Addresses written before this migration keep NULL: SQL has no
-- Keccak-256, and the service checksums those as before. The dictionary's key carries the form as it carries the
-- address (0263), so a lookup by id still reads the key alone; rebuilding it holds writes to nft_addresses until done
-- (upgrades.md).
ALTER TABLE nft_addresses ADD COLUMN eip55 text CHECK (length(eip55) = 42);
ALTER TABLE nft_addresses DROP CONSTRAINT nft_addresses_pkey;
ALTER TABLE nft_addresses ADD CONSTRAINT nft_addresses_pkey PRIMARY KEY (id) INCLUDE (address, eip55);
