import { expect } from "chai";
import { Wallet } from "ethers";
import { AliceNFT__factory } from "../../../typechain-types";
import { ConfigError, loadConfig, type DatabaseConfig } from "../../../server/config";
import type { Database } from "../../../server/db/database";
import { CANCEL_TIMEOUT_MS } from "../../../server/db/cancel-request";
import { APPLICATION_NAME, GIVE_UP_GRACE_MS, openPostgres } from "../../../server/db/postgres";
import { exchangeCode, registerClient, signedLogin, startLoginApp } from "../auth/helpers";
import type { TestApp } from "../../helpers/app";
import type { TestDatabase } from "../../helpers/database";
import { indexedTo } from "../../helpers/index-check";
import { postgresServerBinariesOrSkip, PostgresServers, type PostgresServer } from "../../helpers/postgres-servers";
import { openSse } from "../../helpers/sse";
import { SuiteChain } from "../../helpers/suite-chain";

describe("read replicas: settings", function () {
  it("DATABASE_READ_URLS without DATABASE_URL is refused at start: the embedded database has no replicas", function () {
    expect(() => loadConfig({ DATABASE_READ_URLS: "postgres://postgres@127.0.0.1:5433/postgres" }))
      .to.throw(ConfigError)
      .with.property("message")
      .that.matches(/^DATABASE_READ_URLS: expected to be set only with DATABASE_URL \(the embedded PGlite database has no replicas\)/);
  });

  it("every URL must be a postgres:// URL, and a refused one is shown without its password", function () {
    expect(() => loadConfig({ DATABASE_URL: "postgres://db/app", DATABASE_READ_URLS: "postgres://db2/app, mysql://user:hunter2@db3/app" }))
      .to.throw(ConfigError)
      .with.property("message")
      .that.equals('DATABASE_READ_URLS: expected comma-separated postgres:// or postgresql:// URLs, got "mysql://user:***@db3/app"');
  });

  it("with DATABASE_URL they are read with their defaults", function () {
    const config = loadConfig({ DATABASE_URL: "postgres://db/app", DATABASE_READ_URLS: "postgres://r1/app,postgresql://r2/app" });
    expect(config.database).to.deep.include({
      replicas: {
        urls: ["postgres://r1/app", "postgresql://r2/app"],
        maxLagBlocks: 2,
        lagCheckMs: 1000,
        retryMs: 5000,
        connectTimeoutMs: 1000,
        readTimeoutMs: 2000,
      },
    });
  });
});

/**
 * A primary and a streaming replica started by this test from PostgreSQL's server programs, the service's reads of the
 * index on the replica. A replica made to fall behind pauses its replay (`pg_wal_replay_pause`), so that how far
 * behind it is is a number of blocks the test chooses.
 */
