-- Token metadata read from each token's tokenURI, cached with an expiry. One row per token; a failed read is kept
-- too (metadata NULL, error set) so a broken URI is not fetched on every request.
CREATE TABLE token_metadata (
  network text NOT NULL,
  -- Lower case.
  contract text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  -- As the contract answered ({id} substituted for ERC-1155); NULL when it could not be read.
  token_uri text,
  -- The JSON object exactly as served (key order and number digits kept), or NULL.
  metadata text,
  -- The image as a URL a browser can load, or NULL.
  image text,
  -- Why metadata is NULL.
  error text,
  fetched_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (network, contract, token_id)
);
