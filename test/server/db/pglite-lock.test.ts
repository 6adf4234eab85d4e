import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { DatabaseInUse } from "../../../server/db/errors";
import { openPglite } from "../../../server/db/pglite";
import { lockDataDir } from "../../../server/db/pglite-lock";
import { runNodeProcess, startNodeProcess, type RunningProcess } from "../../helpers/cli";
import { openFreshPglite } from "../../helpers/database";

const LOADER = ["-r", "ts-node/register/transpile-only"];
/** A process that opens the PGlite directory LOCK_TEST_DIR, says so, and keeps it open until killed. */
const HOLDER = `require("./server/db/pglite").openPglite(process.env.LOCK_TEST_DIR).then(() => {
  console.log("open");
  setInterval(() => {}, 60_000);
});`;
/** A process that, once told on stdin, tries to take the lock of LOCK_TEST_DIR, says how it went, and holds on until stdin ends. */
const RACER = `const { lockDataDir } = require("./server/db/pglite-lock");
console.log("ready");
process.stdin.once("data", () => {
  try {
    lockDataDir(process.env.LOCK_TEST_DIR);
    console.log("took");
  } catch (error) {
    console.log(error.code === "database_in_use" ? "refused: " + error.message : String(error.stack));
  }
  process.stdin.resume();
});`;

/**
 * A process midway through taking over the stale lock of LOCK_TEST_DIR, as lockDataDir does it: it holds the takeover
 * file (`<lock>.takeover`) and says so; told on stdin, it waits a little (the other opener is at the lock by then),
 * puts its own lock in place of the stale one in one step (a rename: between a removal and a create, the other opener
 * could create it first, which is not the race this is about) and removes the takeover file, then holds on until killed.
 */
const TAKER = `const fs = require("node:fs");
const file = require("node:path").resolve(process.env.LOCK_TEST_DIR) + ".lock";
const record = JSON.stringify({ pid: process.pid, command: "node", since: new Date().toISOString(), token: "taker" });
fs.writeFileSync(file + ".takeover", record, { flag: "wx" });
console.log("taking");
process.stdin.once("data", () => {
  setTimeout(() => {
    fs.writeFileSync(file + ".mine", record);
    fs.renameSync(file + ".mine", file);
    // The lock is its own a while before it lets the takeover go: an opener sees the one without the other.
    setTimeout(() => {
      fs.rmSync(file + ".takeover");
      console.log("took");
    }, 200);
  }, 300);
  setInterval(() => {}, 60_000);
});`;

/** The pid of a process that has exited. */
async function gonePid(): Promise<number> {
  return Number((await runNodeProcess(["-e", "console.log(process.pid)"], {})).stdout);
}

/** Leaves the lock file a process killed while it held `dataDir` would have left. */
async function leaveStaleLock(dataDir: string): Promise<void> {
  const stale = { pid: await gonePid(), command: "npm start", since: "2026-01-01T00:00:00.000Z", token: "stale" };
  fs.writeFileSync(`${dataDir}.lock`, JSON.stringify(stale));
}

/** What the lock file of a PGlite directory records. */
const lockOf = (dataDir: string) =>
  JSON.parse(fs.readFileSync(`${dataDir}.lock`, "utf8")) as { pid: number; command: string; since: string };

