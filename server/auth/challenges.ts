import { randomBytes } from "node:crypto";
import type { Queryable } from "../db/database";

export interface Challenge {
  id: string;
  address: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | null;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  network: string;
  message: string;
  format: "text" | "siwe";
}

interface Row {
  id: string;
  address: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  state: string | null;
  nonce: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  network: string;
  message: string;
  format: "text" | "siwe";
}

const fromRow = (row: Row): Challenge => ({
  id: row.id,
  address: row.address,
  clientId: row.client_id,
  redirectUri: row.redirect_uri,
  scope: row.scope,
  state: row.state,
  nonce: row.nonce,
  codeChallenge: row.code_challenge,
  codeChallengeMethod: row.code_challenge_method,
  network: row.network,
  message: row.message,
  format: row.format,
});

export async function saveChallenge(db: Queryable, challenge: Omit<Challenge, "id">, expiresAt: Date): Promise<void> {
  await db.query(
    `INSERT INTO login_challenges (id, address, client_id, redirect_uri, scope, state, nonce, code_challenge, code_challenge_method, network, message, format, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      randomBytes(16).toString("hex"),
      challenge.address.toLowerCase(),
      challenge.clientId,
      challenge.redirectUri,
      challenge.scope,
      challenge.state,
      challenge.nonce,
      challenge.codeChallenge,
      challenge.codeChallengeMethod,
      challenge.network,
      challenge.message,
      challenge.format,
      expiresAt,
    ],
  );
}

/** How many open challenges of one address and client a login tries (each may cost an eth_call for a wallet). */
const MAX_CANDIDATES = 5;

/** The caller's open challenges, newest first: not consumed, not expired, for this address and client. */
export async function openChallenges(
  db: Queryable,
  where: { address: string; clientId: string; redirectUri?: string; message?: string },
): Promise<Challenge[]> {
  const params: unknown[] = [where.address.toLowerCase(), where.clientId];
  let sql = "SELECT * FROM login_challenges WHERE address = $1 AND client_id = $2 AND consumed_at IS NULL AND expires_at > now()";
  if (where.redirectUri !== undefined) {
    params.push(where.redirectUri);
    sql += ` AND redirect_uri = $${params.length}`;
  }
  if (where.message !== undefined) {
    params.push(where.message);
    sql += ` AND message = $${params.length}`;
  }
  sql += ` ORDER BY created_at DESC LIMIT ${MAX_CANDIDATES}`;
  const { rows } = await db.query<Row>(sql, params);
  return rows.map(fromRow);
}

/**
 * Marks the challenge used; false when it already was (or just expired). One statement decides, so of two
 * instances redeeming the same signature at once exactly one gets true. `along` is an INSERT (see
 * insertHeldWrites) made in the same statement, only when the challenge was open: the login's code and grant are
 * stored with the one round trip that redeems (and deletes) the challenge.
 */
export async function consumeChallenge(
  db: Queryable,
  id: string,
  along?: (condition: string, first: number) => { sql: string; params: unknown[] },
): Promise<boolean> {
  const consume = "UPDATE login_challenges SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() RETURNING id";
  if (!along) {
    const { rows } = await db.query(consume, [id]);
    return rows.length === 1;
  }
  // A redeemed challenge is of no further use (only open ones are ever looked up): deleted, not kept marked.
  const insert = along("EXISTS (SELECT 1 FROM consumed)", 2);
  const { rows } = await db.query(
    `WITH consumed AS (DELETE FROM login_challenges WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() RETURNING id) ${insert.sql}`,
    [id, ...insert.params],
  );
  return rows.length > 0;
}
