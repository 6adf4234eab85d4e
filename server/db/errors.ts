import { DomainError } from "../lib/domain-error";

/*
 * This module is the one place that reads the errors of node-postgres and PGlite (their `code`, a SQLSTATE or a
 * socket's error) and the one that names SQLSTATEs: the rest of the server asks it what an error means, or sees a
 * DomainError it made of one.
 */

/** The SQLSTATEs the service tells apart, by PostgreSQL's names (its manual's appendix "PostgreSQL Error Codes"). */
const SQLSTATE = {
  uniqueViolation: "23505",
  foreignKeyViolation: "23503",
  /** A NUL or an invalid byte in text. */
  characterNotInRepertoire: "22021",
  /** A NUL or an unpaired surrogate escaped in JSON. */
  untranslatableCharacter: "22P05",
  /** On a hot standby, also a statement canceled for a conflict with recovery. */
  serializationFailure: "40001",
  /** A write sent to a server that is (now) a standby: after a failover, the address names the old primary. */
  readOnlySqlTransaction: "25006",
  /** A statement canceled: by statement_timeout, or by a cancel request. */
  queryCanceled: "57014",
  diskFull: "53100",
  outOfMemory: "53200",
  insufficientResources: "53000",
  tooManyConnections: "53300",
  adminShutdown: "57P01",
  crashShutdown: "57P02",
  cannotConnectNow: "57P03",
  /** The class of connection exceptions: every code that starts with these two characters. */
  connectionExceptionClass: "08",
} as const;

/** The code of a driver's error: a SQLSTATE, or a socket's error code (ECONNREFUSED…); undefined without one. */
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Whether `error` is a statement refused for a duplicate key (unique_violation). */
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === SQLSTATE.uniqueViolation;
}

/** Whether `error` is a statement refused for a key that names no row (foreign_key_violation). */
export function isForeignKeyViolation(error: unknown): boolean {
  return codeOf(error) === SQLSTATE.foreignKeyViolation;
}

/**
 * Whether `error` is PostgreSQL's refusal of text it cannot store (a NUL, an unpaired escape in JSON): the input guard
 * keeps these out of every route, so this is the fallback for a value that reached the database some other way.
 */
export function isUnstorableText(error: unknown): boolean {
  const code = codeOf(error);
  return code === SQLSTATE.characterNotInRepertoire || code === SQLSTATE.untranslatableCharacter;
}

/** "canceling statement due to conflict with recovery": a hot standby's replay needed what the statement read. */
export function isRecoveryConflict(error: unknown): boolean {
  return error instanceof Error && codeOf(error) === SQLSTATE.serializationFailure && /recovery/.test(error.message);
}

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
 * until an operator frees space (docs/operations/runbooks.md, "A full disk"). Nothing is wrong with the request and nothing stored
 * was lost, so the client is told to come back later rather than handed a 500.
 */
export function databaseFull(): DomainError {
  return new DomainError("unavailable", "database_full", "The database has no space left to store this; try again later", 60);
}

/**
 * The service gave up on a statement that ran past its bound and PostgreSQL did not cancel (a stalled server, a pooler
 * that does not carry the bound): database_busy, marked so that its connection, which may still be running it, is
 * closed rather than reused.
 */
export function statementAbandoned(boundMs: number): DomainError {
  return Object.assign(databaseBusy(), {
    cause: new Error(`the statement did not end within ${boundMs} ms, and PostgreSQL did not cancel it`),
    connectionBroken: true,
  });
}

/** Whether `error` is a write refused for a full disk, as {@link translated} makes it. */
export function isDatabaseFull(error: unknown): boolean {
  return error instanceof DomainError && error.code === "database_full";
}

/** SQLSTATEs of a server short of memory (out_of_memory, and insufficient_resources, the class's own code). */
const SHORT_OF_MEMORY = new Set<string>([SQLSTATE.outOfMemory, SQLSTATE.insufficientResources]);

/** node-postgres' pool gives these errors no code: its two connection timeouts are known by their messages. */
function isAcquireTimeout(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return message === "timeout exceeded when trying to connect" || message === "Connection terminated due to connection timeout";
}

/**
 * A pooler's refusal of a startup parameter it does not track (PgBouncer: `unsupported startup parameter: …`, a
 * protocol violation): the connection can be opened without it.
 */
export function isStartupParameterRefused(error: unknown): boolean {
  return error instanceof Error && /^unsupported startup parameter/.test(error.message);
}

/** Socket errors of a server that is down or unreachable. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/**
 * PostgreSQL's codes of a server that cannot serve: admin_shutdown (a fast or smart stop), crash_shutdown,
 * cannot_connect_now (starting or stopping), too_many_connections.
 */
const SHUTDOWN_CODES = new Set<string>([
  SQLSTATE.adminShutdown,
  SQLSTATE.crashShutdown,
  SQLSTATE.cannotConnectNow,
  SQLSTATE.tooManyConnections,
]);
/** node-postgres' own errors for a connection the server closed under it (or a timeout opening one); they have no code. */
const LOST_MESSAGE = /^Connection terminated|not queryable/;

/**
 * Whether `error` says the server is gone rather than that the statement is wrong: a socket error, a connection
 * exception (SQLSTATE class 08), a shutdown, or one of these errors as {@link translated} made it.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof DomainError) return error.code === "database_unavailable" || error.code === "database_busy";
  const code = codeOf(error);
  if (code !== undefined && (SOCKET_CODES.has(code) || SHUTDOWN_CODES.has(code) || code.startsWith(SQLSTATE.connectionExceptionClass)))
    return true;
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
    throw translatedError(error);
  }
}

/** The error {@link translated} makes of `error`. */
export function translatedError(error: unknown): unknown {
  // Already said (a statement the service gave up on).
  if (error instanceof DomainError) return error;
  if (isAcquireTimeout(error)) return databaseBusy();
  if (isConnectionLoss(error)) return Object.assign(databaseUnavailable(), { cause: error });
  const code = codeOf(error);
  if (code === SQLSTATE.diskFull) return Object.assign(databaseFull(), { cause: error });
  // Past DATABASE_STATEMENT_TIMEOUT_MS (or its long bound): the database is too slow right now, not the request wrong.
  if (code === SQLSTATE.queryCanceled) return Object.assign(databaseBusy(), { cause: error });
  // The address now names a standby (a failover moved the primary): the connection is dropped, so that the next
  // one reaches whatever the address names once it is writable again.
  if (code === SQLSTATE.readOnlySqlTransaction) return Object.assign(databaseUnavailable(), { cause: error, connectionBroken: true });
  if (code !== undefined && SHORT_OF_MEMORY.has(code)) return Object.assign(databaseBusy(), { cause: error });
  return error;
}

/** Node's code of a system error about the embedded database's files or its holder's process (ENOENT, EEXIST, EPERM). */
export const systemErrorCode: (error: unknown) => string | undefined = codeOf;

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
