-- The signed message and the signature of a login whose scope has `siwe` (docs/reference/login.md: the siwe scope), kept with
-- the grant they proved: the ID tokens of that grant (code exchange, refreshes) carry them so that a relying party
-- can check the signature itself. They go when the grant goes (revoked, expired and swept, client removed).
CREATE TABLE login_siwe_proofs (
  grant_id text PRIMARY KEY,
  -- Always 'Grant': the second half of the key of the grant's row in oidc_payloads.
  grant_kind text NOT NULL DEFAULT 'Grant' CHECK (grant_kind = 'Grant'),
  message text NOT NULL,
  signature text NOT NULL,
  FOREIGN KEY (grant_kind, grant_id) REFERENCES oidc_payloads (kind, id) ON DELETE CASCADE
);
