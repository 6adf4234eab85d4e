import type { Queryable } from "../db/database";
import { tooManyRequests, type StatementCount } from "../rate-limits";
import { collectionsParameter, FULL_RIGHTS, holdingsOfRows, type HoldingRow, type WalletHoldings } from "../indexer";
import type { HoldingsQuestion } from "./holdings";
import { heldColumns, type HeldWrite } from "./oidc";

/*
 * The statement that redeems a login's challenge and, only when it does, stores what the login made: one round trip
 * decides, so of two instances redeeming the same signature at once exactly one gets a code (docs/guides/architecture.md:
 * a login). It is the one exception to the rule that each table has one owning module: it writes login_challenges,
 * oidc_payloads, login_history and login_siwe_proofs in one statement, so it is written out whole here rather than
 * assembled from their owners' parts. Each of those tables' other SQL stays with its owner. Where the rate limits'
 * counts are shared, its second form also counts the request in request_windows (server/rate-limits owns that table
 * and its other SQL): one statement per login step, the count included (docs/reference/login.md).
 *
 * A login of a client with holdings (holdings.ts) sends one of its other two forms, which also read what the signer
 * holds of the client's collections from the index (the second, for a client that counts delegations, what the vaults
 * that delegated to the signer hold too) and redeem the challenge only when they meet the gate: the read decides the
 * redemption, so it belongs to the same statement, and a gated login costs no round trip more than a plain one. Those
 * forms are the login's, so they live here with the rest of the login's statement; they only read the index's tables
 * (server/indexer owns them and writes them), as the index's own holdings statements read them
 * (server/indexer/store/wallet-holdings.ts, which a refresh and userinfo send): a change of those tables changes both.
 */

// A redeemed challenge is of no further use (only open ones are ever looked up): deleted, not kept marked. Nothing
// else is stored when it was used already, retired or expired. The history's row is one upsert at the database's
// clock: logins of one account on several instances at once all land, none lost or duplicated. The proof refers to
// the grant stored by the same statement (its foreign key is checked at the statement's end). With a rate-limit count
// to make, it is made first, one more on the requester's row of request_windows as server/rate-limits' own COUNT makes
// it, and the challenge is redeemed only within the limit.
// $1 the challenge's id; $2…$8 the held writes' columns as heldColumns gives them (kind, id, payload as JSON text,
// grant_id, user_code, uid, expires_at); $9 the account (the history's key), $10 the client; $11 and $12 the signed
// message and the signature with the siwe scope, else null; $13 the count's family (null: no count to make), $14 its
// requester, $15 its window start, $16 the limit.
const REDEEM = `WITH counted AS (
    INSERT INTO request_windows AS w (family, requester, window_start, count)
    SELECT $13::text, $14::text, $15::bigint, 1 WHERE $13::text IS NOT NULL
    ON CONFLICT (family, requester, window_start) DO UPDATE SET count = w.count + 1
    RETURNING count
  ), consumed AS (
    DELETE FROM login_challenges
    WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() AND NOT EXISTS (SELECT 1 FROM counted WHERE count > $16::int)
    RETURNING id
  ), held AS (
    INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
    SELECT kind, id, payload::jsonb, grant_id, user_code, uid, expires_at
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
      AS w(kind, id, payload, grant_id, user_code, uid, expires_at)
    WHERE EXISTS (SELECT 1 FROM consumed)
    RETURNING kind, id
  ), history AS (
    INSERT INTO login_history (account, client_id, first_at, last_at)
    SELECT $9::text, $10::text, now(), now() WHERE EXISTS (SELECT 1 FROM consumed)
    ON CONFLICT (account, client_id) DO UPDATE SET
      first_at = LEAST(login_history.first_at, EXCLUDED.first_at),
      last_at = GREATEST(login_history.last_at, EXCLUDED.last_at),
      logins = login_history.logins + 1
  ), proof AS (
    INSERT INTO login_siwe_proofs (grant_id, message, signature)
    SELECT id, $11::text, $12::text FROM held WHERE kind = 'Grant' AND $11::text IS NOT NULL
  )
  SELECT EXISTS (SELECT 1 FROM consumed) AS redeemed, (SELECT count FROM counted) AS counted`;

