import type { Queryable } from "../db/database";

/** The logins of one account: when it first came, through which client, and when it first came to each client. */
export interface LoginHistory {
  /** Unix seconds of the first login to any client; undefined before any login was recorded. */
  since?: number;
  /** The client of that first login. */
  firstService?: string;
  /** client_id → unix seconds of the first login to it. */
  services: Record<string, number>;
}

export async function loginHistory(db: Queryable, account: string): Promise<LoginHistory> {
  const { rows } = await db.query<{ client_id: string; first: string }>(
    "SELECT client_id, floor(extract(epoch FROM first_at))::bigint::text AS first FROM login_history WHERE account = $1 ORDER BY first_at, client_id",
    [account],
  );
  const services: Record<string, number> = Object.fromEntries(rows.map((row) => [row.client_id, Number(row.first)]));
  if (rows.length === 0) return { services };
  return { since: Number(rows[0].first), firstService: rows[0].client_id, services };
}
