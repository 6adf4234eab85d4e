import type { Queryable } from "../db/database";
import { tooManyRequests, type StatementCount } from "../rate-limits";
import { heldColumns, type HeldWrite } from "./oidc";

/*
 * The statement that redeems a login's challenge and, only when it does, stores what the login made: one round trip
 * decides, so of two instances redeeming the same signature at once exactly one gets a code (docs/guides/architecture.md:
 * a login). It is the one exception to the rule that each table has one owning module: it writes login_challenges,
 * oidc_payloads, login_history and login_siwe_proofs in one statement, so it is written out whole here rather than
 * assembled from their owners' parts. Each of those tables' other SQL stays with its owner. Where the rate limits'
 * counts are shared, its second form also counts the request in request_windows (server/rate-limits owns that table
 * and its other SQL): one statement per login step, the count included (docs/reference/login.md).
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
}

/**
 * Redeems the login's challenge and stores `login` with it; false when it was used already (or retired or expired).
 * A request its count puts past the limit is refused (too_many_requests), with nothing redeemed nor stored.
 */
export async function redeemLogin(db: Queryable, login: Login): Promise<boolean> {
  // Made once per request: a second candidate's statement does not count it again.
  const count = login.count?.current === undefined ? login.count : undefined;
  const { rows } = await db.query<{ redeemed: boolean; counted: number | null }>(
    REDEEM,
    [
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
    ],
    { prepare: true },
  );
  const { redeemed, counted } = rows[0];
  if (count && counted !== null) {
    count.counted(counted);
    if (counted > count.max) throw tooManyRequests(count.ttl);
  }
  return redeemed;
}
