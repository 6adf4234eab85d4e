import { arrayLiteral } from "../../db/arrays";
import type { Queryable } from "../../db/database";
import { ZERO_ADDRESS } from "../transfers";

/**
 * Collections' spam verdicts (nft_spam_flags), as the collections' classifier computes them from the summaries: each
 * verdict records the transfers the index held when it was made, so that a contract whose summary moved on (new
 * transfers, a reorg) is classified again, and one that did not keeps its verdict (it does not flip between reads).
 */

/** A stored verdict: the flag and the names of the rules that fired. */
export interface SpamVerdict {
  flag: boolean;
  reasons: string[];
}

/** Up to `limit` contracts (lower case) never classified or whose transfers changed since, the most recently active first. */
export async function contractsToClassify(db: Queryable, network: string, limit: number): Promise<string[]> {
  // $1 network, $2 limit
  const { rows } = await db.query<{ contract: string }>(
    `SELECT '0x' || encode(s.contract, 'hex') AS contract
     FROM nft_contract_summaries s LEFT JOIN nft_spam_flags f ON f.network_id = s.network_id AND f.contract = s.contract
     WHERE s.network_id = (SELECT id FROM indexer_networks WHERE name = $1)
       AND (f.contract IS NULL OR f.classified_transfers <> s.transfers)
     ORDER BY s.last_block DESC LIMIT $2`,
    [network, limit],
  );
  return rows.map((r) => r.contract);
}

/** Stores verdicts, each with the transfers the index held of its contract when it was made. */
export async function recordSpamVerdicts(
  db: Queryable,
  network: string,
  verdicts: Array<SpamVerdict & { contract: string; transfers: number }>,
): Promise<void> {
  if (verdicts.length === 0) return;
  // $1 network, then a column each: $2 contracts (hex), $3 flags, $4 reasons (JSON arrays), $5 transfers
  await db.query(
    `INSERT INTO nft_spam_flags AS f (network_id, contract, flag, reasons, classified_transfers, classified_at)
     SELECT (SELECT id FROM indexer_networks WHERE name = $1), decode(substr(contract, 3), 'hex'), flag,
       ARRAY(SELECT json_array_elements_text(reasons::json)), transfers, now()
     FROM unnest($2::text[], $3::boolean[], $4::text[], $5::bigint[]) AS v(contract, flag, reasons, transfers)
     ON CONFLICT (network_id, contract) DO UPDATE SET flag = excluded.flag, reasons = excluded.reasons,
       classified_transfers = excluded.classified_transfers, classified_at = excluded.classified_at`,
    [
      network,
      arrayLiteral(verdicts.map((v) => v.contract)),
      verdicts.map((v) => v.flag),
      verdicts.map((v) => JSON.stringify(v.reasons)),
      arrayLiteral(verdicts.map((v) => v.transfers)),
    ],
  );
}

/** The stored verdicts of some contracts (lower case), by contract; a contract never classified is absent. */
export async function spamVerdicts(db: Queryable, network: string, contracts: readonly string[]): Promise<Map<string, SpamVerdict>> {
  if (contracts.length === 0) return new Map();
  // $1 network, $2 contracts (hex)
  const { rows } = await db.query<{ contract: string; flag: boolean; reasons: string[] }>(
    `SELECT '0x' || encode(contract, 'hex') AS contract, flag, reasons FROM nft_spam_flags
     WHERE network_id = (SELECT id FROM indexer_networks WHERE name = $1)
       AND contract = ANY (SELECT decode(substr(k, 3), 'hex') FROM unnest($2::text[]) k)`,
    [network, arrayLiteral(contracts)],
  );
  return new Map(rows.map((r) => [r.contract, { flag: r.flag, reasons: r.reasons }]));
}

/**
 * The mint transactions among the first transfers of a contract in token id order (at most `scan` rows read, through
 * the token index), each with its distinct recipients: the sample the classifier asks the senders of.
 */
export async function sampleMints(
  db: Queryable,
  query: { network: string; contract: string; scan: number; transactions: number },
): Promise<Array<{ tx: string; recipients: string[] }>> {
  // $1 network, $2 contract, $3 rows scanned, $4 transactions, $5 the zero address
  const { rows } = await db.query<{ tx: string; recipients: string[] }>(
    `WITH k AS (
       SELECT (SELECT id FROM indexer_networks WHERE name = $1) AS net,
         (SELECT id FROM nft_addresses WHERE address = decode(substr($2, 3), 'hex')) AS contract_id,
         (SELECT id FROM nft_addresses WHERE address = decode(substr($5, 3), 'hex')) AS zero_id
     ), first AS (
       (SELECT t.tx_hash, t.from_id, t.to_id FROM nft_transfers t, k
        WHERE t.network_id = k.net AND t.contract_id = k.contract_id ORDER BY t.token_id LIMIT $3)
       UNION ALL
       (SELECT t.tx_hash, t.from_id, t.to_id FROM nft_1155_transfers t, k
        WHERE t.network_id = k.net AND t.contract_id = k.contract_id ORDER BY t.token_id LIMIT $3)
     )
     SELECT '0x' || encode(f.tx_hash, 'hex') AS tx, array_agg(DISTINCT '0x' || encode(a.address, 'hex')) AS recipients
     FROM first f CROSS JOIN k JOIN nft_addresses a ON a.id = f.to_id
     WHERE f.from_id = k.zero_id
     GROUP BY f.tx_hash ORDER BY f.tx_hash LIMIT $4`,
    [query.network, query.contract, query.scan, query.transactions, ZERO_ADDRESS],
  );
  return rows;
}