// REDEEM, reading the signer's holdings first (as the statement server/indexer/store/wallet-holdings.ts sends without
// delegations, as `holdings`), their sum per collection checked against the gate's terms (`gate`); the challenge is
// redeemed only when they meet it. The grant stored carries the rows read (in its payload's loginHoldings, when the
// login put that member there: the claim is made of them when the grant is read, holdings.ts). $1 to $16 as REDEEM's;
// $17 the signer (lower case); $18 the collections as a JSON array of {i, network, contract, ids}, $19 the most ids
// listed per collection plus one, as the index's statement takes them; $20 the gate's terms as a JSON array of
// {t, i, min} (met when every condition of some term is), null when there is no gate. One row of `holdings` per
// collection, shaped as REDEEM_WITH_DELEGATED_HOLDINGS's own rows (vault null). Each contract and the signer are
// decoded once, in `q` (materialized, so that the planner does not fold it back into the lookups): written in the
// lookups, decode() ran again for every row they scanned, and the planner scans a small table rather than its index.
const REDEEM_WITH_HOLDINGS = `WITH counted AS (
    INSERT INTO request_windows AS w (family, requester, window_start, count)
    SELECT $13::text, $14::text, $15::bigint, 1 WHERE $13::text IS NOT NULL
    ON CONFLICT (family, requester, window_start) DO UPDATE SET count = w.count + 1
    RETURNING count
  ), q AS MATERIALIZED (
    SELECT q.*, decode(substr(q.contract, 3), 'hex') AS contract_key, decode(substr($17, 3), 'hex') AS signer
    FROM jsonb_to_recordset($18::jsonb) AS q(i integer, network text, contract text, ids text)
  ), holdings AS (
    SELECT q.i, NULL::text AS vault, NULL::smallint AS via, c.block_number AS indexed,
      CASE WHEN q.ids IS NULL THEN
        COALESCE((SELECT h.count FROM nft_holdings h
          WHERE h.network_id = n.id AND h.contract = q.contract_key AND h.owner = q.signer), 0)
      ELSE
        (SELECT count(*) FROM nft_owners x
          WHERE x.network_id = n.id AND x.contract_id = ca.id AND x.owner_id = oa.id AND x.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
        + COALESCE((SELECT sum(b.balance) FROM nft_balances b
          WHERE b.network_id = n.id AND b.contract = q.contract_key AND b.owner = q.signer
            AND b.token_id = ANY (string_to_array(q.ids, ',')::numeric[]) AND b.balance > 0), 0)
      END::text AS count,
      ARRAY(
        (SELECT x.token_id FROM nft_owners x
          WHERE x.network_id = n.id AND x.owner_id = oa.id AND x.contract_id = ca.id
            AND (q.ids IS NULL OR x.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
          ORDER BY x.token_id LIMIT $19)
        UNION ALL
        (SELECT b.token_id FROM nft_balances b
          WHERE b.network_id = n.id AND b.owner = q.signer AND b.contract = q.contract_key
            AND b.balance > 0 AND (q.ids IS NULL OR b.token_id = ANY (string_to_array(q.ids, ',')::numeric[]))
          ORDER BY b.token_id LIMIT $19)
        ORDER BY 1 LIMIT $19
      )::text[] AS ids,
      EXISTS (SELECT 1 FROM nft_skipped_ranges s WHERE s.network = q.network AND s.contract = q.contract) AS incomplete,
      false AS more_delegations
    FROM q
      LEFT JOIN indexer_cursors c ON c.network = q.network
      LEFT JOIN indexer_networks n ON n.name = q.network
      LEFT JOIN nft_addresses ca ON ca.address = q.contract_key
      LEFT JOIN nft_addresses oa ON oa.address = q.signer
  ), read AS (
    SELECT COALESCE(jsonb_agg(to_jsonb(h) ORDER BY h.i), '[]'::jsonb) AS rows FROM holdings h
  ), gate AS (
    SELECT $20::jsonb IS NULL OR EXISTS (
      SELECT 1 FROM jsonb_to_recordset($20::jsonb) AS g(t integer, i integer, min numeric)
      GROUP BY g.t
      HAVING bool_and((SELECT sum(h.count::numeric) FROM holdings h WHERE h.i = g.i) >= g.min)
    ) AS meets
  ), consumed AS (
    DELETE FROM login_challenges
    WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() AND NOT EXISTS (SELECT 1 FROM counted WHERE count > $16::int)
      AND (SELECT meets FROM gate)
    RETURNING id
  ), held AS (
    INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
    SELECT kind, id,
      CASE WHEN kind = 'Grant' AND payload::jsonb ? 'loginHoldings'
        THEN jsonb_set(payload::jsonb, '{loginHoldings,rows}', (SELECT rows FROM read)) ELSE payload::jsonb END,
      grant_id, user_code, uid, expires_at
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
      AS w(kind, id, payload, grant_id, user_code, uid, expires_at)
    WHERE EXISTS (SELECT 1 FROM consumed)
    RETURNING kind, id
  ), history AS (
    INSERT INTO login_history (account, client_id, first_at, last_at)
    SELECT $9::text, $10::text, now(), now() WHERE EXISTS (SELECT 1 FROM consumed)
    ON CONFLICT (account, client_id) DO UPDATE SET
      first_at = LEAST(login_history.first_at, EXCLUDED.first_at),
      last_at = GREATEST(login_history.last_at, EXCLUDED.last_at),
      logins = login_history.logins + 1
  ), proof AS (
    INSERT INTO login_siwe_proofs (grant_id, message, signature)
    SELECT id, $11::text, $12::text FROM held WHERE kind = 'Grant' AND $11::text IS NOT NULL
  )
  SELECT EXISTS (SELECT 1 FROM consumed) AS redeemed, (SELECT count FROM counted) AS counted,
    (SELECT meets FROM gate) AS meets_gate, (SELECT rows FROM read) AS holdings`;

