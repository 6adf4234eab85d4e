import { expect } from "chai";
import { Wallet } from "ethers";
import pg from "pg";
import { boundText, encodeMetadata } from "../../../server/signed-metadata/signed-text";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { postgresTestDatabase } from "../../helpers/database";
import { postgresServerBinaries, startPostgresServer, type PostgresServer } from "../../helpers/postgres-server";
import { expectRefusal } from "../../helpers/refusal";
import { getJson, startLoginApp } from "../auth/helpers";

const CONTRACT = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
/** The role's connections: the pool's, and what the test takes to reach the limit. */
const CONNECTION_LIMIT = 3;

/**
 * PostgreSQL refusing for its own state, on a server the test starts: a server that became read-only (what the old
 * primary is after a failover, SQLSTATE 25006) and a role at its connection limit (53300). Each is a 503 with
 * Retry-After, the process goes on, it serves again without a restart once the cause is gone, and every post it
 * acknowledged is stored.
 */
describe("PostgreSQL refusing for its state", function () {
  this.timeout(120_000);
  let server: PostgresServer | undefined;
  let t: TestApp | undefined;
  let admin: pg.Client | undefined;
  let nextId = 1;
  const acknowledged: number[] = [];

  before(async function () {
    const binaries = postgresServerBinaries();
    if (!binaries) {
      console.log("      skipped: needs PostgreSQL's server binaries (initdb, pg_ctl) under /usr/lib/postgresql/<version>/bin");
      return this.skip();
    }
    server = await startPostgresServer(binaries);
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    // A role of its own, not a superuser: PostgreSQL does not hold superusers to a connection limit.
    await admin.query(`CREATE ROLE app LOGIN CONNECTION LIMIT ${CONNECTION_LIMIT}`);
    await admin.query("CREATE DATABASE app OWNER app");
    const url = server.url.replace("postgres://postgres@", "postgres://app@").replace(/\/postgres$/, "/app");
    t = await startLoginApp((await sharedNode()).url, {
      database: postgresTestDatabase(url, async () => {}),
      env: { INDEXER: "false", DATABASE_POOL_SIZE: "2", DATABASE_ACQUIRE_TIMEOUT_MS: "1000" },
    });
  });
  after(async function () {
    await t?.close();
    await admin?.end();
    await server?.remove();
  });

  async function post() {
    const id = nextId++;
    const wallet = Wallet.createRandom();
    const metadata = encodeMetadata({ name: `refused ${id}` });
    const sig = await wallet.signMessage(
      boundText({ kind: "nft", network: "localhost", contract: CONTRACT, tokenId: BigInt(id) }, metadata),
    );
    const response = await t!.fetch(`/metadata/localhost/${CONTRACT}/${id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ iss: wallet.address, sig, metadata }),
    });
    if (response.status === 200) acknowledged.push(id);
    return response;
  }

  async function expectAcknowledgedStored() {
    const { rows } = await t!.app.db.query<{ token_id: string }>("SELECT token_id::text FROM metadata_posts WHERE target = $1", [CONTRACT]);
    const stored = new Set(rows.map((row) => Number(row.token_id)));
    expect(
      acknowledged.filter((id) => !stored.has(id)),
      "acknowledged posts missing",
    ).to.deep.equal([]);
  }

  it("a server that became read-only (25006, the old primary after a failover): 503 database_unavailable, reads go on, then writes again", async function () {
    expect((await post()).status).to.equal(200);
    await admin!.query("ALTER SYSTEM SET default_transaction_read_only = on");
    await admin!.query("SELECT pg_reload_conf()");
    try {
      // The configuration reaches every session at its next statement; until then a write may still pass.
      let refused: Response | undefined;
      for (let i = 0; i < 20 && !refused; i++) {
        const response = await post();
        if (response.status !== 200) refused = response;
      }
      await expectRefusal(refused!, 503, "database_unavailable", { headers: { "retry-after": "1" } });
      await expectRefusal(await post(), 503, "database_unavailable", { headers: { "retry-after": "1" } });
      // Reads need no write: a post nobody made is still a 404.
      await expectRefusal(await t!.fetch(`/metadata/localhost/${CONTRACT}/999999`), 404, "not_found");
    } finally {
      await admin!.query("ALTER SYSTEM RESET default_transaction_read_only");
      await admin!.query("SELECT pg_reload_conf()");
    }
    let back = false;
    for (let i = 0; i < 20 && !back; i++) back = (await post()).status === 200;
    expect(back, "a write after the server is writable again").to.equal(true);
    await expectAcknowledgedStored();
  });

  it("a role at its connection limit (53300): 503 database_unavailable with Retry-After, then served once a connection frees", async function () {
    // The pool's connections are closed, and the limit is taken by others of the role.
    const url = (t!.database.config as { url: string }).url;
    await admin!.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'app'");
    const others = Array.from({ length: CONNECTION_LIMIT }, () => new pg.Client({ connectionString: url }));
    for (const other of others) await other.connect();
    try {
      await expectRefusal(await post(), 503, "database_unavailable", { headers: { "retry-after": "1" } });
      const ready = await getJson(t!, "/ready");
      expect(ready.status).to.equal(503);
      expect(JSON.stringify(ready.body)).to.match(/too many connections/);
    } finally {
      for (const other of others) await other.end();
    }
    expect((await post()).status).to.equal(200);
    await expectAcknowledgedStored();
  });
});
