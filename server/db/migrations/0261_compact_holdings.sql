-- Holdings and holder counts in the compact layout (docs/reference/indexer.md "Layout on disk"): the network as its id and
-- addresses as bytes. Addresses stay in the keys, not ids: holders are listed in address order, and the contracts
-- of an owner too, and bytes compare in the same order as their lower-case hex.

INSERT INTO indexer_networks (name)
SELECT DISTINCT network FROM nft_holdings h WHERE NOT EXISTS (SELECT 1 FROM indexer_networks n WHERE n.name = h.network)
ORDER BY network;

CREATE TABLE nft_holdings_compact (
  network_id smallint NOT NULL,
  contract bytea NOT NULL,
  owner bytea NOT NULL,
  count numeric(78, 0) NOT NULL
);
INSERT INTO nft_holdings_compact
SELECT n.id, decode(substr(h.contract, 3), 'hex'), decode(substr(h.owner, 3), 'hex'), h.count
FROM nft_holdings h JOIN indexer_networks n ON n.name = h.network
ORDER BY n.id, h.contract, h.owner;
DROP TABLE nft_holdings;
ALTER TABLE nft_holdings_compact RENAME TO nft_holdings;
ALTER TABLE nft_holdings ADD CONSTRAINT nft_holdings_pkey PRIMARY KEY (network_id, contract, owner);
-- The contracts an owner holds tokens of, in address order.
CREATE INDEX nft_holdings_owner ON nft_holdings (network_id, owner, contract);

CREATE TABLE nft_holder_counts_compact (
  network_id smallint NOT NULL,
  contract bytea NOT NULL,
  holders bigint NOT NULL
);
INSERT INTO nft_holder_counts_compact
SELECT n.id, decode(substr(c.contract, 3), 'hex'), c.holders
FROM nft_holder_counts c JOIN indexer_networks n ON n.name = c.network;
DROP TABLE nft_holder_counts;
ALTER TABLE nft_holder_counts_compact RENAME TO nft_holder_counts;
ALTER TABLE nft_holder_counts ADD CONSTRAINT nft_holder_counts_pkey PRIMARY KEY (network_id, contract);
