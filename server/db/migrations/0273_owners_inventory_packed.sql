-- The inventory index's key in the order that packs it: the owner's and the contract's ids (4 bytes each), the
-- network's id (2), then the token id (a numeric, stored unaligned). With the network's id first, 2 bytes of padding
-- came before the owner's id, and the entry of an id below 10,000 (most collections' ids) took 32 bytes with its
-- header, where it now takes 24 (an index entry is rounded up to 8 bytes); no id takes more than before. Every read of
-- this index names all three ids (an owner's tokens of one contract on one network, in id order), so their order in
-- the key changes no plan.
-- Built beside the old one, then put in its place: CREATE INDEX takes SHARE on nft_owners (reads go on, the
-- indexer's writes wait for the build); DROP INDEX then takes ACCESS EXCLUSIVE until the transaction ends, a moment.
CREATE INDEX nft_owners_inventory_packed ON nft_owners (owner_id, contract_id, network_id, token_id);
DROP INDEX nft_owners_inventory;
ALTER INDEX nft_owners_inventory_packed RENAME TO nft_owners_inventory;
