-- Holders, transfer history and live changes over the NFT index.

-- Each owner's holding of each contract: ERC-721 tokens held, or ERC-1155 units held (the sum of its balances).
-- Kept by the indexer in the transaction that changes nft_owners / nft_balances (rollbacks included); no row at zero.
CREATE TABLE nft_holdings (
  network text NOT NULL,
  contract text NOT NULL,
  owner text NOT NULL,
  count numeric(78, 0) NOT NULL,
  PRIMARY KEY (network, contract, owner)
);
-- The contracts an owner holds tokens of, in address order, however many tokens it holds of each.
CREATE INDEX nft_holdings_owner ON nft_holdings (network, owner, contract);

-- How many owners hold something of each contract (the rows of nft_holdings), so counting is one row read.
CREATE TABLE nft_holder_counts (
  network text NOT NULL,
  contract text NOT NULL,
  holders bigint NOT NULL,
  PRIMARY KEY (network, contract)
);

INSERT INTO nft_holdings (network, contract, owner, count)
SELECT network, contract, owner, sum(n) FROM (
  SELECT network, contract, owner, count(*)::numeric AS n FROM nft_owners GROUP BY network, contract, owner
  UNION ALL
  SELECT network, contract, owner, sum(balance) FROM nft_balances GROUP BY network, contract, owner
) held GROUP BY network, contract, owner HAVING sum(n) > 0;

INSERT INTO nft_holder_counts (network, contract, holders)
SELECT network, contract, count(*) FROM nft_holdings GROUP BY network, contract;

-- Unix time of the transfer's block (NULL for transfers indexed before times were kept).
ALTER TABLE nft_transfers ADD COLUMN block_time bigint;
ALTER TABLE nft_1155_transfers ADD COLUMN block_time bigint;

-- History, newest first: of an ERC-1155 id (the ERC-721 one exists), and of an address as sender or receiver.
CREATE INDEX nft_1155_transfers_token ON nft_1155_transfers (network, contract, token_id, block_number, log_index, batch_index);
CREATE INDEX nft_transfers_from ON nft_transfers (network, from_address, block_number, log_index);
CREATE INDEX nft_transfers_to ON nft_transfers (network, to_address, block_number, log_index);
CREATE INDEX nft_1155_transfers_from ON nft_1155_transfers (network, from_address, block_number, log_index, batch_index);
CREATE INDEX nft_1155_transfers_to ON nft_1155_transfers (network, to_address, block_number, log_index, batch_index);

-- Append-only log of what the indexer committed, for live subscribers: transfers added ('transfer'), transfers a
-- reorg undid ('removed'), and a network's index started over ('reset'). Ids grow in commit order (writers take a
-- transaction lock before appending), so a subscriber resumes after the last id it saw and misses nothing.
CREATE TABLE nft_changes (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('transfer', 'removed', 'reset')),
  block_number bigint,
  block_time bigint,
  tx_hash text,
  log_index integer,
  batch_index integer,
  contract text,
  token_id numeric(78, 0),
  from_address text,
  to_address text,
  -- ERC-1155 amount; NULL for ERC-721.
  amount numeric(78, 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX nft_changes_created ON nft_changes (created_at);
