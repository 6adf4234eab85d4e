import { expect } from "chai";
import type { Database, Queryable } from "../../server/db/database";
import { withQueryHook } from "../../support/query-hook";

/** A statement a store read sent, with its parameters. */
export interface SentStatement {
  sql: string;
  params: readonly unknown[];
}

/** The statements `read` sends on `db`, each with its parameters (at least one). */
export async function statementsOf(db: Database, read: (db: Queryable) => Promise<unknown>): Promise<SentStatement[]> {
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
  const literal = (value: unknown) =>
    value === null || value === undefined ? "NULL" : typeof value === "boolean" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  return params.length === 0 ? "" : `(${params.map(literal).join(", ")})`;
}
