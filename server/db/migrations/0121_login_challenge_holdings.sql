-- The collections one login asks for with the `claims` request parameter (docs/reference/login.md: holdings and
-- gates), stored with its challenge as the client's configuration is stored; null: none.
ALTER TABLE login_challenges ADD COLUMN holdings jsonb;

-- login_save_challenge (migration 0113) with the challenge's holdings. An overload, not a replacement: instances of the
-- previous version keep calling the one without them while instances roll.
CREATE FUNCTION login_save_challenge(
  new_id text, new_address text, new_client_id text, new_redirect_uri text, new_scope text, new_state text,
  new_nonce text, new_code_challenge text, new_code_challenge_method text, new_network text, new_message text,
  new_format text, new_expires_at timestamptz, new_requester text, new_holdings jsonb, per_address integer, max_open integer
) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('login_challenges:' || new_requester, 0));
  DELETE FROM login_challenges WHERE requester = new_requester AND (expires_at <= now() OR id IN (
    SELECT id FROM login_challenges
    WHERE requester = new_requester AND address = new_address AND consumed_at IS NULL AND expires_at > now()
    ORDER BY created_at DESC, id OFFSET per_address - 1));
  IF (SELECT count(*) FROM login_challenges WHERE requester = new_requester AND consumed_at IS NULL AND expires_at > now()) >= max_open THEN
    RETURN false;
  END IF;
  INSERT INTO login_challenges (id, address, client_id, redirect_uri, scope, state, nonce, code_challenge,
    code_challenge_method, network, message, format, expires_at, requester, holdings)
  VALUES (new_id, new_address, new_client_id, new_redirect_uri, new_scope, new_state, new_nonce, new_code_challenge,
    new_code_challenge_method, new_network, new_message, new_format, new_expires_at, new_requester, new_holdings);
  RETURN true;
END
$$;
