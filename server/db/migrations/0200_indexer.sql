-- ERC-721 index (docs/reference/indexer.md): every Transfer, the current owner of every token, and where each network's index is.
-- Addresses are lower-case hex; token ids numeric(78,0) (exact uint256).

-- The index of a network is complete up to block_number, whose hash is block_hash.
CREATE TABLE indexer_cursors (
  network text PRIMARY KEY,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Hashes of recently indexed blocks, to find the common ancestor after a reorg.
CREATE TABLE indexer_blocks (
  network text NOT NULL,
  number bigint NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (network, number)
);

CREATE TABLE nft_transfers (
  network text NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  contract text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  PRIMARY KEY (network, block_number, log_index)
);
-- A token's history, newest last: rebuilds its owner after a reorg.
CREATE INDEX nft_transfers_token ON nft_transfers (network, contract, token_id, block_number, log_index);

CREATE TABLE nft_owners (
  network text NOT NULL,
  contract text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  owner text NOT NULL,
  -- The transfer that made it the owner.
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  PRIMARY KEY (network, contract, token_id)
);
-- Inventory: an owner's tokens by contract and id (also the paging order).
CREATE INDEX nft_owners_inventory ON nft_owners (network, owner, contract, token_id);
