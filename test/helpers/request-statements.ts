import { AsyncLocalStorage } from "node:async_hooks";
import type { TestApp } from "./app";

/**
 * Records the statements a request sends to `t`'s database, told from the indexer's and the classifier's by the
 * request's async context: `during(request)` runs it and gives what it sent; `stop()` gives the database its own query
 * back.
 */
export function recordRequestStatements(t: TestApp) {
  const requestStatements = new AsyncLocalStorage<string[]>();
  const query = t.app.db.query;
  t.app.db.query = ((sql: string, ...rest: unknown[]) => {
    requestStatements.getStore()?.push(sql);
    return (query as (...args: unknown[]) => unknown).call(t.app.db, sql, ...rest);
  }) as typeof query;
  return {
    async during<T>(request: () => Promise<T>): Promise<{ answer: T; sent: string[] }> {
      const sent: string[] = [];
      return { answer: await requestStatements.run(sent, request), sent };
    },
    stop(): void {
      t.app.db.query = query;
    },
  };
}