// REDEEM_WITH_HOLDINGS for a client that counts delegations: the signer's holdings and, read in the same statement,
// those of the vaults that delegated to it (the statement server/indexer/store/wallet-holdings.ts sends with
// delegations, as `holdings`). A form of its own rather than one form with the delegations switched off by a
// parameter: that one costs a client without delegation more database time (a larger plan to run), measured with
// pgbench beside REDEEM_WITH_HOLDINGS. $1 to $19 as REDEEM_WITH_HOLDINGS's; $20 the rights counted beside full ones
// (32 bytes of hex); $21 the most delegations read; $22 the gate's terms as REDEEM_WITH_HOLDINGS's $20. Rows of
// `holdings`: the signer's own first (vault null), then each vault's, per collection. Contracts and signer decoded
// once, in `q`, as REDEEM_WITH_HOLDINGS's.
const REDEEM_WITH_DELEGATED_HOLDINGS = `WITH counted AS (
    INSERT INTO request_windows AS w (family, requester, window_start, count)
    SELECT $13::text, $14::text, $15::bigint, 1 WHERE $13::text IS NOT NULL
    ON CONFLICT (family, requester, window_start) DO UPDATE SET count = w.count + 1
    RETURNING count
  ), q AS (
    SELECT q.*, decode(substr(q.contract, 3), 'hex') AS contract_key, decode(substr($17, 3), 'hex') AS signer
    FROM jsonb_to_recordset($18::jsonb) AS q(i integer, network text, contract text, ids text)
  ), granted AS (
    SELECT l.network_id, l.vault, l.kind, l.contract, l.token_id FROM (
      SELECT DISTINCT ON (d.network_id, d.vault, d.kind, d.contract, d.token_id, d.rights)
        d.network_id, d.vault, d.kind, d.contract, d.token_id, d.enable, d.block_number, d.log_index
      FROM nft_delegations d
      WHERE d.network_id IN (SELECT n.id FROM indexer_networks n WHERE n.name IN (SELECT network FROM q))
        AND d.delegate = decode(substr($17, 3), 'hex') AND d.vault <> decode(substr($17, 3), 'hex')
        AND d.rights IN (decode(repeat('00', 32), 'hex'), decode(substr($20, 3), 'hex'))
      ORDER BY d.network_id, d.vault, d.kind, d.contract, d.token_id, d.rights, d.block_number DESC, d.log_index DESC
    ) l
    WHERE l.enable
    ORDER BY l.block_number, l.log_index
    LIMIT $21
  ), holders AS (
    SELECT q.i, NULL::bytea AS vault, NULL::smallint AS via, q.ids, false AS tokens_only FROM q
    UNION ALL
    SELECT q.i, g.vault, min(g.kind),
      CASE WHEN min(g.kind) < 3 THEN q.ids ELSE string_agg(g.token_id::text, ',' ORDER BY g.token_id)
        FILTER (WHERE q.ids IS NULL OR g.token_id = ANY (string_to_array(q.ids, ',')::numeric[])) END,
      min(g.kind) = 3
    FROM q JOIN indexer_networks n ON n.name = q.network
      JOIN granted g ON g.network_id = n.id AND (g.kind = 1 OR g.contract = q.contract_key)
    GROUP BY q.i, q.ids, g.vault
    HAVING min(g.kind) < 3 OR count(*) FILTER (WHERE q.ids IS NULL OR g.token_id = ANY (string_to_array(q.ids, ',')::numeric[])) > 0
  ), holdings AS (
    SELECT o.i, '0x' || encode(o.vault, 'hex') AS vault, o.via, c.block_number AS indexed,
      CASE WHEN o.ids IS NULL THEN
        COALESCE((SELECT h.count FROM nft_holdings h
          WHERE h.network_id = n.id AND h.contract = q.contract_key AND h.owner = w.address), 0)
      ELSE
        (SELECT count(*) FROM nft_owners x
          WHERE x.network_id = n.id AND x.contract_id = ca.id AND x.owner_id = oa.id AND x.token_id = ANY (string_to_array(o.ids, ',')::numeric[]))
        + COALESCE((SELECT sum(b.balance) FROM nft_balances b
          WHERE NOT o.tokens_only AND b.network_id = n.id AND b.contract = q.contract_key AND b.owner = w.address
            AND b.token_id = ANY (string_to_array(o.ids, ',')::numeric[]) AND b.balance > 0), 0)
      END::text AS count,
      ARRAY(
        (SELECT x.token_id FROM nft_owners x
          WHERE x.network_id = n.id AND x.owner_id = oa.id AND x.contract_id = ca.id
            AND (o.ids IS NULL OR x.token_id = ANY (string_to_array(o.ids, ',')::numeric[]))
          ORDER BY x.token_id LIMIT $19)
        UNION ALL
        (SELECT b.token_id FROM nft_balances b
          WHERE NOT o.tokens_only AND b.network_id = n.id AND b.owner = w.address AND b.contract = q.contract_key
            AND b.balance > 0 AND (o.ids IS NULL OR b.token_id = ANY (string_to_array(o.ids, ',')::numeric[]))
          ORDER BY b.token_id LIMIT $19)
        ORDER BY 1 LIMIT $19
      )::text[] AS ids,
      EXISTS (SELECT 1 FROM nft_skipped_ranges s WHERE s.network = q.network AND s.contract = q.contract) AS incomplete,
      (SELECT count(*) FROM granted) >= $21 AS more_delegations
    FROM holders o JOIN q ON q.i = o.i
      CROSS JOIN LATERAL (SELECT COALESCE(o.vault, q.signer) AS address) w
      LEFT JOIN indexer_cursors c ON c.network = q.network
      LEFT JOIN indexer_networks n ON n.name = q.network
      LEFT JOIN nft_addresses ca ON ca.address = q.contract_key
      LEFT JOIN nft_addresses oa ON oa.address = w.address
  ), read AS (
    SELECT COALESCE(jsonb_agg(to_jsonb(h) ORDER BY h.i, h.vault NULLS FIRST), '[]'::jsonb) AS rows FROM holdings h
  ), gate AS (
    SELECT $22::jsonb IS NULL OR EXISTS (
      SELECT 1 FROM jsonb_to_recordset($22::jsonb) AS g(t integer, i integer, min numeric)
      GROUP BY g.t
      HAVING bool_and((SELECT sum(h.count::numeric) FROM holdings h WHERE h.i = g.i) >= g.min)
    ) AS meets
  ), consumed AS (
    DELETE FROM login_challenges
    WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() AND NOT EXISTS (SELECT 1 FROM counted WHERE count > $16::int)
      AND (SELECT meets FROM gate)
    RETURNING id
  ), held AS (
    INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
    SELECT kind, id,
      CASE WHEN kind = 'Grant' AND payload::jsonb ? 'loginHoldings'
        THEN jsonb_set(payload::jsonb, '{loginHoldings,rows}', (SELECT rows FROM read)) ELSE payload::jsonb END,
      grant_id, user_code, uid, expires_at
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
      AS w(kind, id, payload, grant_id, user_code, uid, expires_at)
    WHERE EXISTS (SELECT 1 FROM consumed)
    RETURNING kind, id
  ), history AS (
    INSERT INTO login_history (account, client_id, first_at, last_at)
    SELECT $9::text, $10::text, now(), now() WHERE EXISTS (SELECT 1 FROM consumed)
    ON CONFLICT (account, client_id) DO UPDATE SET
      first_at = LEAST(login_history.first_at, EXCLUDED.first_at),
      last_at = GREATEST(login_history.last_at, EXCLUDED.last_at),
      logins = login_history.logins + 1
  ), proof AS (
    INSERT INTO login_siwe_proofs (grant_id, message, signature)
    SELECT id, $11::text, $12::text FROM held WHERE kind = 'Grant' AND $11::text IS NOT NULL
  )
  SELECT EXISTS (SELECT 1 FROM consumed) AS redeemed, (SELECT count FROM counted) AS counted,
    (SELECT meets FROM gate) AS meets_gate, (SELECT rows FROM read) AS holdings`;

