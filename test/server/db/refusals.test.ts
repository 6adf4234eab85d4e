import { expect } from "chai";
import { fetchJson } from "../../helpers/app";
import pg from "pg";
import type { TestApp } from "../../helpers/app";
import { postgresServerBinariesOrSkip, startPostgresServer, type PostgresServer } from "../../helpers/postgres-server";
import { startDrillApp } from "../../helpers/drill-app";
import type { MetadataPosts } from "../../helpers/metadata-posts";
import { expectRefusal } from "../../helpers/refusal";

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
  let posts: MetadataPosts;

  before(async function () {
    server = await startPostgresServer(postgresServerBinariesOrSkip(this));
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    // A role of its own, not a superuser: PostgreSQL does not hold superusers to a connection limit.
    await admin.query(`CREATE ROLE app LOGIN CONNECTION LIMIT ${CONNECTION_LIMIT}`);
    await admin.query("CREATE DATABASE app OWNER app");
    const url = server.url.replace("postgres://postgres@", "postgres://app@").replace(/\/postgres$/, "/app");
    ({ t, posts } = await startDrillApp(url));
  });
  after(async function () {
    await t?.close();
    await admin?.end();
    await server?.remove();
  });

  it("a server that became read-only (25006, the old primary after a failover): 503 database_unavailable, reads go on, then writes again", async function () {
    expect((await posts.post()).status).to.equal(200);
    await admin!.query("ALTER SYSTEM SET default_transaction_read_only = on");
    await admin!.query("SELECT pg_reload_conf()");
    try {
      // The configuration reaches every session at its next statement; until then a write may still pass.
      let refused: Response | undefined;
      for (let i = 0; i < 20 && !refused; i++) {
        const response = await posts.post();
        if (response.status !== 200) refused = response;
      }
      await expectRefusal(refused!, 503, "database_unavailable", { headers: { "retry-after": "1" } });
      await expectRefusal(await posts.post(), 503, "database_unavailable", { headers: { "retry-after": "1" } });
      // Reads need no write: a post nobody made is still a 404.
      await expectRefusal(await t!.fetch(`/metadata/localhost/${posts.contract}/999999`), 404, "not_found");
    } finally {
      await admin!.query("ALTER SYSTEM RESET default_transaction_read_only");
      await admin!.query("SELECT pg_reload_conf()");
    }
    let back = false;
    for (let i = 0; i < 20 && !back; i++) back = (await posts.post()).status === 200;
    expect(back, "a write after the server is writable again").to.equal(true);
    await posts.expectAcknowledgedStored();
  });

  it("a role at its connection limit (53300): 503 database_unavailable with Retry-After, then served once a connection frees", async function () {
    // The pool's connections are closed, and the limit is taken by others of the role.
    const url = (t!.database.config as { url: string }).url;
    await admin!.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'app'");
    const others = Array.from({ length: CONNECTION_LIMIT }, () => new pg.Client({ connectionString: url }));
    for (const other of others) await other.connect();
    try {
      await expectRefusal(await posts.post(), 503, "database_unavailable", { headers: { "retry-after": "1" } });
      const ready = await fetchJson(t!, "/ready");
      expect(ready.status).to.equal(503);
      expect(JSON.stringify(ready.body)).to.match(/too many connections/);
    } finally {
      for (const other of others) await other.end();
    }
    expect((await posts.post()).status).to.equal(200);
    await posts.expectAcknowledgedStored();
  });
});
