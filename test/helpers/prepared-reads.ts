import { expect } from "chai";
import type { Database } from "../../server/db/database";
import { writeRange } from "../../server/indexer/store/writes";
import { ZERO_ADDRESS, type Transfer } from "../../server/indexer/transfers";
import { hash } from "./raw-logs";
import { withQueryHook } from "../../support/query-hook";

/** A statement a store read sent, with its parameters. */
export interface SentStatement {
  sql: string;
  params: readonly unknown[];
}

/** The statements `read` sends on `db`, each with its parameters (at least one). */
export async function statementsOf(db: Database, read: (db: Database) => Promise<unknown>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  await read(
    withQueryHook(db, (sql, params, run) => {
      sent.push({ sql, params: params ?? [] });
      return run();
    }),
  );
  expect(sent).to.not.have.length(0);
  return sent;
}

/**
 * The arguments of `EXECUTE name(...)` for `params`, each an SQL literal of unknown type (EXECUTE casts it to the type
 * its statement gave the parameter); none for a statement without parameters.
 */
export function executeArguments(params: readonly unknown[]): string {
  // A list (of ids, of issuers) as an array literal of its items, which are plain decimals or hex here.
  const text = (value: unknown) => (Array.isArray(value) ? `{${value.join(",")}}` : String(value));
  const literal = (value: unknown) =>
    value === null || value === undefined ? "NULL" : typeof value === "boolean" ? String(value) : `'${text(value).replace(/'/g, "''")}'`;
  return params.length === 0 ? "" : `(${params.map(literal).join(", ")})`;
}

/** Mints token `i` of `contract` to `owners[i]`, all in block 1 of `network`, written as the indexer writes a range. */
export async function mintedInBlockOne(
  db: Database,
  { network, contract, owners }: { network: string; contract: string; owners: string[] },
) {
  const transfers: Transfer[] = owners.map((to, i) => ({
    blockNumber: 1,
    blockHash: hash(1),
    txHash: hash(100 + i),
    blockTime: 1_700_000_000,
    logIndex: i,
    contract,
    tokenId: BigInt(i),
    from: ZERO_ADDRESS,
    to,
  }));
  await db.transaction((tx) =>
    writeRange(tx, { network, transfers, last: { block: 1, hash: hash(1) }, hashes: [{ block: 1, hash: hash(1) }] }),
  );
}

/** A node of `EXPLAIN (FORMAT JSON)` (with ANALYZE, its actual figures too), with the fields the tests read. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Filter?: string;
  "Join Filter"?: string;
  "Actual Loops"?: number;
  "Heap Fetches"?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan, its root first, each before its children. */
export function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/**
 * The generic plan of a statement a read sent (the plan a connection runs it with after its first executions),
 * explained in a transaction of its own; `settings` are `SET LOCAL` statements run before it (a planner switch).
 */
export async function genericPlan(db: Database, { sql, params }: SentStatement, settings: string[] = []): Promise<PlanNode> {
  return db.transaction(async (tx) => {
    await tx.query("SET LOCAL plan_cache_mode = force_generic_plan");
    for (const setting of settings) await tx.query(setting);
    await tx.query(`PREPARE probe AS ${sql}`);
    const { rows } = await tx.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (FORMAT JSON) EXECUTE probe${executeArguments(params)}`,
    );
    // A prepared statement outlives its transaction.
    await tx.query("DEALLOCATE probe");
    return rows[0]["QUERY PLAN"][0].Plan;
  });
}
