-- ERC-1155 (TransferSingle and TransferBatch): every transfer of an id, and each owner's balance of it.
-- A TransferBatch log moves several ids: batch_index is the position in its arrays (0 for TransferSingle).

CREATE TABLE nft_1155_transfers (
  network text NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  batch_index integer NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  contract text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  amount numeric(78, 0) NOT NULL,
  PRIMARY KEY (network, block_number, log_index, batch_index)
);

-- Balances are sums of transfers (a reorg subtracts what it undoes); rows at zero are deleted.
CREATE TABLE nft_balances (
  network text NOT NULL,
  contract text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  owner text NOT NULL,
  balance numeric(78, 0) NOT NULL,
  PRIMARY KEY (network, contract, token_id, owner)
);
CREATE INDEX nft_balances_inventory ON nft_balances (network, owner, contract, token_id);
