-- Issuer-signed metadata (docs/reference/metadata.md). Every accepted post is kept; the latest per (target, issuer) is current.
CREATE TABLE metadata_posts (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('nft', 'account')),
  network text NOT NULL,
  -- NFT: the token contract; account: the account. Lower case.
  target text NOT NULL,
  -- NFT token id; NULL for account metadata.
  token_id numeric(78, 0),
  issuer text NOT NULL,
  metadata_b64 text NOT NULL,
  -- SHA-256 of metadata_b64: what "the same body" is compared by (the Base64 itself is too long to index).
  body_hash bytea NOT NULL,
  signature text NOT NULL,
  signed_text text NOT NULL,
  binding text NOT NULL CHECK (binding IN ('target', 'none')),
  signer_kind text NOT NULL,
  posted_at timestamptz NOT NULL DEFAULT now(),
  current boolean NOT NULL DEFAULT true
);

-- Queries name a target by coalesce(token_id, -1) (-1 for accounts), as these indexes do, so that every lookup
-- uses all their columns.
-- One current version per (target, issuer), whatever happens concurrently; also the reads of current versions.
CREATE UNIQUE INDEX metadata_posts_current ON metadata_posts (kind, network, target, coalesce(token_id, -1), issuer) WHERE current;
-- The replay check against an issuer's history.
CREATE INDEX metadata_posts_history ON metadata_posts (kind, network, target, coalesce(token_id, -1), issuer, body_hash);
