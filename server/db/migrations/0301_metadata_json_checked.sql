-- Whether a statement's JSON was checked, when it was posted, against the rules it is served by (docs/reference/metadata.md):
-- then its decoded text is served as it is. Rows stored before those rules, or by an instance that
-- predates them (the default covers both), are checked again at each read, and left out of answers if they break one.
ALTER TABLE metadata_posts ADD COLUMN json_checked boolean NOT NULL DEFAULT false;
