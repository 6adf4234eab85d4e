-- When the document (or the error) a token's cache entry serves was read, by the service's clock: the token answers'
-- metadataUpdatedAt (docs/reference/metadata.md). A failed read that keeps the document read before does not move it,
-- while fetched_at says when the tokenURI was last read. Entries cached before this column serve their fetched_at.
ALTER TABLE token_metadata ADD COLUMN metadata_updated_at timestamptz;