describe("read replicas: a primary and a streaming replica", function () {
  this.timeout(120_000);
  const MAX_LAG = 2;
  const LAG_CHECK_MS = 1_000;
  const RETRY_MS = 5_000;
  const READ_TIMEOUT_MS = 1_000;
  let servers: PostgresServers;
  let primary: PostgresServer;
  let replica: PostgresServer;
  let replicaDb: Database;
  let t: TestApp;
  let chain: SuiteChain;
  let holder: string;
  let contract: string;
  let alice: Awaited<ReturnType<AliceNFT__factory["deploy"]>>;
  const logs: Array<Record<string, unknown>> = [];
  /** The log lines about the replica (not the one line per request). */
  const replicaLines = () => logs.filter((line) => /^read replica/.test(String(line.msg)));

  before(async function () {
    servers = PostgresServers.create(postgresServerBinariesOrSkip(this));
    ({ primary, replica } = await servers.primaryAndReplica());
    replicaDb = await openPostgres(replica.url, { poolSize: 1 });

    chain = await SuiteChain.sharedNode();
    const deployer = await chain.provider.getSigner(0);
    holder = await (await chain.provider.getSigner(8)).getAddress();
    alice = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
    contract = await alice.getAddress();
    const config: DatabaseConfig = { kind: "postgres", url: primary.url };
    const database: TestDatabase = {
      kind: "postgres",
      config,
      appOptions: async () => ({ database: config }),
      open: () => openPostgres(primary.url),
      drop: async () => {},
    };
    t = await startLoginApp(chain.url, {
      database,
      listen: true,
      logStream: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
      env: {
        LOG_LEVEL: "info",
        DATABASE_READ_URLS: replica.url,
        DATABASE_READ_MAX_LAG_BLOCKS: String(MAX_LAG),
        DATABASE_READ_LAG_CHECK_MS: String(LAG_CHECK_MS),
        DATABASE_READ_RETRY_MS: String(RETRY_MS),
        DATABASE_READ_CONNECT_TIMEOUT_MS: "2000",
        DATABASE_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS),
        INDEXER_POLL_MS: "50",
        INDEXER_CONTRACTS_LOCALHOST: contract,
        METADATA_FETCH_WAIT_MS: "50",
      },
    });
    await (await alice.mintBatch(holder, [1n, 2n, 3n])).wait();
    await caughtUp();
  });
  after(async function () {
    // The event stream's client aborted its answer, but left the keep-alive connection under it open: the server's
    // close would wait for it up to Fastify's keep-alive timeout.
    t?.app.server.closeAllConnections();
    await t?.close();
    await replicaDb?.close();
    await chain?.close();
    await servers?.close();
  });

  /** Waits until the primary's index and the replica's have the chain's head. */
  async function caughtUp() {
    const head = await chain.provider.getBlockNumber();
    await indexedTo(t.app.db, "localhost", chain.provider, head);
    await indexedTo(replicaDb, "localhost", chain.provider, head);
    // The primary's block the answers are compared with is read again.
    t.clock.advance(LAG_CHECK_MS);
  }

  /** Blocks of the chain: mints each a block with one token to the holder, the index of the primary at the new head. */
  async function mint(ids: bigint[]) {
    for (const id of ids) await (await alice.mintBatch(holder, [id])).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    t.clock.advance(LAG_CHECK_MS);
  }

  const cursorOf = async (db: Database) =>
    Number((await db.query<{ b: string }>("SELECT block_number AS b FROM indexer_cursors WHERE network = 'localhost'")).rows[0].b);

  const counter = async (name: string, labels: string) => {
    const text = await t.app.metrics!.registry.getSingleMetricAsString(name);
    const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
    return line ? Number(line.split(" ").pop()) : 0;
  };

  /** Every route that reads the index, each answering with X-Indexed-Block. */
  const routes = () => [
    `/inventory/localhost/${holder}/${contract}`,
    `/inventory/localhost/${holder}`,
    `/holders/localhost/${contract}`,
    `/holders/localhost/${contract}/count`,
    `/transfers/localhost/owner/${holder}`,
    `/transfers/localhost/${contract}/1`,
    `/token/localhost/${contract}/1`,
  ];

  it("the data routes and GET /token answer from the replica, X-Indexed-Block being the replica's", async function () {
    await replicaDb.query("SELECT pg_wal_replay_pause()");
    try {
      // One block behind: within DATABASE_READ_MAX_LAG_BLOCKS, so the replica answers, without token 4.
      await mint([4n]);
      const replicaBlock = await cursorOf(replicaDb);
      expect(await cursorOf(t.app.db)).to.equal(replicaBlock + 1);
      for (const path of routes()) {
        const response = await t.fetch(path);
        expect(response.status, `${path}: ${await response.clone().text()}`).to.equal(200);
        expect(response.headers.get("x-indexed-block"), path).to.equal(String(replicaBlock));
      }
      const inventory = await t.fetch(`/inventory/localhost/${holder}/${contract}`);
      expect(((await inventory.json()) as Array<{ id: number }>).map((item) => item.id)).to.deep.equal([1, 2, 3]);
    } finally {
      await replicaDb.query("SELECT pg_wal_replay_resume()");
    }
    await caughtUp();
  });

  it("a replica more than DATABASE_READ_MAX_LAG_BLOCKS behind is skipped for the primary, then used again", async function () {
    await replicaDb.query("SELECT pg_wal_replay_pause()");
    const behindBefore = await counter("db_replica_skipped_total", 'replica="1",reason="behind"');
    const linesBefore = replicaLines().length;
    try {
      await mint([5n, 6n, 7n]);
      const primaryBlock = await cursorOf(t.app.db);
      expect(await cursorOf(replicaDb)).to.equal(primaryBlock - 3);
      for (const path of routes()) {
        const response = await t.fetch(path);
        expect(response.status, path).to.equal(200);
        expect(response.headers.get("x-indexed-block"), path).to.equal(String(primaryBlock));
      }
      const inventory = await t.fetch(`/inventory/localhost/${holder}/${contract}`);
      expect(((await inventory.json()) as Array<{ id: number }>).map((item) => item.id)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
      // The first read found it behind; it then rested, its reads going straight to the primary.
      expect(await counter("db_replica_skipped_total", 'replica="1",reason="behind"')).to.equal(behindBefore + 1);
      expect(replicaLines().slice(linesBefore)).to.have.length(1);
      expect(replicaLines().at(-1)).to.deep.include({
        level: 40,
        msg: "read replica skipped: its reads go to the primary",
        replica: 1,
        reason: "behind",
        retryMs: RETRY_MS,
      });
    } finally {
      await replicaDb.query("SELECT pg_wal_replay_resume()");
    }
    await caughtUp();
    t.clock.advance(RETRY_MS);
    const served = await counter("db_routed_reads_total", 'target="1"');
    const response = await t.fetch(`/inventory/localhost/${holder}/${contract}`);
    expect(response.headers.get("x-indexed-block")).to.equal(String(await cursorOf(replicaDb)));
    expect(await counter("db_routed_reads_total", 'target="1"')).to.equal(served + 1);
    expect(replicaLines().at(-1)).to.deep.include({ level: 30, msg: "read replica serves again", replica: 1 });
  });

  it("a replica stopped mid-test is skipped for the primary at once, rests, and serves again once back", async function () {
    await replica.stop();
    try {
      const downBefore = await counter("db_replica_skipped_total", 'replica="1",reason="down"');
      const onPrimary = await counter("db_routed_reads_total", 'target="primary"');
      await mint([8n]);
      const primaryBlock = await cursorOf(t.app.db);
      for (const path of routes()) {
        const response = await t.fetch(path);
        expect(response.status, path).to.equal(200);
        expect(response.headers.get("x-indexed-block"), path).to.equal(String(primaryBlock));
      }
      // Found down once, then left out for DATABASE_READ_RETRY_MS.
      expect(await counter("db_replica_skipped_total", 'replica="1",reason="down"')).to.equal(downBefore + 1);
      const skipped = replicaLines().at(-1)!;
      expect(skipped).to.deep.include({ level: 40, msg: "read replica skipped: its reads go to the primary", replica: 1, reason: "down" });
      expect(String(skipped.detail)).to.match(/ECONNREFUSED|terminat|shut/i);
      expect(await counter("db_routed_reads_total", 'target="primary"')).to.equal(onPrimary + routes().length);

      // Logins, client registration and the indexer never needed it.
      const client = await registerClient(t);
      const login = await signedLogin(t, client, Wallet.createRandom());
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      expect((await exchangeCode(t, client, login.body.code)).status).to.equal(200);
    } finally {
      await replica.start();
    }
    await caughtUp();
    t.clock.advance(RETRY_MS);
    const served = await counter("db_routed_reads_total", 'target="1"');
    const response = await t.fetch(`/holders/localhost/${contract}/count`);
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ holders: 1 });
    expect(await counter("db_routed_reads_total", 'target="1"')).to.equal(served + 1);
  });

  it("a replica that stalls (replay paused, its backends stopped with SIGSTOP) is skipped within its read bound", async function () {
    // The instance's connections to the replica, opened by the reads before; a stopped backend takes a statement and
    // never answers it, nor PostgreSQL's own statement_timeout, nor a cancel request.
    await t.fetch(`/holders/localhost/${contract}/count`);
    await replicaDb.query("SELECT pg_wal_replay_pause()");
    const { rows } = await replicaDb.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
      [APPLICATION_NAME],
    );
    expect(rows.length, "the instance's connections to the replica").to.be.above(0);
    for (const { pid } of rows) process.kill(pid, "SIGSTOP");
    const downBefore = await counter("db_replica_skipped_total", 'replica="1",reason="down"');
    try {
      await mint([10n]);
      const primaryBlock = await cursorOf(t.app.db);
      const started = Date.now();
      const response = await t.fetch(`/inventory/localhost/${holder}/${contract}`);
      const took = Date.now() - started;
      expect(response.status, await response.clone().text()).to.equal(200);
      expect(response.headers.get("x-indexed-block")).to.equal(String(primaryBlock));
      expect(((await response.json()) as Array<{ id: number }>).map((item) => item.id)).to.include(10);
      expect(await counter("db_replica_skipped_total", 'replica="1",reason="down"')).to.equal(downBefore + 1);
      const skipped = replicaLines().at(-1)!;
      expect(skipped).to.deep.include({ msg: "read replica skipped: its reads go to the primary", replica: 1, reason: "down" });
      expect(String(skipped.detail)).to.match(new RegExp(`did not end within ${READ_TIMEOUT_MS} ms`));
      // The documented bound (docs/operations/running.md, read replicas), with room for a loaded machine.
      expect(took).to.be.below(READ_TIMEOUT_MS + GIVE_UP_GRACE_MS + CANCEL_TIMEOUT_MS + 3_000);
    } finally {
      for (const { pid } of rows) process.kill(pid, "SIGCONT");
      await replicaDb.query("SELECT pg_wal_replay_resume()");
    }
    await caughtUp();
    t.clock.advance(RETRY_MS);
    const served = await counter("db_routed_reads_total", 'target="1"');
    expect((await t.fetch(`/holders/localhost/${contract}/count`)).status).to.equal(200);
    expect(await counter("db_routed_reads_total", 'target="1"')).to.equal(served + 1);
  });

  it("the event stream comes from the primary: it delivers a transfer the paused replica has not replayed", async function () {
    const stream = await openSse(`${t.url}/events/localhost?owner=${holder}`);
    await replicaDb.query("SELECT pg_wal_replay_pause()");
    try {
      await (await alice.mintBatch(holder, [9n])).wait();
      const event = await stream.next((e) => e.event === "transfer" && (JSON.parse(e.data) as { id: number }).id === 9, 30_000);
      expect(JSON.parse(event.data)).to.include({ id: 9, to: holder });
    } finally {
      stream.close();
      await replicaDb.query("SELECT pg_wal_replay_resume()");
    }
    await caughtUp();
  });
});
