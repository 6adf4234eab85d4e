import { DomainError } from "../lib/domain-error";

/**
 * Every connection of the pool stayed taken for DATABASE_ACQUIRE_TIMEOUT_MS (or a new one took that long to open):
 * the instance is overloaded, not broken, so the client is told to come back rather than handed a 500.
 */
export function databaseBusy(): DomainError {
  return new DomainError("unavailable", "database_busy", "The database is busy; try again shortly", 1);
}

/**
 * PostgreSQL cannot be reached or dropped the connection (a restart, a failover, a network cut): nothing is wrong with
 * the request, and the pool reconnects by itself, so the client is told to come back rather than handed a 500.
 */
export function databaseUnavailable(): DomainError {
  return new DomainError("unavailable", "database_unavailable", "The database is unavailable; try again shortly", 1);
}

/**
 * PostgreSQL has no disk space left to write (SQLSTATE 53100): the statement rolled back, reads go on, and writes fail
 * until an operator frees space (docs/runbooks.md, "A full disk"). Nothing is wrong with the request and nothing stored
 * was lost, so the client is told to come back later rather than handed a 500.
 */
export function databaseFull(): DomainError {
  return new DomainError("unavailable", "database_full", "The database has no space left to store this; try again later", 60);
}

/** Whether `error` is a write refused for a full disk, as {@link translated} makes it. */
export function isDatabaseFull(error: unknown): boolean {
  return error instanceof DomainError && error.code === "database_full";
}

/** SQLSTATEs of a server short of memory (out_of_memory, and insufficient_resources, the class's own code). */
const SHORT_OF_MEMORY = new Set(["53200", "53000"]);

/** node-postgres' pool gives these errors no code: its two connection timeouts are known by their messages. */
function isAcquireTimeout(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return message === "timeout exceeded when trying to connect" || message === "Connection terminated due to connection timeout";
}

/** Socket errors of a server that is down or unreachable. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/**
 * PostgreSQL's codes of a server that cannot serve: admin_shutdown (a fast or smart stop), crash_shutdown,
 * cannot_connect_now (starting or stopping), too_many_connections.
 */
const SHUTDOWN_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** node-postgres' own errors for a connection the server closed under it (or a timeout opening one); they have no code. */
const LOST_MESSAGE = /^Connection terminated|not queryable/;

/**
 * Whether `error` says the server is gone rather than that the statement is wrong: a socket error, a connection
 * exception (SQLSTATE class 08), a shutdown, or one of these errors as {@link translated} made it.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof DomainError) return error.code === "database_unavailable" || error.code === "database_busy";
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (SOCKET_CODES.has(code) || SHUTDOWN_CODES.has(code) || code.startsWith("08"))) return true;
  return error instanceof Error && LOST_MESSAGE.test(error.message);
}

/**
 * `promise`, a call to the database, with the failures that are the database's state rather than the statement's
 * turned into domain errors: a timeout of the pool's acquisition or a server short of memory into
 * {@link databaseBusy}, a server gone into {@link databaseUnavailable}, a full disk into {@link databaseFull}.
 */
export async function translated<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (isAcquireTimeout(error)) throw databaseBusy();
    if (isConnectionLoss(error)) throw Object.assign(databaseUnavailable(), { cause: error });
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "53100") throw Object.assign(databaseFull(), { cause: error });
    if (typeof code === "string" && SHORT_OF_MEMORY.has(code)) throw Object.assign(databaseBusy(), { cause: error });
    throw error;
  }
}

/** Who has an embedded database's directory open, as the lock file beside it records. */
export interface DatabaseHolder {
  pid: number;
  /** How it was started: `npm start`, `npm run client`, or `node <script>`. */
  command: string;
  /** When it opened the database, ISO 8601 in UTC. */
  since: string;
}

/**
 * The embedded database's directory is open in another process, or already in this one. PGlite has one writer: a
 * second one would write over the first one's work unseen (a client added while the service runs is gone when the
 * service stops), so the second opener is refused before it reads or writes anything, told who holds the directory
 * and what to do instead. The CLIs and the service's entries print the message as their one line.
 */
export class DatabaseInUse extends DomainError {
  constructor(
    readonly dataDir: string,
    readonly holder: DatabaseHolder,
    readonly where: "this process" | "another process",
  ) {
    const held = `${holder.command} (pid ${holder.pid}, since ${holder.since})`;
    super(
      "unavailable",
      "database_in_use",
      where === "this process"
        ? `The embedded database in ${dataDir} is already open in this process, ${held}: close it before opening it again.`
        : `The embedded database in ${dataDir} is in use by ${held}: stop that process first (Ctrl-C in its terminal), ` +
            "or set DATABASE_URL to a PostgreSQL database to run several processes on one database.",
    );
  }
}
