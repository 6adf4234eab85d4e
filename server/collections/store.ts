import type { Queryable } from "../db/database";
import type { Deployment } from "./deployment";

/**
 * Collections' deployments as found (collection_deployments): a found one for good, a failed search with the time it
 * may be tried again. Keys: network and lower-case contract.
 */

/** A row of collection_deployments as read (`contract` lower case). */
export interface DeploymentRow {
  contract: string;
  block_number: string | null;
  deployer: string | null;
  tx_hash: string | null;
  reason: string | null;
  retry_at: Date | null;
}

/** A deployment as stored: what a search found, and when a failed one may be tried again (null once found). */
export interface StoredDeployment {
  deployment: Deployment;
  retryAt: Date | null;
}

/** A stored deployment from its row (also read by the statement of an owner's page with details, owner-page.ts). */
export const deploymentOfRow = (r: Omit<DeploymentRow, "contract">): StoredDeployment => ({
  deployment:
    r.block_number === null
      ? { found: false, reason: r.reason ?? "" }
      : { found: true, block: Number(r.block_number), deployer: r.deployer, tx: r.tx_hash, reason: r.reason },
  retryAt: r.retry_at,
});

/** The stored deployments of some contracts (lower case) of a network, by contract; `retryAt` is set on failed searches. */
export async function storedDeployments(
  db: Queryable,
  network: string,
  contracts: readonly string[],
): Promise<Map<string, StoredDeployment>> {
  if (contracts.length === 0) return new Map();
  // $1 network, $2 contracts
  const { rows } = await db.query<DeploymentRow>(
    `SELECT contract, block_number, deployer, tx_hash, reason, retry_at FROM collection_deployments
     WHERE network = $1 AND contract = ANY ($2::text[])`,
    [network, contracts],
  );
  return new Map(rows.map((r) => [r.contract, deploymentOfRow(r)]));
}

/** Stores what a search found; a failed one may be tried again after `retryAt`. */
export async function saveDeployment(
  db: Queryable,
  key: { network: string; contract: string },
  deployment: Deployment,
  retryAt: Date,
): Promise<void> {
  const found = deployment.found ? deployment : undefined;
  // $1 network, $2 contract, $3 block, $4 deployer, $5 transaction, $6 reason, $7 retry at
  await db.query(
    `INSERT INTO collection_deployments (network, contract, block_number, deployer, tx_hash, reason, retry_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (network, contract) DO UPDATE SET block_number = excluded.block_number, deployer = excluded.deployer,
       tx_hash = excluded.tx_hash, reason = excluded.reason, retry_at = excluded.retry_at`,
    [
      key.network,
      key.contract,
      found?.block ?? null,
      found?.deployer ?? null,
      found?.tx ?? null,
      deployment.reason,
      found ? null : retryAt,
    ],
  );
}
