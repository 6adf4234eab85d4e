-- The ERC-1155 transfers and balances in the compact layout of the ERC-721 ones (docs/indexer.md "Layout on disk"), so
-- both standards' rows are one layout and the store asks each question of both tables the same way.
-- nft_1155_transfers is laid out as nft_transfers, with the amount after it: network and address ids, the hash as
-- bytes, no block hash (indexer_blocks keeps the window reorgs need), no primary key, narrow history indexes.
-- nft_balances is laid out as nft_holdings: the network's id, addresses as bytes, because the holders of an id are
-- listed in address order and bytes sort as their lower-case hex does.
-- batch_index means the same in both transfer tables: the id's position among the ids its log moves (0 for Transfer
-- and TransferSingle; the offset in a ConsecutiveTransfer range; the position in a TransferBatch's arrays).
-- One transaction, as every migration: an interrupted run leaves the text layout whole and the next start runs it again.
-- It may run after 0303 (a database that had every migration up to it) or before it (a new database): it reads only
-- the two ERC-1155 tables and adds to the dictionaries what they name.

INSERT INTO indexer_networks (name)
SELECT network FROM (SELECT network FROM nft_1155_transfers UNION SELECT network FROM nft_balances) t
WHERE NOT EXISTS (SELECT 1 FROM indexer_networks n WHERE n.name = t.network)
ORDER BY network;

INSERT INTO nft_addresses (address)
SELECT a.address FROM (
  SELECT DISTINCT decode(substr(hex, 3), 'hex') AS address FROM (
    SELECT contract AS hex FROM nft_1155_transfers
    UNION SELECT from_address FROM nft_1155_transfers
    UNION SELECT to_address FROM nft_1155_transfers
  ) h
) a
WHERE NOT EXISTS (SELECT 1 FROM nft_addresses n WHERE n.address = a.address)
ORDER BY a.address;

-- Fixed-width columns first, widest first, so rows carry no alignment padding.
CREATE TABLE nft_1155_transfers_compact (
  block_number bigint NOT NULL,
  block_time bigint,
  log_index integer NOT NULL,
  batch_index integer NOT NULL,
  contract_id integer NOT NULL,
  from_id integer NOT NULL,
  to_id integer NOT NULL,
  network_id smallint NOT NULL,
  tx_hash bytea NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  amount numeric(78, 0) NOT NULL
);

INSERT INTO nft_1155_transfers_compact
SELECT t.block_number, t.block_time, t.log_index, t.batch_index, c.id, f.id, r.id, n.id, decode(substr(t.tx_hash, 3), 'hex'),
  t.token_id, t.amount
FROM nft_1155_transfers t
JOIN indexer_networks n ON n.name = t.network
JOIN nft_addresses c ON c.address = decode(substr(t.contract, 3), 'hex')
JOIN nft_addresses f ON f.address = decode(substr(t.from_address, 3), 'hex')
JOIN nft_addresses r ON r.address = decode(substr(t.to_address, 3), 'hex')
ORDER BY n.id, t.block_number, t.log_index, t.batch_index;

DROP TABLE nft_1155_transfers;
ALTER TABLE nft_1155_transfers_compact RENAME TO nft_1155_transfers;

-- The indexes of nft_transfers, for the same reads: what a reorg undoes, and the three histories newest first.
CREATE INDEX nft_1155_transfers_block ON nft_1155_transfers (network_id, block_number);
CREATE INDEX nft_1155_transfers_token ON nft_1155_transfers (network_id, contract_id, token_id, block_number, log_index, batch_index);
CREATE INDEX nft_1155_transfers_from ON nft_1155_transfers (network_id, from_id, block_number, log_index, batch_index);
CREATE INDEX nft_1155_transfers_to ON nft_1155_transfers (network_id, to_id, block_number, log_index, batch_index);

CREATE TABLE nft_balances_compact (
  network_id smallint NOT NULL,
  contract bytea NOT NULL,
  owner bytea NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  balance numeric(78, 0) NOT NULL
);

INSERT INTO nft_balances_compact
SELECT n.id, decode(substr(b.contract, 3), 'hex'), decode(substr(b.owner, 3), 'hex'), b.token_id, b.balance
FROM nft_balances b JOIN indexer_networks n ON n.name = b.network
ORDER BY n.id, b.contract, b.token_id, b.owner;

DROP TABLE nft_balances;
ALTER TABLE nft_balances_compact RENAME TO nft_balances;
-- The holders of an id in address order, and an owner's ids of a contract in id order, each with its balance in the
-- key's index.
ALTER TABLE nft_balances ADD CONSTRAINT nft_balances_pkey PRIMARY KEY (network_id, contract, token_id, owner) INCLUDE (balance);
CREATE INDEX nft_balances_inventory ON nft_balances (network_id, owner, contract, token_id) INCLUDE (balance);
