import type { Queryable } from "../db/database";
import type { AlongWrite } from "./challenges";

/** The logins of one account: when it first came, through which client, and when it first came to each client. */
export interface LoginHistory {
  /** Unix seconds of the first login to any client; undefined before any login was recorded. */
  since?: number;
  /** The client of that first login. */
  firstService?: string;
  /** client_id → unix seconds of the first login to it. */
  services: Record<string, number>;
}

/**
 * Records a login of `account` (the ID token's sub) to a client, at the database's clock so that instances agree.
 * One upsert: instances recording logins of the same account at once all land, none is lost or duplicated.
 */
/** Records one more login of `account` at `clientId`, as a write of the statement that redeems the login's challenge (see consumeChallenge). */
export function recordLoginAlong(account: string, clientId: string): AlongWrite {
  return (condition, first) => ({
    sql: `INSERT INTO login_history (account, client_id, first_at, last_at) SELECT $${first}::text, $${first + 1}::text, now(), now() WHERE ${condition} ${ONE_MORE_LOGIN}`,
    params: [account, clientId],
  });
}

const ONE_MORE_LOGIN = `ON CONFLICT (account, client_id) DO UPDATE SET
  first_at = LEAST(login_history.first_at, EXCLUDED.first_at),
  last_at = GREATEST(login_history.last_at, EXCLUDED.last_at),
  logins = login_history.logins + 1`;

export async function loginHistory(db: Queryable, account: string): Promise<LoginHistory> {
  const { rows } = await db.query<{ client_id: string; first: string }>(
    "SELECT client_id, floor(extract(epoch FROM first_at))::bigint::text AS first FROM login_history WHERE account = $1 ORDER BY first_at, client_id",
    [account],
  );
  const services: Record<string, number> = Object.fromEntries(rows.map((row) => [row.client_id, Number(row.first)]));
  if (rows.length === 0) return { services };
  return { since: Number(rows[0].first), firstService: rows[0].client_id, services };
}
