import type { Database, QueryOptions, QueryResult } from "../server/db/database";

/**
 * `db` with each `query` passed to `hook`, which runs the statement (`run`) itself: a test or a bench counts, records
 * or slows the statements it watches. Everything else of `db` is left as it is.
 */
export function withQueryHook(
  db: Database,
  hook: (sql: string, params: readonly unknown[] | undefined, run: () => Promise<QueryResult<unknown>>) => Promise<QueryResult<unknown>>,
): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "query") {
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      }
      // The statement runs as it was asked (prepared where its caller asked), whatever the hook does around it.
      return (sql: string, params?: readonly unknown[], options?: QueryOptions) =>
        hook(sql, params, () => target.query(sql, params, options));
    },
  });
}
