import { expect } from "chai";
import { fetchJson } from "../../helpers/app";
import type { TestApp } from "../../helpers/app";
import { startDrillApp } from "../../helpers/drill-app";
import type { MetadataPosts } from "../../helpers/metadata-posts";
import { postgresServerBinariesOrSkip, PostgresServers, type PostgresServer } from "../../helpers/postgres-servers";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy";

/**
 * A failover at one address: the service's DATABASE_URL names an address (a TCP proxy the test controls, as a DNS
 * name or a virtual IP would be) that moves from the primary to its streaming replica, first while the replica is
 * still a standby (writes refused read-only, 25006), then once it is promoted. Every answer is a success or a
 * documented 503 with Retry-After, the instance serves the new primary without a restart, and every post acknowledged
 * by the old primary is on the new one.
 */
describe("drill: the primary replaced by a promoted replica at the same address", function () {
  this.timeout(120_000);
  let servers: PostgresServers | undefined;
  let primary: PostgresServer;
  let replica: PostgresServer;
  let address: TcpProxy | undefined;
  let t: TestApp | undefined;
  let posts: MetadataPosts;

  before(async function () {
    servers = PostgresServers.create(postgresServerBinariesOrSkip(this));
    ({ primary, replica } = await servers.primaryAndReplica());
    address = await startTcpProxy("127.0.0.1", primary.port);
    const url = address.url(primary.url);
    ({ t, posts } = await startDrillApp(url));
  });
  after(async function () {
    await t?.close();
    await address?.close();
    await servers?.close();
  });

  const answers: Array<{ phase: string; status: number; error?: string; retryAfter: string | null }> = [];
  async function postIn(phase: string) {
    const response = await posts.post();
    const body = (await response.json()) as { error?: string };
    answers.push({ phase, status: response.status, error: body.error, retryAfter: response.headers.get("retry-after") });
    return response.status;
  }

  it("answers 503 while the address has no writable server, then writes to the new primary without a restart", async function () {
    for (let i = 0; i < 5; i++) expect(await postIn("primary")).to.equal(200);

    // The old primary goes (a fast stop streams its last WAL to the replica), and the address moves to the standby.
    await primary.stop();
    address!.cut();
    address!.retarget(replica.port);
    address!.restore();
    for (let i = 0; i < 5; i++) await postIn("standby");
    expect(
      answers.filter((a) => a.phase === "standby" && a.status === 200),
      "writes taken by a standby",
    ).to.deep.equal([]);
    // Reads go on from the standby.
    expect((await t!.fetch(`/metadata/localhost/${posts.contract}/1`)).status).to.equal(200);

    await servers!.promote(replica);
    let written = false;
    for (let i = 0; i < 20 && !written; i++) written = (await postIn("promoted")) === 200;
    expect(written, "a write on the promoted replica").to.equal(true);
    expect((await fetchJson(t!, "/ready")).status).to.equal(200);

    const undocumented = answers.filter(
      (a) => a.status !== 200 && !(a.status === 503 && a.error === "database_unavailable" && a.retryAfter === "1"),
    );
    expect(undocumented, "answers other than a success or a documented 503").to.deep.equal([]);
    await posts.expectAcknowledgedStored();
  });
});
