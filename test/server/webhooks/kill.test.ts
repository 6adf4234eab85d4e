import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { Wallet } from "ethers";
import { openDatabase, openMigratedDatabase, type Database } from "../../../server/db/database";
import { subscribe } from "../../../server/webhooks/subscribe";
import { startNodeProcess, type RunningProcess } from "../../helpers/cli";
import { createTestDatabase, openFreshPglite, usingPostgres, type TestDatabase } from "../../helpers/database";
import { testConfig } from "../../helpers/app";
import { SuiteChain } from "../../helpers/suite-chain";
import { startReceiver, WEBHOOKS_ENV, type Receiver } from "../../helpers/webhook-receiver";

const LOADER = ["-r", "ts-node/register/transpile-only"];

describe("webhooks: the delivering process killed mid-request", function () {
  this.timeout(180_000);
  let chain: SuiteChain;
  let root: string;
  let database: TestDatabase | undefined;
  let receiver: Receiver;
  const services: RunningProcess[] = [];

  before(async function () {
    chain = await SuiteChain.ownNode();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "webhooks-kill-"));
  });
  after(async function () {
    for (const service of services) if (service.child.exitCode === null) service.child.kill("SIGKILL");
    await Promise.all(services.map((service) => service.exited));
    await receiver?.close();
    await database?.drop();
    fs.rmSync(root, { recursive: true, force: true });
    await chain?.close();
  });

  /** The service as its own process, on PostgreSQL when the suites run on it, else on PGlite under `root`. */
  const serviceEnv = () => ({
    ...WEBHOOKS_ENV,
    LOCAL_CHAIN: "false",
    RPC_URL_LOCALHOST: chain.url,
    PORT: "0",
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
    DATA_DIR: root,
    DATABASE_URL: database ? (database.config as { url: string }).url : "",
  });

  it("delivers every change afterwards, in order, the interrupted one again under the same webhook-id", async function () {
    let db: Database;
    if (usingPostgres()) {
      database = await createTestDatabase();
      ({ db } = await openMigratedDatabase(database.config));
    } else {
      await (await openFreshPglite(path.join(root, "pglite"))).close();
      db = await openDatabase({ kind: "pglite", dataDir: path.join(root, "pglite") });
    }
    // The first delivery is never answered: the process is killed while it waits.
    receiver = await startReceiver((_, count) => (count === 1 ? "hang" : { status: 200 }));
    const owner = Wallet.createRandom().address;
    const config = testConfig(serviceEnv());
    const { secret } = await subscribe(db, {
      input: { network: "localhost", url: receiver.url, owners: [owner] },
      clientId: null,
      config: config.webhooks,
      served: ["localhost"],
      now: Date.now(),
    });
    await db.close();

    const first = await startNodeProcess([...LOADER, "server/main.ts"], serviceEnv(), /Server listening at/);
    services.push(first);
    const alice = await chain.deployAlice();
    const txs: string[] = [];
    for (const id of [1n, 2n, 3n]) txs.push((await (await alice.mint(owner, id)).wait())!.hash);
    await receiver.until((r) => r.length === 1, "the first delivery, left unanswered");
    first.child.kill("SIGKILL");
    await first.exited;

    const second = await startNodeProcess([...LOADER, "server/main.ts"], serviceEnv(), /Server listening at/);
    services.push(second);
    // Once the dead instance's lease runs out (twice WEBHOOKS_TIMEOUT_MS), the second resumes at the cursor.
    await receiver.until((r) => r.filter((d) => typeof d.answer === "object").length === 3, "every delivery", 60_000);
    const deliveries = receiver.verified(secret, Date.now);
    expect(deliveries.map((d) => d.data.tx)).to.deep.equal(txs);
    expect(receiver.received[0].id).to.equal(receiver.received[1].id);
    expect(receiver.received.map((r) => r.id)).to.deep.equal([deliveries[0].id, ...deliveries.map((d) => d.id)]);
  });

  it("an instance running beside the killed one takes its subscription over once the lease runs out, not before", async function () {
    // PGlite is held by one process: two instances at once need PostgreSQL.
    if (!usingPostgres()) {
      console.log("    skipped: two instances at once need PostgreSQL (set DATABASE_URL)");
      this.skip();
    }
    const shared = await createTestDatabase();
    const { db } = await openMigratedDatabase(shared.config);
    const hook = await startReceiver((_, count) => (count === 1 ? "hang" : { status: 200 }));
    try {
      // The instance is killed within this deadline: the lease is twice it.
      const env = { ...serviceEnv(), DATABASE_URL: (shared.config as { url: string }).url, WEBHOOKS_TIMEOUT_MS: "5000" };
      const owner = Wallet.createRandom().address;
      const { subscription, secret } = await subscribe(db, {
        input: { network: "localhost", url: hook.url, owners: [owner] },
        clientId: null,
        config: testConfig(env).webhooks,
        served: ["localhost"],
        now: Date.now(),
      });
      const pair = [
        await startNodeProcess([...LOADER, "server/main.ts"], env, /Server listening at/),
        await startNodeProcess([...LOADER, "server/main.ts"], env, /Server listening at/),
      ];
      services.push(...pair);
      const alice = await chain.deployAlice();
      const txs = [(await (await alice.mint(owner, 1n)).wait())!.hash];
      await hook.until((r) => r.length === 1, "the first delivery, left unanswered");
      // The instance that sent it, by the connection's port, is killed while it waits for the answer.
      const sender = pair.find((p) => holdsPort(p.child.pid!, hook.received[0].remotePort));
      expect(sender, "the sending instance").to.not.equal(undefined);
      const { rows } = await db.query<{ lease_until: Date; attempts: number }>(
        "SELECT lease_until, attempts FROM webhook_subscriptions WHERE id = $1",
        [subscription.id],
      );
      expect(rows[0].attempts).to.equal(0);
      const leaseEnds = rows[0].lease_until.getTime();
      sender!.child.kill("SIGKILL");
      await sender!.exited;
      await hook.until((r) => r.length === 2, "the interrupted delivery again", 60_000);
      const resumed = Date.now();
      // Not before the lease ran out; after it, within one look for due work (every second), with room for a loaded machine.
      expect(resumed).to.be.at.least(leaseEnds - 50);
      expect(resumed - leaseEnds).to.be.below(1_000 + 5_000);
      expect(holdsPort(sender!.child.pid!, hook.received[1].remotePort)).to.equal(false);
      for (const id of [2n, 3n]) txs.push((await (await alice.mint(owner, id)).wait())!.hash);
      await hook.until((r) => r.length === 4, "every delivery", 60_000);
      expect(hook.verified(secret, Date.now).map((d) => d.data.tx)).to.deep.equal(txs);
      expect(hook.received[0].id).to.equal(hook.received[1].id);
    } finally {
      await hook.close();
      await db.close();
      for (const service of services) if (service.child.exitCode === null) service.child.kill("SIGKILL");
      await Promise.all(services.map((service) => service.exited));
      await shared.drop();
    }
  });
});

/** Whether process `pid` holds a TCP socket whose local port is `port` (read from Linux's /proc). */
function holdsPort(pid: number, port: number): boolean {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && parseInt(fields[1].split(":").at(-1)!, 16) === port) inodes.add(`socket:[${fields[9]}]`);
    }
  }
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return inodes.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      return false;
    }
  });
}
