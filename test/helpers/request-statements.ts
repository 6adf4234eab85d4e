import { AsyncLocalStorage } from "node:async_hooks";
import type { TestApp } from "./app";

/**
 * Records the statements a request sends to `t`'s database, told from the indexer's and the classifier's by the
 * request's async context: `during(request)` runs it and gives what it sent of its own; `stop()` gives the database its
 * own query back. The shared rate limit's statements are left out: every request counts whatever it asks, and the
 * first request of a minute also sweeps the old windows in its context.
 */
export function recordRequestStatements(t: TestApp) {
  const requestStatements = new AsyncLocalStorage<string[]>();
  const query = t.app.db.query;
  t.app.db.query = ((sql: string, ...rest: unknown[]) => {
    if (!/\brequest_windows\b/.test(sql)) requestStatements.getStore()?.push(sql);
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
