-- The first and last login of each account (the ID token's sub) to each client, for the userinfo fields
-- since, first_service and services. Kept when a client is removed: it is the account's history.
CREATE TABLE login_history (
  account text NOT NULL,
  client_id text NOT NULL,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  logins bigint NOT NULL DEFAULT 1,
  PRIMARY KEY (account, client_id)
);
