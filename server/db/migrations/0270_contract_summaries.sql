-- One row per indexed contract (docs/reference/collections.md): the standard the index reads it as, the first and
-- latest block with one of its transfers, how many transfers and how much supply (ERC-721 tokens, ERC-1155 units)
-- the index holds, and what the spam rules read of its transfers: the most distinct addresses one transaction minted
-- to, and the transfers that are neither a mint nor a burn. Kept by the indexer in the transaction that writes the
-- transfers, so that a collection's summary, or a page of them, is one row each to read however large the collection.
CREATE TABLE nft_contract_summaries (
  network_id smallint NOT NULL,
  contract bytea NOT NULL,
  standard text NOT NULL CHECK (standard IN ('erc721', 'erc1155')),
  first_block bigint NOT NULL,
  last_block bigint NOT NULL,
  transfers bigint NOT NULL,
  supply numeric(78, 0) NOT NULL,
  most_minted_to bigint NOT NULL DEFAULT 0,
  moved bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (network_id, contract)
);

INSERT INTO nft_contract_summaries (network_id, contract, standard, first_block, last_block, transfers, supply, moved)
SELECT t.network_id, a.address, 'erc721', min(t.block_number), max(t.block_number), count(*),
  sum(CASE WHEN f.address = '\x0000000000000000000000000000000000000000'::bytea THEN 1 ELSE 0 END)
  - sum(CASE WHEN r.address = '\x0000000000000000000000000000000000000000'::bytea THEN 1 ELSE 0 END),
  sum(CASE WHEN f.address <> '\x0000000000000000000000000000000000000000'::bytea
    AND r.address <> '\x0000000000000000000000000000000000000000'::bytea THEN 1 ELSE 0 END)
FROM nft_transfers t JOIN nft_addresses a ON a.id = t.contract_id
  JOIN nft_addresses f ON f.id = t.from_id JOIN nft_addresses r ON r.id = t.to_id
GROUP BY t.network_id, a.address;

INSERT INTO nft_contract_summaries (network_id, contract, standard, first_block, last_block, transfers, supply, moved)
SELECT t.network_id, a.address, 'erc1155', min(t.block_number), max(t.block_number), count(*),
  sum(CASE WHEN f.address = '\x0000000000000000000000000000000000000000'::bytea THEN t.amount ELSE 0 END)
  - sum(CASE WHEN r.address = '\x0000000000000000000000000000000000000000'::bytea THEN t.amount ELSE 0 END),
  sum(CASE WHEN f.address <> '\x0000000000000000000000000000000000000000'::bytea
    AND r.address <> '\x0000000000000000000000000000000000000000'::bytea THEN 1 ELSE 0 END)
FROM nft_1155_transfers t JOIN nft_addresses a ON a.id = t.contract_id
  JOIN nft_addresses f ON f.id = t.from_id JOIN nft_addresses r ON r.id = t.to_id
GROUP BY t.network_id, a.address
ON CONFLICT (network_id, contract) DO NOTHING;

-- The most distinct addresses one transaction minted to, per contract.
UPDATE nft_contract_summaries s SET most_minted_to = m.most
FROM (
  SELECT network_id, contract, max(n) AS most FROM (
    SELECT t.network_id, a.address AS contract, count(DISTINCT t.to_id) AS n
    FROM nft_transfers t JOIN nft_addresses a ON a.id = t.contract_id JOIN nft_addresses f ON f.id = t.from_id
    WHERE f.address = '\x0000000000000000000000000000000000000000'::bytea
    GROUP BY t.network_id, a.address, t.tx_hash
    UNION ALL
    SELECT t.network_id, a.address, count(DISTINCT t.to_id)
    FROM nft_1155_transfers t JOIN nft_addresses a ON a.id = t.contract_id JOIN nft_addresses f ON f.id = t.from_id
    WHERE f.address = '\x0000000000000000000000000000000000000000'::bytea
    GROUP BY t.network_id, a.address, t.tx_hash
  ) per_tx GROUP BY network_id, contract
) m
WHERE s.network_id = m.network_id AND s.contract = m.contract;
