-- An address is read from the dictionary's key alone (an index-only scan), instead of the key's entry and then its
-- table row: a history page or a change-log read looks up every row's addresses by id, each lookup one page of the
-- key instead of two at random places. The dictionary only grows (ids are never deleted or updated), so vacuum keeps
-- its pages all-visible and the table is never read for them. Rebuilding the key holds writes to nft_addresses until
-- done (upgrades.md).
ALTER TABLE nft_addresses DROP CONSTRAINT nft_addresses_pkey;
ALTER TABLE nft_addresses ADD CONSTRAINT nft_addresses_pkey PRIMARY KEY (id) INCLUDE (address);