/** What a login stores when its challenge is redeemed. */
export interface Login {
  challengeId: string;
  /** The grant and the code oidc-provider saved while minting them, held back (`holdWrites`). */
  held: HeldWrite[];
  /** The account (the login history's key) and the client it logged in to: one more login in its history. */
  account: string;
  clientId: string;
  /** With the `siwe` scope: the message the wallet signed and its signature, stored with the grant. */
  proof: { message: string; signature: string } | null;
  /** The request's rate-limit count, for this statement to make unless one did already. */
  count?: StatementCount;
  /** With a client's holdings: what the statement reads of the signer's (lower case) before it redeems the challenge. */
  holdings?: { owner: string; question: HoldingsQuestion };
}

/** Whether the challenge was redeemed; with holdings, what was read of them and whether they met the gate. */
export interface Redemption {
  redeemed: boolean;
  holdings?: { read: WalletHoldings; meetsGate: boolean };
}

/**
 * Redeems the login's challenge and stores `login` with it; not redeemed when it was used already (or retired or
 * expired), or when the login's holdings do not meet the gate (the challenge stays open then).
 * A request its count puts past the limit is refused (too_many_requests), with nothing redeemed nor stored.
 */
export async function redeemLogin(db: Queryable, login: Login): Promise<Redemption> {
  // Made once per request: a second candidate's statement does not count it again.
  const count = login.count?.current === undefined ? login.count : undefined;
  const params = [
    login.challengeId,
    ...heldColumns(login.held),
    login.account,
    login.clientId,
    login.proof?.message ?? null,
    login.proof?.signature ?? null,
    count?.family ?? null,
    count?.requester ?? null,
    count?.windowStart ?? null,
    count?.max ?? null,
  ];
  const asked = login.holdings;
  const [sql, values] = asked ? holdingsStatement(params, asked.owner, asked.question) : [REDEEM, params];
  const { rows } = await db.query<RedeemRow>(sql, values, { prepare: true });
  const { redeemed, counted } = rows[0];
  if (count && counted !== null) {
    count.counted(counted);
    if (counted > count.max) throw tooManyRequests(count.ttl);
  }
  if (!asked) return { redeemed };
  const { holdings, meets_gate } = rows[0];
  return { redeemed, holdings: { read: holdingsOfRows(holdings!, asked.question.maxIds), meetsGate: meets_gate! } };
}

/**
 * The redeeming statement that reads the holdings `question` asks of `owner`, with its parameters after REDEEM's
 * (`params`): the delegated form only for a client that counts delegations.
 */
function holdingsStatement(params: unknown[], owner: string, question: HoldingsQuestion): [string, unknown[]] {
  const read = [owner, collectionsParameter(question.collections), question.maxIds + 1];
  const gate = question.gate && JSON.stringify(question.gate);
  if (!question.delegation) return [REDEEM_WITH_HOLDINGS, [...params, ...read, gate]];
  const delegations = [question.delegation.rights ?? FULL_RIGHTS, question.maxDelegations];
  return [REDEEM_WITH_DELEGATED_HOLDINGS, [...params, ...read, ...delegations, gate]];
}

interface RedeemRow {
  redeemed: boolean;
  counted: number | null;
  /** The forms that read holdings: whether they met the gate, and the rows read. */
  meets_gate?: boolean;
  holdings?: HoldingRow[];
}
