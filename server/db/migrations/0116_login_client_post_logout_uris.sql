-- Where RP-initiated logout may send the browser back to (docs/reference/login.md: logout), registered like redirect URIs.
ALTER TABLE login_clients ADD COLUMN post_logout_redirect_uris text[] NOT NULL DEFAULT '{}';
