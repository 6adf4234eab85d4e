import { DomainError } from "../lib/domain-error";

/**
 * Every connection of the pool stayed taken for DATABASE_ACQUIRE_TIMEOUT_MS (or a new one took that long to open):
 * the instance is overloaded, not broken, so the client is told to come back rather than handed a 500.
 */
export function databaseBusy(): DomainError {
  return new DomainError("unavailable", "database_busy", "The database is busy; try again shortly", 1);
}

/** node-postgres' pool gives these errors no code: its two connection timeouts are known by their messages. */
function isAcquireTimeout(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return message === "timeout exceeded when trying to connect" || message === "Connection terminated due to connection timeout";
}

/** `promise`, with a timeout of the pool's acquisition turned into {@link databaseBusy}. */
export async function acquiring<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw isAcquireTimeout(error) ? databaseBusy() : error;
  }
}
