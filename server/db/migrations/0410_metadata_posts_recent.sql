-- The most recently posted current statements about one target, read in posting order and at most as many as an
-- answer carries (SIGNED_METADATA_ANSWER_MAX_ISSUERS), however many issuers posted about it.
CREATE INDEX metadata_posts_recent ON metadata_posts (kind, network, target, coalesce(token_id, -1), posted_at DESC, issuer) WHERE current;
