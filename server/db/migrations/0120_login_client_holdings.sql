-- A client's holdings configuration (docs/reference/login.md: holdings and gates): the collections its logins report in
-- the `holdings` claim and the gate they must meet, as `npm run client` and dynamic registration take it; null: none.
ALTER TABLE login_clients ADD COLUMN holdings jsonb;
