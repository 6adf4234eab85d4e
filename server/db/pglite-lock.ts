import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { systemClock, type Clock } from "../lib/clock";
import { DatabaseInUse, systemErrorCode, type DatabaseHolder } from "./errors";

/*
 * One process at a time in a PGlite directory. PGlite is PostgreSQL in single-user mode inside the process that opened
 * it: there is no postmaster to keep a second process out, and two of them on one directory each write their own view
 * over the other's. So the directory is taken with a lock file beside it, `<dir>.lock` (beside, not inside: a dump
 * of the directory, loaded into another one, must not carry it along), created atomically ('wx') and holding who took
 * it. A lock whose process is gone (SIGKILL, a crash) is stale and taken over.
 */

/** What a lock file holds: who took it, and a token that tells this taking from any other by the same pid. */
interface LockRecord extends DatabaseHolder {
  token: string;
}

/** The lock files this process holds, by path, with what it wrote in each. */
const held = new Map<string, LockRecord>();

/**
 * A lock file that cannot be read yet is being written (it is created empty, then written at once), unless its writer
 * died in between: past this age it is stale.
 */
const UNFINISHED_STALE_MS = 10_000;
const PAUSE_MS = 20;
/** The bound of the loop below: a lock file left unfinished for UNFINISHED_STALE_MS, then taken over, fits well within. */
const MAX_ATTEMPTS = 2 * (UNFINISHED_STALE_MS / PAUSE_MS);

export interface LockOptions {
  /** When the lock was taken, as its holder says (`since`). */
  clock?: Clock;
}

/**
 * Takes the PGlite directory `dataDir` for this process, or throws {@link DatabaseInUse} naming who has it (another
 * live process, or this one). Answers the function that gives it back, which `close` calls; the process's exit gives
 * back whatever is still held.
 */
export function lockDataDir(dataDir: string, { clock = systemClock }: LockOptions = {}): () => void {
  const dir = path.resolve(dataDir);
  const file = `${dir}.lock`;
  const own = held.get(file);
  if (own) throw inUse(dir, own);
  const record: LockRecord = {
    pid: process.pid,
    command: thisCommand(),
    since: new Date(clock()).toISOString(),
    token: randomBytes(12).toString("base64url"),
  };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (create(file, record)) {
      held.set(file, record);
      releaseAtExit();
      return () => release(file, record);
    }
    const found = read(file);
    if (found.state === "absent") continue; // given back between the two steps
    if (found.state === "unfinished" && !found.stale) {
      pause();
      continue;
    }
    if (found.state === "held" && alive(file, found.record.pid)) throw inUse(dir, found.record);
    takeOver(file, found.text, record);
  }
  throw new Error(`${file}: could not take the lock after ${MAX_ATTEMPTS} attempts`);
}

/**
 * Throws {@link DatabaseInUse} when a live process holds `dataDir`, without taking it: for a start that would do
 * other work before it opens the database (`npm start` starts a chain and writes under DATA_DIR first).
 */
export function checkDataDirFree(dataDir: string): void {
  const dir = path.resolve(dataDir);
  const file = `${dir}.lock`;
  const own = held.get(file);
  if (own) throw inUse(dir, own);
  const found = read(file);
  if (found.state === "held" && alive(file, found.record.pid)) throw inUse(dir, found.record);
}

const inUse = (dir: string, record: LockRecord) =>
  new DatabaseInUse(dir, holderOf(record), record.pid === process.pid ? "this process" : "another process");

type Found =
  { state: "absent" } | { state: "held"; record: LockRecord; text: string } | { state: "unfinished"; stale: boolean; text: string };

function read(file: string): Found {
  let text: string;
  let modified: number;
  try {
    text = fs.readFileSync(file, "utf8");
    modified = fs.statSync(file).mtimeMs;
  } catch (error) {
    if (systemErrorCode(error) === "ENOENT") return { state: "absent" };
    throw error;
  }
  const record = parse(text);
  if (record) return { state: "held", record, text };
  // The file system's clock, not the service's: the age of a file on disk.
  return { state: "unfinished", stale: Date.now() - modified > UNFINISHED_STALE_MS, text };
}

function parse(text: string): LockRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockRecord>;
    // pid 0 or a negative one would signal a process group in `alive`.
    if (!Number.isSafeInteger(value.pid) || value.pid! <= 0) return undefined;
    if (typeof value.command !== "string" || typeof value.since !== "string" || typeof value.token !== "string") return undefined;
    return value as LockRecord;
  } catch {
    return undefined;
  }
}

const holderOf = ({ pid, command, since }: LockRecord): DatabaseHolder => ({ pid, command, since });

/** Creates `file` with `record` in it, atomically: false when it exists already. */
function create(file: string, record: LockRecord): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, "wx", 0o644);
  } catch (error) {
    if (systemErrorCode(error) === "EEXIST") return false;
    throw error;
  }
  try {
    fs.writeSync(fd, `${JSON.stringify(record)}\n`);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  return true;
}

/**
 * Removes the stale lock file whose content was `stale`, for the caller to try again. Two openers may find the same
 * stale lock: each must not remove the fresh lock the other has made since. So the removal is done under a second
 * lock file, `<file>.takeover`, held for the few system calls it takes, after checking that the lock file still holds
 * what was judged stale: while it exists nobody can create another, and its process, gone, will not remove it.
 */
function takeOver(file: string, stale: string, record: LockRecord): void {
  const mutex = `${file}.takeover`;
  if (!create(mutex, record)) {
    // Another opener is at it, or died at it: that one is gone for good if its process is. (Two openers both finding
    // a dead takeover could race; that needs a process killed within those few system calls first.)
    const found = read(mutex);
    if ((found.state === "held" && !alive(mutex, found.record.pid)) || (found.state === "unfinished" && found.stale))
      fs.rmSync(mutex, { force: true });
    else pause();
    return;
  }
  try {
    const found = read(file);
    if (found.state !== "absent" && found.text === stale) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(mutex, { force: true });
  }
}

/** Whether the process that wrote `file` with `pid` in it still runs. */
function alive(file: string, pid: number): boolean {
  // Our own pid, in a lock this process did not take, is an earlier process's that had the same number (a container
  // started again after a crash numbers its processes the same way).
  if (pid === process.pid) return held.has(file);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return systemErrorCode(error) === "EPERM";
  }
}

function release(file: string, record: LockRecord): void {
  if (held.get(file) !== record) return;
  held.delete(file);
  const found = read(file);
  if (found.state === "held" && found.record.token === record.token) fs.rmSync(file, { force: true });
}

let exitHook = false;
/** An exit without `close` (process.exit, an uncaught error) gives the locks back too; a SIGKILL leaves them stale. */
function releaseAtExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const [file, record] of held) {
      try {
        release(file, record);
      } catch {
        // Exiting anyway: a lock file left behind is stale, and the next opener takes it over.
      }
    }
  });
}

/**
 * How this process was started, for whoever finds the directory taken: the npm script when npm started it (npm
 * tells its scripts their name; this is not a setting of the service), else node and the script it runs.
 */
function thisCommand(): string {
  const script = process.env.npm_lifecycle_event;
  if (script) return script === "start" ? "npm start" : `npm run ${script}`;
  const entry = process.argv[1];
  return entry ? `node ${path.relative(process.cwd(), entry) || entry}` : "node";
}

/** Waits a little, synchronously: taking the lock is one step, with no other code of this process in between. */
function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PAUSE_MS);
}
