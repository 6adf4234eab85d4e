import { expect } from "chai";
import { fetchJson } from "../../helpers/app";
import { Wallet } from "ethers";
import pg from "pg";
import type { Database } from "../../../server/db/database";
import { openPostgres } from "../../../server/db/postgres";
import { boundText, encodeMetadata } from "../../../server/signed-metadata/signed-text";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { createTestDatabase, usingPostgres, type TestDatabase } from "../../helpers/database";
import { pgbouncerBinary, startPgBouncer, type PgBouncer } from "../../helpers/pgbouncer";
import { expectRefusal } from "../../helpers/refusal";
import { authorizeQuery, registerClient, startLoginApp } from "../auth/helpers";

const CONTRACT = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
const BOUND_MS = 300;
const LONG_BOUND_MS = 5_000;
/**
 * The service's bounds: its acquire bound also covers opening a connection (docs/operations/running.md), so it stays
 * above what that takes on a loaded machine, and the statement bound stays above it, so that posts stalled behind a
 * lock hold the pool past it.
 */
const SERVICE_BOUND_MS = 1_500;
const SERVICE_ACQUIRE_MS = 500;

/** The `statement_timeout` a session of `db` runs with, as PostgreSQL shows it. */
async function statementTimeoutOf(db: { query: Database["query"] }): Promise<string> {
  return (await db.query<{ statement_timeout: string }>("SHOW statement_timeout")).rows[0].statement_timeout;
}

/** The error a refused promise holds (a test of a refusal reads its code). */
async function refusalOf(promise: Promise<unknown>): Promise<{ code?: string; cause?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string };
  }
  throw new Error("expected a refusal");
}

/**
 * Statements of other sessions still running `pg_sleep` on the database of `url`, once none is or `waitMs` passed
 * (a cancel request is sent on a connection of its own, and arrives a moment after the refusal).
 */
