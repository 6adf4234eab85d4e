-- Where each collection was deployed, as the node told (docs/reference/collections.md): found once per contract by
-- bisection of eth_getCode and kept. `block` NULL: not found, `reason` says why, and it is looked for again after
-- `retry_at`. `deployer` NULL with a block: created by another contract, `reason` says so.
CREATE TABLE collection_deployments (
  network text NOT NULL,
  -- Lower case.
  contract text NOT NULL,
  block_number bigint,
  deployer text,
  tx_hash text,
  reason text,
  retry_at timestamptz,
  PRIMARY KEY (network, contract)
);
