-- The addresses that have no EIP-55 form yet (written before 0266), for the indexer's background pass that gives them
-- one (server/indexer/address-checksums.ts): it reads them a batch at a time by this index and leaves it empty. The
-- writer gives every new address its form, so nothing enters it afterwards and an index that started after 0266 never
-- holds an entry.
CREATE INDEX nft_addresses_to_checksum ON nft_addresses (id) WHERE eip55 IS NULL;
