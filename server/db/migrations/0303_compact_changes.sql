-- The change log in the compact layout (docs/reference/indexer.md "Layout on disk"): the network and the addresses as the ids of
-- the dictionaries nft_transfers uses, the transaction hash as bytes. A live range's ERC-721 transfers are copied into it
-- as they lie in nft_transfers, with no address to look up or hex to make per row; readers turn them into hex.
-- Ids are kept, and the sequence goes on from them: a subscriber resumes after the last id it saw as before.

INSERT INTO indexer_networks (name)
SELECT DISTINCT network FROM nft_changes c WHERE NOT EXISTS (SELECT 1 FROM indexer_networks n WHERE n.name = c.network)
ORDER BY network;

-- The ERC-1155 and metadata rows name addresses the ERC-721 index may never have seen.
INSERT INTO nft_addresses (address)
SELECT DISTINCT a.address FROM nft_changes c
CROSS JOIN LATERAL (VALUES (c.contract), (c.from_address), (c.to_address)) AS v(hex)
CROSS JOIN LATERAL (SELECT decode(substr(v.hex, 3), 'hex') AS address) AS a
WHERE v.hex IS NOT NULL AND NOT EXISTS (SELECT 1 FROM nft_addresses n WHERE n.address = a.address)
ORDER BY a.address;

CREATE TABLE nft_changes_compact (
  id bigint NOT NULL,
  block_number bigint,
  block_time bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  network_id smallint NOT NULL,
  kind text NOT NULL CONSTRAINT nft_changes_kind_check CHECK (kind IN ('transfer', 'removed', 'reset', 'metadata')),
  log_index integer,
  batch_index integer,
  contract_id integer,
  from_id integer,
  to_id integer,
  tx_hash bytea,
  token_id numeric(78, 0),
  -- Of a 'metadata' change: the last id of its range (token_id is the first).
  to_token_id numeric(78, 0),
  -- ERC-1155 amount; NULL for ERC-721.
  amount numeric(78, 0)
);
INSERT INTO nft_changes_compact
SELECT c.id, c.block_number, c.block_time, c.created_at, n.id, c.kind, c.log_index, c.batch_index,
  ca.id, fa.id, ta.id, decode(substr(c.tx_hash, 3), 'hex'), c.token_id, c.to_token_id, c.amount
FROM nft_changes c
JOIN indexer_networks n ON n.name = c.network
LEFT JOIN nft_addresses ca ON ca.address = decode(substr(c.contract, 3), 'hex')
LEFT JOIN nft_addresses fa ON fa.address = decode(substr(c.from_address, 3), 'hex')
LEFT JOIN nft_addresses ta ON ta.address = decode(substr(c.to_address, 3), 'hex')
ORDER BY c.id;

ALTER SEQUENCE nft_changes_id_seq OWNED BY NONE;
DROP TABLE nft_changes;
ALTER TABLE nft_changes_compact RENAME TO nft_changes;
ALTER TABLE nft_changes ALTER COLUMN id SET DEFAULT nextval('nft_changes_id_seq');
ALTER SEQUENCE nft_changes_id_seq OWNED BY nft_changes.id;
ALTER TABLE nft_changes ADD CONSTRAINT nft_changes_pkey PRIMARY KEY (id);
CREATE INDEX nft_changes_created ON nft_changes (created_at);
