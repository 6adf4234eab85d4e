import { expect } from "chai";
import { sharedNode } from "../../helpers/chain";
import { createTestDatabase, usingPostgres, type TestDatabase } from "../../helpers/database";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy";
import { startTestApp, type TestApp } from "../../helpers/app";
import { expectRefusal } from "../../helpers/refusal";

describe("health and readiness", function () {
  let rpcProxy: TcpProxy;
  let dbProxy: TcpProxy | undefined;
  let testDb: TestDatabase;
  let t: TestApp;

  before(async function () {
    const node = await sharedNode();
    const nodeUrl = new URL(node.url);
    rpcProxy = await startTcpProxy(nodeUrl.hostname, Number(nodeUrl.port));
    testDb = await createTestDatabase();
    let database = testDb;
    if (testDb.config.kind === "postgres") {
      // The app reaches PostgreSQL through a proxy the test can cut.
      const target = new URL(testDb.config.url);
      dbProxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      const proxied = { kind: "postgres" as const, url: dbProxy.url(testDb.config.url) };
      database = { ...testDb, config: proxied, appOptions: async () => ({ database: proxied }) };
    }
    t = await startTestApp({ database, env: { RPC_URL_LOCALHOST: rpcProxy.url(node.url), RPC_TIMEOUT_MS: "1000" } });
  });
  after(async function () {
    await t?.close();
    await testDb?.drop();
    await rpcProxy?.close();
    await dbProxy?.close();
  });

  async function ready() {
    const response = await t.fetch(`/ready`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  }

  /**
   * /ready answers 200 again by itself once what was cut is back. Its first check after the outage may still fail
   * under the load of the whole suite (the node is shared with the other tests and RPC_TIMEOUT_MS is 1 s here), so it
   * is asked until it recovers, for a few seconds; one that stays 503 fails with its last answer.
   */
  async function readyAgain() {
    const deadline = Date.now() + 10_000;
    let answer = await ready();
    while (answer.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      answer = await ready();
    }
    expect(answer, JSON.stringify(answer.body)).to.deep.include({
      status: 200,
      body: { status: "ready", checks: { database: "ok", networks: { localhost: "ok" } } },
    });
  }

  it("/health answers while the process is up", async function () {
    const response = await t.fetch(`/health`);
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ status: "ok" });
  });

  it("/ready is 200 when the database and every configured network answer", async function () {
    expect(await ready()).to.deep.include({
      status: 200,
      body: { status: "ready", checks: { database: "ok", networks: { localhost: "ok" } } },
    });
  });

  it("/ready is 503 naming the network while its node is cut, and 200 again once it is back", async function () {
    rpcProxy.cut();
    const down = await ready();
    await expectRefusal(down, 503, "not_ready", { extraKeys: ["checks"] });
    expect(down.body.checks.database).to.equal("ok");
    expect(down.body.checks.networks.localhost).to.not.equal("ok");
    expect(down.body.message).to.match(/^network localhost: /);
    rpcProxy.restore();
    await readyAgain();
  });

  it("/ready is 503 naming the database while PostgreSQL is cut, and 200 again once it is back", async function () {
    if (!usingPostgres()) {
      // An embedded PGlite lives in this process: there is no connection to cut. CI runs this on PostgreSQL.
      this.skip();
    }
    dbProxy!.cut();
    const down = await ready();
    await expectRefusal(down, 503, "not_ready", { extraKeys: ["checks"] });
    expect(down.body.checks.database).to.not.equal("ok");
    expect(down.body.checks.networks.localhost).to.equal("ok");
    expect(down.body.message).to.match(/^database: /);
    dbProxy!.restore();
    await readyAgain();
  });
});
