-- The delegate.xyz v2 registry's delegations (docs/reference/login.md#delegation): one row per DelegateAll,
-- DelegateContract or DelegateERC721 log of the registry, written in the indexer's range transaction like the transfers
-- and removed with the blocks a reorg undoes. A delegation's state is its newest log's `enable`. Read by a login whose
-- client counts delegated holdings: the delegations to one address, by the index below.
CREATE TABLE nft_delegations (
  network_id smallint NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  -- The registry's DelegationType: 1 the whole wallet, 2 a contract, 3 an ERC-721 token.
  kind smallint NOT NULL CHECK (kind IN (1, 2, 3)),
  vault bytea NOT NULL,
  delegate bytea NOT NULL,
  -- Empty for a whole-wallet delegation; the token id 0 unless a token delegation.
  contract bytea NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  rights bytea NOT NULL,
  enable boolean NOT NULL,
  PRIMARY KEY (network_id, block_number, log_index)
);
CREATE INDEX nft_delegations_delegate ON nft_delegations (network_id, delegate, vault, kind, contract, token_id, rights, block_number DESC, log_index DESC);
