-- What a relying party shows about itself (GET /api/client): per-language texts and two links.
-- title and description map a language ("en", "ja") to its text; the title falls back to the client's name.
ALTER TABLE login_clients
  ADD COLUMN title jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN description jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN logo_url text,
  -- Also an audience of the client's ID tokens (the predecessor's Go client checks for it).
  ADD COLUMN home_url text;