/** One writer per PGlite directory (server/db/pglite-lock.ts), whichever path opens it. */
describe("PGlite directory lock", function () {
  this.timeout(60_000);
  let root: string;
  let dataDir: string;
  const children: RunningProcess[] = [];

  beforeEach(async function () {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-lock-"));
    dataDir = path.join(root, "pglite");
    // Laid out once from the migrated dump, so that no open below pays for initdb.
    await (await openFreshPglite(dataDir)).close();
  });
  afterEach(async function () {
    for (const { child, exited } of children.splice(0)) {
      child.kill("SIGKILL");
      await exited;
    }
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("refuses a second open of a directory in the same process, and opens it again once closed", async function () {
    const first = await openPglite(dataDir);
    const { pid, command, since } = lockOf(dataDir);
    expect(pid).to.equal(process.pid);
    const refusal = await openPglite(dataDir).then(
      () => expect.fail("opened twice"),
      (error: unknown) => error,
    );
    expect(refusal).to.be.instanceOf(DatabaseInUse);
    expect(refusal).to.include({ kind: "unavailable", code: "database_in_use" });
    expect((refusal as Error).message).to.equal(
      `The embedded database in ${dataDir} is already open in this process, ${command} (pid ${pid}, since ${since}): close it before opening it again.`,
    );
    // The same directory named another way is the same directory.
    await expect(openPglite(`${dataDir}/`)).to.be.rejectedWith(DatabaseInUse);
    await first.exec("CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)");
    await first.close();
    expect(fs.existsSync(`${dataDir}.lock`)).to.equal(false);

    const again = await openPglite(dataDir);
    try {
      expect((await again.query("SELECT n FROM kept")).rows).to.deep.equal([{ n: 7 }]);
    } finally {
      await again.close();
    }
  });

  it("refuses a directory another process has open, and takes it over once that process was killed", async function () {
    const holder = await startNodeProcess([...LOADER, "-e", HOLDER], { LOCK_TEST_DIR: dataDir }, /^open$/m);
    children.push(holder);
    const { pid, since } = lockOf(dataDir);
    expect(pid).to.equal(holder.child.pid);
    await expect(openPglite(dataDir)).to.be.rejectedWith(
      DatabaseInUse,
      `The embedded database in ${dataDir} is in use by node (pid ${pid}, since ${since}): stop that process first (Ctrl-C in its terminal), ` +
        "or set DATABASE_URL to a PostgreSQL database to run several processes on one database.",
    );

    // Killed, it could not give the lock back: the file stays, naming a process that is gone.
    holder.child.kill("SIGKILL");
    await holder.exited;
    expect(lockOf(dataDir).pid).to.equal(pid);
    const db = await openPglite(dataDir);
    try {
      expect(lockOf(dataDir).pid).to.equal(process.pid);
      expect((await db.query("SELECT 1 AS one")).rows).to.deep.equal([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });

  it("lets exactly one of several processes take over a stale lock at once, the others being refused naming it", async function () {
    await leaveStaleLock(dataDir);
    const racers = await Promise.all(
      [1, 2, 3].map(() => startNodeProcess([...LOADER, "-e", RACER], { LOCK_TEST_DIR: dataDir }, /^ready$/m)),
    );
    children.push(...racers);
    const answered = racers.map((racer) => racer.until(/^(took|refused: .*|Error[^]*)$/m));
    for (const racer of racers) racer.child.stdin!.write("go\n");
    const answers = (await Promise.all(answered)).map((match) => match[1]);
    const winners = racers.filter((_, i) => answers[i] === "took");
    expect(winners, answers.join("\n")).to.have.length(1);
    const { pid, command, since } = lockOf(dataDir);
    expect(pid).to.equal(winners[0].child.pid);
    expect(command).to.equal("node");
    for (const answer of answers.filter((a) => a !== "took")) {
      expect(answer).to.equal(
        `refused: The embedded database in ${dataDir} is in use by node (pid ${pid}, since ${since}): stop that process first ` +
          "(Ctrl-C in its terminal), or set DATABASE_URL to a PostgreSQL database to run several processes on one database.",
      );
    }
    // The winner gives the lock back when it exits.
    winners[0].child.stdin!.end();
    expect(await winners[0].exited).to.equal(0);
    expect(fs.existsSync(`${dataDir}.lock`)).to.equal(false);
  });

  it("takes over a stale lock only while it is still that one: an opener that found it stale too late is refused", async function () {
    await leaveStaleLock(dataDir);
    // Another opener found the lock stale first and is taking it over: it holds the takeover file, as one does for the
    // few system calls of a takeover. Once told to, it replaces the stale lock by its own and lets the takeover go.
    const other = await startNodeProcess([...LOADER, "-e", TAKER], { LOCK_TEST_DIR: dataDir }, /^taking$/m);
    children.push(other);
    other.child.stdin!.write("go\n");
    // This opener finds the lock stale too, and waits on the takeover file until the other one is done with it.
    let refusal: unknown;
    try {
      lockDataDir(dataDir);
    } catch (error) {
      refusal = error;
    }
    const { pid, command, since } = lockOf(dataDir);
    expect(pid).to.equal(other.child.pid);
    expect(refusal).to.be.instanceOf(DatabaseInUse);
    expect((refusal as Error).message).to.equal(
      `The embedded database in ${dataDir} is in use by ${command} (pid ${pid}, since ${since}): stop that process first ` +
        "(Ctrl-C in its terminal), or set DATABASE_URL to a PostgreSQL database to run several processes on one database.",
    );
    // Refused as soon as the lock was the other's; once that one lets its takeover go, none is left behind.
    await other.until(/^took$/m);
    expect(fs.existsSync(`${dataDir}.lock.takeover`)).to.equal(false);
  });
});
