import { expect } from "chai";
import { Wallet } from "ethers";
import { EventEmitterNFT__factory } from "../../../typechain-types";
import { usingPostgres } from "../../helpers/database";
import { indexedTo } from "../../helpers/index-check";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";
import { authorizeQuery, registerClient, startLoginApp } from "../auth/helpers";

const PAUSE_MS = 1_000;

/**
 * PostgreSQL with no disk space left refuses every write with SQLSTATE 53100 (disk_full) and goes on reading. The
 * refusal is PostgreSQL's own, raised by a trigger on the table being written (the disk of a test cannot be filled):
 * the service answers 503 database_full with Retry-After instead of a 500, the indexer writes nothing of the range and
 * waits INDEXER_FULL_DISK_PAUSE_MS before it asks the node again, and both carry on once space is back.
 */
describe("a full disk", function () {
  this.timeout(120_000);
  const lines: string[] = [];

  // Ahead of the suite's chain: a before hook that skips leaves the later ones unrun, so no node is started for nothing.
  before(function () {
    // PGlite writes its files from inside this process, with no SQLSTATE of its own for a full disk; CI runs this on PostgreSQL.
    if (!usingPostgres()) this.skip();
  });
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const emitter = await new EventEmitterNFT__factory(await chain.signer(0)).deploy();
    await emitter.waitForDeployment();
    const t = chain.closesWith(
      await startLoginApp(chain.url, {
        env: { INDEXER_POLL_MS: "50", INDEXER_FULL_DISK_PAUSE_MS: String(PAUSE_MS), LOG_LEVEL: "warn" },
        logStream: { write: (line) => void lines.push(line) },
      }),
    );
    const client = await registerClient(t, { name: "Example RP", redirectUris: ["https://rp.example/callback"] });
    await indexedTo(t.app.db, "localhost", chain.provider);
    await t.app.db.exec(
      `CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'could not extend file "base/1/2": No space left on device' USING ERRCODE = 'disk_full'; END $$`,
    );
    return { t, client, emitter };
  });

  const fill = (table: string) =>
    suite().t.app.db.exec(`CREATE TRIGGER disk_full BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION test_disk_full()`);
  const free = (table: string) => suite().t.app.db.exec(`DROP TRIGGER disk_full ON ${table}`);
  const authorize = () => {
    const { t, client } = suite();
    return t.fetch(`/api/authorize?${authorizeQuery(client, Wallet.createRandom().address)}`);
  };

  it("answers a write 503 database_full with Retry-After, serves reads meanwhile, and writes again once space is back", async function () {
    const { t } = suite();
    await fill("login_challenges");
    try {
      await expectRefusal(await authorize(), 503, "database_full", {
        message: "The database has no space left to store this; try again later",
        headers: { "retry-after": "60" },
      });
      const ready = await t.fetch("/ready");
      expect(ready.status).to.equal(200);
    } finally {
      await free("login_challenges");
    }
    const answer = await authorize();
    expect(answer.status).to.equal(200);
    expect(((await answer.json()) as { message: string }).message).to.be.a("string");
  });

  it("writes nothing of a range the disk refuses, pauses before trying it again, and indexes it once space is back", async function () {
    const { t, chain, emitter } = suite();
    const to = (await chain.signer(1)).address.toLowerCase();
    await fill("nft_transfers");
    const logged = lines.length;
    let block: number;
    try {
      for (let id = 0; id < 3; id++) await (await emitter.transfer721("0x0000000000000000000000000000000000000000", to, id)).wait();
      block = await chain.provider.getBlockNumber();
      // Long enough for the indexer to meet the refusal and try once more after its pause, not for more tries.
      await new Promise((resolve) => setTimeout(resolve, 2.5 * PAUSE_MS));
      const refusals = lines
        .slice(logged)
        .map((line) => JSON.parse(line) as { msg: string; pauseMs?: number; err?: { code?: string } })
        .filter((entry) => entry.msg.startsWith("indexer: the database has no disk space left"));
      expect(refusals.length).to.be.within(2, 3);
      expect(refusals[0]).to.deep.include({ pauseMs: PAUSE_MS });
      expect(refusals[0].err?.code).to.equal("database_full");
      const { rows } = await t.app.db.query<{ transfers: number; owners: number; cursor: string }>(
        `SELECT (SELECT count(*)::int FROM nft_transfers) AS transfers, (SELECT count(*)::int FROM nft_owners) AS owners,
           (SELECT block_number::text FROM indexer_cursors WHERE network = 'localhost') AS cursor`,
      );
      expect(rows[0].transfers).to.equal(0);
      expect(rows[0].owners).to.equal(0);
      expect(Number(rows[0].cursor)).to.be.below(block - 2);
    } finally {
      await free("nft_transfers");
    }
    await indexedTo(t.app.db, "localhost", chain.provider, block, 10 * PAUSE_MS);
    const contract = await emitter.getAddress();
    const inventory = await t.fetch(`/inventory/localhost/${to}/${contract}`);
    expect(inventory.status).to.equal(200);
    expect(((await inventory.json()) as Array<{ id: number }>).map((token) => token.id)).to.deep.equal([0, 1, 2]);
  });
});
