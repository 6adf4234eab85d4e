import { expect } from "chai";
import { Wallet } from "ethers";
import type { Database } from "../../../server/db/database";
import { requesterOf } from "../../../server/lib/requester";
import { MemoryRateCounts, SharedRateCounts, SWEEP_ROWS } from "../../../server/rate-limits";
import { startOfMinute, startTestApp, type TestApp, fetchJson } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { createTestDatabase, usingPostgres, type TestDatabase } from "../../helpers/database";
import { expectRefusal } from "../../helpers/refusal";
import { authorizeQuery, registerClient, startLoginApp } from "../auth/helpers";

const MINUTE = 60_000;

describe("rate limits shared by the instances on one PostgreSQL database (RATE_LIMIT_STORE)", function () {
  before(function () {
    // PGlite is held by one process: the counts are shared through PostgreSQL only.
    if (!usingPostgres()) {
      console.log("    skipped: the shared counts need PostgreSQL (set DATABASE_URL)");
      this.skip();
    }
  });

  /** A data route's answer to `ip` (the socket's address: no proxy is trusted here). */
  const block = async (t: TestApp, ip: string) => {
    const answer = await t.app.inject({ url: "/block/localhost/latest", remoteAddress: ip });
    return { status: answer.statusCode, headers: answer.headers, body: answer.json() };
  };

  /**
   * Two instances on one database, each started by `start` (the second on the first's database) before the
   * describe's tests, and closed after them, the second first.
   */
  function twoInstances(start: (database?: TestDatabase) => Promise<TestApp>): { a: TestApp; b: TestApp } {
    const instances = {} as { a: TestApp; b: TestApp };
    before(async () => {
      instances.a = await start();
      instances.b = await start(instances.a.database);
    });
    after(async () => {
      await instances.b?.close();
      await instances.a?.close();
    });
    return instances;
  }

  /** Instances of the data routes with `env`, the indexer off. */
  const dataInstances = (env: Record<string, string>) =>
    twoInstances(async (database) =>
      startTestApp({ env: { RPC_URL_LOCALHOST: (await sharedNode()).url, INDEXER: "false", ...env }, database }),
    );

  describe("the data routes, two instances", function () {
    const instances = dataInstances({ DATA_RATE_LIMIT: "4" });

    it("refuses the request past DATA_RATE_LIMIT whichever instance answers, not past twice it", async function () {
      const { a, b } = instances;
      const ip = "192.0.2.30";
      startOfMinute(a.clock, b.clock);
      for (const t of [a, b, a, b]) expect((await block(t, ip)).status).to.equal(200);
      for (const [t, label] of [
        [a, "a"],
        [b, "b"],
      ] as const) {
        const refused = await block(t, ip);
        await expectRefusal(refused, 429, "too_many_requests", {
          label,
          message: /^Rate limit exceeded/,
          headers: { "retry-after": true },
        });
        expect(Number(refused.headers["retry-after"]), label).to.be.within(1, 60);
      }
      // Refused, its next requests are refused by each instance without counting them in the database again.
      for (const [i, t] of [a, b, a, b].entries())
        await expectRefusal(await block(t, ip), 429, "too_many_requests", { label: `again ${i}`, message: /^Rate limit exceeded/ });
      const { rows } = await a.app.db.query<{ count: number }>(
        "SELECT count FROM request_windows WHERE family = 'data' AND requester = $1",
        [requesterOf(ip)],
      );
      expect(rows.map((row) => row.count)).to.deep.equal([6]);
      // Another client has its own budget on both; the next minute is a new budget for everyone.
      expect((await block(b, "192.0.2.31")).status).to.equal(200);
      a.clock.advance(MINUTE);
      b.clock.advance(MINUTE);
      expect((await block(b, ip)).status).to.equal(200);
      expect((await block(a, ip)).status).to.equal(200);
    });
  });

  describe("the login routes, two instances", function () {
    const instances = twoInstances(async (database) =>
      startLoginApp((await sharedNode()).url, { env: { LOGIN_RATE_LIMIT: "3" }, database }),
    );

    it("refuses the /api/authorize past LOGIN_RATE_LIMIT whichever instance answers", async function () {
      const { a, b } = instances;
      const client = await registerClient(a);
      const authorize = (t: TestApp) => fetchJson(t, `/api/authorize?${authorizeQuery(client, Wallet.createRandom().address)}`);
      startOfMinute(a.clock, b.clock);
      for (const t of [a, b, a]) expect((await authorize(t)).status).to.equal(200);
      await expectRefusal(await authorize(b), 429, "too_many_requests", { headers: { "retry-after": true } });
      await expectRefusal(await authorize(a), 429, "too_many_requests", { headers: { "retry-after": true } });
    });
  });

  describe("RATE_LIMIT_STORE=memory, two instances", function () {
    const instances = dataInstances({ DATA_RATE_LIMIT: "2", RATE_LIMIT_STORE: "memory" });

    it("counts per instance: a client alternating between them gets twice the limit", async function () {
      const { a, b } = instances;
      const ip = "192.0.2.40";
      startOfMinute(a.clock, b.clock);
      for (const t of [a, b, a, b]) expect((await block(t, ip)).status).to.equal(200);
      await expectRefusal(await block(a, ip), 429, "too_many_requests", { message: /^Rate limit exceeded/ });
    });
  });

  describe("the shared counts (SharedRateCounts)", function () {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let db: Database;
    before(async function () {
      database = await createTestDatabase();
      // Migrated by an app's start.
      await (await startTestApp({ database, env: { INDEXER: "false" } })).close();
      db = await database.open();
    });
    after(async () => database?.drop());

    const options = (fallbacks: unknown[], timeoutMs = 250) => ({
      timeoutMs,
      retryAfterMs: 5_000,
      onFallback: (error: unknown) => fallbacks.push(error),
    });

    it("gives each of many requests at once its own count, one statement carrying those that arrive while another runs", async function () {
      const counts = new SharedRateCounts(db, new MemoryRateCounts(), options([]));
      const now = 30 * MINUTE;
      const many = (requester: string, n: number) =>
        Array.from({ length: n }, () => counts.count("batch", requester, now, MINUTE, 1_000).then((counted) => counted.current));
      const [first, second] = await Promise.all([Promise.all(many("first", 50)), Promise.all(many("second", 30))]);
      expect([...first].sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
      expect([...second].sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 1));
      const { rows } = await db.query<{ requester: string; count: number }>(
        "SELECT requester, count FROM request_windows WHERE family = 'batch' ORDER BY requester",
      );
      expect(rows).to.deep.equal([
        { requester: "first", count: 50 },
        { requester: "second", count: 30 },
      ]);
    });

    it("counts in memory while the database is down, says so, and tries it again after retryAfterMs", async function () {
      const closed = await database.open();
      await closed.close();
      const fallbacks: unknown[] = [];
      const counts = new SharedRateCounts(closed, new MemoryRateCounts(), options(fallbacks));
      const now = 10 * MINUTE;
      expect(await counts.count("data", "r", now, MINUTE, 1_000)).to.deep.equal({ current: 1, ttl: MINUTE });
      expect(await counts.count("data", "r", now + 1_000, MINUTE, 1_000)).to.deep.equal({ current: 2, ttl: MINUTE - 1_000 });
      // The first failure is reported with its error; within retryAfterMs the database is not asked.
      expect(fallbacks).to.have.length(2);
      expect(fallbacks[0]).to.be.an("error");
      expect(fallbacks[1]).to.equal(undefined);
      await counts.count("data", "r", now + 5_000, MINUTE, 1_000);
      expect(fallbacks[2]).to.be.an("error");
    });

    it("counts in memory when the database is slower than timeoutMs", async function () {
      const fallbacks: unknown[] = [];
      const counts = new SharedRateCounts(db, new MemoryRateCounts(), options(fallbacks, 50));
      const now = 20 * MINUTE;
      expect((await counts.count("data", "slow", now, MINUTE, 1_000)).current).to.equal(1);
      const holder = await db.connect();
      try {
        await holder.transaction(async (tx) => {
          await tx.query("LOCK TABLE request_windows IN ACCESS EXCLUSIVE MODE");
          // The count waits for the lock: past timeoutMs it is made in memory (its first there).
          expect((await counts.count("data", "slow", now + 1, MINUTE, 1_000)).current).to.equal(1);
        });
      } finally {
        holder.release();
      }
      expect(fallbacks).to.have.length(1);
      expect(String(fallbacks[0])).to.match(/no answer within 50 ms/);
    });

    it("sweeps past windows, at most SWEEP_ROWS at a time, and keeps the current and previous ones", async function () {
      const now = 100 * MINUTE;
      await db.query(
        `INSERT INTO request_windows (family, requester, window_start, count)
         SELECT 'sweep', 'r' || i, $1::bigint, 1 FROM generate_series(1, $2::int) AS i`,
        [now - 5 * MINUTE, SWEEP_ROWS + 10],
      );
      await db.query(`INSERT INTO request_windows VALUES ('sweep', 'kept', $1, 1), ('sweep', 'kept', $2, 1)`, [now - MINUTE, now]);
      const counts = new SharedRateCounts(db, new MemoryRateCounts(), options([]));
      expect(await counts.sweep(now, MINUTE)).to.equal(SWEEP_ROWS);
      // The rest (and what earlier tests left).
      expect(await counts.sweep(now, MINUTE)).to.be.within(10, SWEEP_ROWS - 1);
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM request_windows WHERE family = 'sweep' AND window_start < $1`,
        [now - MINUTE],
      );
      expect(rows[0].n).to.equal("0");
      const kept = await db.query(`SELECT 1 FROM request_windows WHERE family = 'sweep' AND requester = 'kept'`);
      expect(kept.rowCount).to.equal(2);
    });
  });
});
