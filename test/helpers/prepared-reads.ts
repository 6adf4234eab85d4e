import { expect } from "chai";
import type { Database, Queryable } from "../../server/db/database";
import { writeRange, type IndexedRange } from "../../server/indexer/store/writes";
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

/** One block's transfers on `network` as the indexer writes them: a range that ends at that block. */
export function blockRange(network: string, block: number, transfers: Transfer[]): IndexedRange {
  return { network, transfers, last: { block, hash: hash(block) }, hashes: [{ block, hash: hash(block) }] };
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
  await db.transaction((tx) => writeRange(tx, blockRange(network, 1, transfers)));
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

/** The plan of a statement as sent (unprepared, planned with its values); `analyze`: run it, with its actual figures. */
export async function explainedPlan(db: Queryable, { sql, params }: SentStatement, { analyze = false } = {}): Promise<PlanNode> {
  const { rows } = await db.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (${analyze ? "ANALYZE, " : ""}FORMAT JSON) ${sql}`,
    [...params],
  );
  return rows[0]["QUERY PLAN"][0].Plan;
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
