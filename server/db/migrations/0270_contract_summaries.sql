-- One row per indexed contract (docs/reference/collections.md): the standard the index reads it as, the first and
-- latest block with one of its transfers, how many transfers and how much supply (ERC-721 tokens, ERC-1155 units)
-- the index holds. Kept by the indexer in the transaction that writes the transfers, so that a collection's summary,
-- or a page of them, is one row each to read however large the collection.
CREATE TABLE nft_contract_summaries (
  network_id smallint NOT NULL,
  contract bytea NOT NULL,
  standard text NOT NULL CHECK (standard IN ('erc721', 'erc1155')),
  first_block bigint NOT NULL,
  last_block bigint NOT NULL,
  transfers bigint NOT NULL,
  supply numeric(78, 0) NOT NULL,
  PRIMARY KEY (network_id, contract)
);

INSERT INTO nft_contract_summaries (network_id, contract, standard, first_block, last_block, transfers, supply)
SELECT t.network_id, a.address, 'erc721', min(t.block_number), max(t.block_number), count(*),
  sum(CASE WHEN f.address = '\x0000000000000000000000000000000000000000'::bytea THEN 1 ELSE 0 END)
  - sum(CASE WHEN r.address = '\x0000000000000000000000000000000000000000'::bytea THEN 1 ELSE 0 END)
FROM nft_transfers t JOIN nft_addresses a ON a.id = t.contract_id
  JOIN nft_addresses f ON f.id = t.from_id JOIN nft_addresses r ON r.id = t.to_id
GROUP BY t.network_id, a.address;

INSERT INTO nft_contract_summaries (network_id, contract, standard, first_block, last_block, transfers, supply)
SELECT t.network_id, a.address, 'erc1155', min(t.block_number), max(t.block_number), count(*),
  sum(CASE WHEN f.address = '\x0000000000000000000000000000000000000000'::bytea THEN t.amount ELSE 0 END)
  - sum(CASE WHEN r.address = '\x0000000000000000000000000000000000000000'::bytea THEN t.amount ELSE 0 END)
FROM nft_1155_transfers t JOIN nft_addresses a ON a.id = t.contract_id
  JOIN nft_addresses f ON f.id = t.from_id JOIN nft_addresses r ON r.id = t.to_id
GROUP BY t.network_id, a.address
ON CONFLICT (network_id, contract) DO NOTHING;
