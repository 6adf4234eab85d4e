-- Login service (docs/reference/login.md). Nothing single-use lives in process memory: several instances share these tables.

-- Relying parties, registered with `npm run client`. The secret is kept only as a hash (shown once at creation).
CREATE TABLE login_clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  -- 'sha256$<hex>' of a 256-bit random secret; NULL for public clients (PKCE, token_endpoint_auth_method none).
  secret_hash text,
  redirect_uris text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A sign-in message handed out by GET /api/authorize, bound to everything the code will be bound to.
CREATE TABLE login_challenges (
  id text PRIMARY KEY,
  -- Lower case.
  address text NOT NULL,
  client_id text NOT NULL REFERENCES login_clients (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  scope text NOT NULL,
  state text,
  nonce text,
  code_challenge text,
  code_challenge_method text,
  network text NOT NULL,
  -- The exact text the wallet signs, in the four-line 'text' format or EIP-4361 'siwe'.
  message text NOT NULL,
  format text NOT NULL CHECK (format IN ('text', 'siwe')),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- /api/login looks up the caller's open challenges by address and client.
CREATE INDEX login_challenges_open ON login_challenges (address, client_id, created_at DESC) WHERE consumed_at IS NULL;
CREATE INDEX login_challenges_expiry ON login_challenges (expires_at);

-- oidc-provider's models (authorization codes, grants, tokens, interactions, ...) through our adapter.
CREATE TABLE oidc_payloads (
  kind text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (kind, id)
);
CREATE INDEX oidc_payloads_grant ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_uid ON oidc_payloads (kind, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_user_code ON oidc_payloads (kind, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_payloads_expiry ON oidc_payloads (expires_at) WHERE expires_at IS NOT NULL;

-- Keys made once and shared by every instance: 'signing' (ID-token JWKs, private) and 'cookie' (oidc-provider's
-- cookie signing keys). The newest active signing key signs; active and staged keys are published (JWKS, x509),
-- retired ones are not. Instances read them at start (docs/reference/login.md: signing keys and rotation).
CREATE TABLE login_keys (
  kid text PRIMARY KEY,
  use text NOT NULL CHECK (use IN ('signing', 'cookie')),
  jwk jsonb NOT NULL,
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('staged', 'active', 'retired')),
  created_at timestamptz NOT NULL DEFAULT now(),
  changed_at timestamptz NOT NULL DEFAULT now()
);
