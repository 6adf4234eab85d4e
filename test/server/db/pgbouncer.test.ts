import { expect } from "chai";
import { Wallet } from "ethers";
import pg from "pg";
import { AliceNFT__factory } from "../../../typechain-types";
import type { DatabaseConfig } from "../../../server/config";
import { openPostgres, SESSION_APPLICATION_NAME } from "../../../server/db/postgres";
import { exchangeCode, registerClient, signedLogin, startLoginApp } from "../auth/helpers";
import type { TestApp } from "../../helpers/app";
import { createTestDatabase, usingPostgres, type TestDatabase } from "../../helpers/database";
import { indexedTo } from "../../helpers/index-check";
import { pgbouncerBinary, startPgBouncer, type PgBouncer } from "../../helpers/pgbouncer";
import { SuiteChain } from "../../helpers/suite-chain";

/**
 * The service behind PgBouncer in transaction mode (Debian's 1.18: no named prepared statements across transactions,
 * no session kept between them): DATABASE_PREPARED_STATEMENTS=false and DATABASE_SESSION_URL on PostgreSQL itself.
 */
describe("through PgBouncer in transaction mode", function () {
  this.timeout(60_000);
  let base: TestDatabase;
  let bouncer: PgBouncer;
  let directUrl: string;

  before(async function () {
    const binary = pgbouncerBinary();
    if (!usingPostgres() || !binary) {
      console.log(
        `      skipped: ${!usingPostgres() ? "needs PostgreSQL (DATABASE_URL)" : "pgbouncer is not installed (apt-get install pgbouncer; .ci/run installs it)"}`,
      );
      return this.skip();
    }
    base = await createTestDatabase();
    directUrl = (base.config as { url: string }).url;
    bouncer = await startPgBouncer(binary, directUrl, 2);
  });
  after(async function () {
    await bouncer?.stop();
    await base?.drop();
  });

  /**
   * Runs one named statement twice through the pooler on one client connection, the second time while another client
   * holds the server connection the first ran on (PgBouncer hands out the server connection used last first).
   */
  async function namedStatementTwice(preparedStatements: boolean): Promise<number[]> {
    const db = await openPostgres(bouncer.url, { poolSize: 1, preparedStatements });
    const holder = new pg.Client({ connectionString: bouncer.url });
    try {
      const sql = "SELECT $1::int AS n";
      const first = await db.query<{ n: number }>(sql, [1], { prepare: true });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query("SELECT 1");
      const second = await db.query<{ n: number }>(sql, [2], { prepare: true });
      return [first.rows[0].n, second.rows[0].n];
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      await holder.end().catch(() => {});
      await db.close();
    }
  }

  it("a named prepared statement is lost there, which is why the setting exists", async function () {
    let error: unknown;
    await namedStatementTwice(true).catch((caught) => (error = caught));
    expect(String(error)).to.match(/prepared statement "p0" does not exist/);
  });

  it("with DATABASE_PREPARED_STATEMENTS=false every statement is sent unnamed and runs", async function () {
    expect(await namedStatementTwice(false)).to.deep.equal([1, 2]);
  });

  describe("the service", function () {
    let t: TestApp;
    let chain: SuiteChain;
    let holder: string;
    let alice: Awaited<ReturnType<AliceNFT__factory["deploy"]>>;

    before(async function () {
      chain = await SuiteChain.sharedNode();
      const deployer = await chain.provider.getSigner(0);
      holder = await (await chain.provider.getSigner(7)).getAddress();
      alice = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
      // The settings as an operator writes them; the app's DATABASE_URL is the pooler's.
      const config: DatabaseConfig = { kind: "postgres", url: bouncer.url };
      t = await startLoginApp(chain.url, {
        database: { ...base, appOptions: async () => ({ database: config }) },
        env: {
          DATABASE_SESSION_URL: directUrl,
          DATABASE_PREPARED_STATEMENTS: "false",
          DATABASE_POOL_SIZE: "4",
          INDEXER_POLL_MS: "50",
          INDEXER_CONTRACTS_LOCALHOST: await alice.getAddress(),
        },
      });
      expect(t.config.database).to.deep.include({ url: bouncer.url, sessionUrl: directUrl, preparedStatements: false });
    });
    after(async function () {
      await t?.close();
      await chain?.close();
    });

    it("logs users in: authorize, login and the code exchange, many at once", async function () {
      const client = await registerClient(t);
      const logins = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const login = await signedLogin(t, client, Wallet.createRandom());
          expect(login.status, JSON.stringify(login.body)).to.equal(200);
          const tokens = await exchangeCode(t, client, login.body.code);
          expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
          return tokens.body.id_token;
        }),
      );
      expect(new Set(logins).size).to.equal(12);
    });

    it("indexes transfers, its writer's lock held on a session of PostgreSQL itself", async function () {
      await (await alice.mintBatch(holder, [1n, 2n, 3n])).wait();
      await indexedTo(t.app.db, "localhost", chain.provider);
      const response = await t.fetch(`/inventory/localhost/${holder}/${await alice.getAddress()}`);
      expect(response.status).to.equal(200);
      expect(((await response.json()) as Array<{ id: string }>).map((item) => item.id)).to.deep.equal(["1", "2", "3"]);
      // The writer's session-level advisory lock is held by a session of the service's own, not through PgBouncer.
      const direct = new pg.Client({ connectionString: directUrl });
      await direct.connect();
      try {
        const { rows } = await direct.query<{ application_name: string }>(
          `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()`,
        );
        expect(rows.map((row) => row.application_name)).to.deep.equal([SESSION_APPLICATION_NAME]);
      } finally {
        await direct.end();
      }
    });
  });
});