async function sleepersOn(url: string, waitMs = 0): Promise<number> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const n = await countSleepers(url);
    if (n === 0 || Date.now() >= deadline) return n;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function countSleepers(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep%' AND pid <> pg_backend_pid() AND state = 'active'",
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/**
 * Every statement the service sends is bounded in time (DATABASE_STATEMENT_TIMEOUT_MS, docs/operations/running.md):
 * PostgreSQL cancels it at the bound, set when each connection starts, and a transaction opened for the long bound
 * (migrations, the indexer's writes) gets DATABASE_LONG_STATEMENT_TIMEOUT_MS, which also holds through PgBouncer in
 * transaction mode, where the service's own bound cancels what the pooler carries no setting for.
 */
describe("statements bounded in time", function () {
  this.timeout(60_000);
  let base: TestDatabase;
  let url: string;
  const opened: Database[] = [];
  const open = async (at: string, options: Parameters<typeof openPostgres>[1] = {}) => {
    const db = await openPostgres(at, { poolSize: 2, statementTimeoutMs: BOUND_MS, longStatementTimeoutMs: LONG_BOUND_MS, ...options });
    opened.push(db);
    return db;
  };

  before(async function () {
    if (!usingPostgres()) {
      console.log("      skipped: needs PostgreSQL (DATABASE_URL); PGlite runs in process and bounds no statement");
      return this.skip();
    }
    base = await createTestDatabase();
    url = (base.config as { url: string }).url;
  });
  after(async function () {
    for (const db of opened) await db.close();
    await base?.drop();
  });

  it("every connection carries the bound from its start; a statement past it is 503 database_busy, the pool goes on", async function () {
    const db = await open(url);
    expect(await statementTimeoutOf(db)).to.equal(`${BOUND_MS}ms`);
    const connection = await db.connect();
    try {
      expect(await statementTimeoutOf(connection)).to.equal(`${BOUND_MS}ms`);
    } finally {
      connection.release();
    }
    const refused = await refusalOf(db.query("SELECT pg_sleep(5)"));
    expect(refused.code).to.equal("database_busy");
    expect(String((refused.cause as Error).message)).to.match(/statement timeout/);
    expect(await sleepersOn(url)).to.equal(0);
    expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).to.deep.equal([{ one: 1 }]);
  });

  it("a transaction opened for the long bound gets DATABASE_LONG_STATEMENT_TIMEOUT_MS, for itself alone", async function () {
    const db = await open(url, { poolSize: 1 });
    const slept = await db.transaction(
      async (tx) => {
        await tx.query(`SELECT pg_sleep(${(2 * BOUND_MS) / 1000})`);
        return await statementTimeoutOf(tx);
      },
      { long: true },
    );
    expect(slept).to.equal(`${LONG_BOUND_MS / 1000}s`);
    // The same connection (the pool has one), the next transaction at the usual bound again.
    const refused = await refusalOf(db.transaction((tx) => tx.query(`SELECT pg_sleep(${(2 * BOUND_MS) / 1000})`)));
    expect(refused.code).to.equal("database_busy");
    expect(await statementTimeoutOf(db)).to.equal(`${BOUND_MS}ms`);
  });

  describe("through PgBouncer in transaction mode", function () {
    let bouncer: PgBouncer | undefined;

    before(async function () {
      const binary = pgbouncerBinary();
      if (!binary) {
        console.log("      skipped: pgbouncer is not installed (apt-get install pgbouncer; .ci/run installs it)");
        return this.skip();
      }
      bouncer = await startPgBouncer(binary, url, 2);
    });
    after(async () => bouncer?.stop());

    it("the bound holds: the statement is cancelled on its server connection, 503 database_busy, and the pool goes on", async function () {
      const db = await open(bouncer!.url, { sessionUrl: url, preparedStatements: false });
      const refused = await refusalOf(db.query("SELECT pg_sleep(60)"));
      expect(refused.code).to.equal("database_busy");
      // The service asked PostgreSQL, through the pooler, to cancel it: nothing still sleeps behind the server
      // connection the pooler lent.
      expect(await sleepersOn(url, 10_000)).to.equal(0);
      expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).to.deep.equal([{ one: 1 }]);
      // The long bound is the transaction's own (SET LOCAL), which the pooler carries with the transaction.
      await db.transaction((tx) => tx.query(`SELECT pg_sleep(${(2 * BOUND_MS) / 1000})`), { long: true });
      // The session connections (the indexer's lock, LISTEN) reach PostgreSQL itself, with the bound from their start.
      const session = await db.connect();
      try {
        expect(await statementTimeoutOf(session)).to.equal(`${BOUND_MS}ms`);
      } finally {
        session.release();
      }
    });
  });

  describe("the service", function () {
    let t: TestApp;
    let holder: pg.Client | undefined;

    before(async function () {
      t = await startLoginApp((await sharedNode()).url, {
        env: {
          INDEXER: "false",
          DATABASE_STATEMENT_TIMEOUT_MS: String(SERVICE_BOUND_MS),
          DATABASE_POOL_SIZE: "2",
          DATABASE_ACQUIRE_TIMEOUT_MS: String(SERVICE_ACQUIRE_MS),
        },
      });
    });
    after(async function () {
      await holder?.end().catch(() => {});
      await t?.close();
    });

    /** Takes `table`'s strongest lock in an open transaction of another session: every statement on it waits. */
    async function lock(table: string) {
      holder = new pg.Client({ connectionString: (t.database.config as { url: string }).url });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    }
    async function unlock() {
      await holder!.query("ROLLBACK");
      await holder!.end();
      holder = undefined;
    }

    async function post(id: number) {
      const wallet = Wallet.createRandom();
      const metadata = encodeMetadata({ name: `bounded ${id}` });
      const sig = await wallet.signMessage(
        boundText({ kind: "nft", network: "localhost", contract: CONTRACT, tokenId: BigInt(id) }, metadata),
      );
      return t.fetch(`/metadata/localhost/${CONTRACT}/${id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ iss: wallet.address, sig, metadata }),
      });
    }

    it("a statement stalled behind a lock is 503 database_busy with Retry-After once past the bound, then served again", async function () {
      await lock("metadata_posts");
      try {
        await expectRefusal(await post(1), 503, "database_busy", { headers: { "retry-after": "1" } });
      } finally {
        await unlock();
      }
      expect((await post(2)).status).to.equal(200);
    });

    it("under load with the pool taken, every answer is a success or 503 database_busy with Retry-After, never a 500", async function () {
      const client = await registerClient(t);
      await lock("metadata_posts");
      const answers: Array<{ status: number; error?: string; retryAfter: string | null }> = [];
      try {
        // Posts that wait on the lock hold both connections; logins and reads queue for them past the acquire timeout.
        await Promise.all(
          Array.from({ length: 24 }, async (_, i) => {
            const response =
              i % 3 === 0
                ? await post(100 + i)
                : i % 3 === 1
                  ? await t.fetch(`/api/authorize?${authorizeQuery(client, Wallet.createRandom().address)}`)
                  : await t.fetch(`/metadata/localhost/${CONTRACT}/${100 + i}`);
            const body = (await response.json()) as { error?: string };
            answers.push({ status: response.status, error: body.error, retryAfter: response.headers.get("retry-after") });
          }),
        );
      } finally {
        await unlock();
      }
      const undocumented = answers.filter(
        (a) => a.status >= 300 && !(a.status === 503 && a.error === "database_busy" && a.retryAfter === "1"),
      );
      // A read of a post nobody made is a 404, the documented answer once it got a connection.
      expect(undocumented.filter((a) => !(a.status === 404 && a.error === "not_found"))).to.deep.equal([]);
      expect(answers.filter((a) => a.error === "database_busy").length).to.be.at.least(8);
      expect((await fetchJson(t, "/ready")).status).to.equal(200);
    });
  });
});
