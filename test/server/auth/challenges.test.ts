import { expect } from "chai";
import { RecentChallenges, saveChallenge, type Challenge } from "../../../server/auth/challenges";
import { addClient } from "../../../server/auth/clients";
import type { Connection, Database } from "../../../server/db/database";
import { TestClock } from "../../helpers/app";
import { openMigratedTestDatabase, type TestDatabase } from "../../helpers/database";
import { challengeFields } from "./helpers";

describe("saveChallenge", function () {
  let database: TestDatabase;
  let db: Database;
  let clientId: string;

  before(async function () {
    ({ database, db } = await openMigratedTestDatabase());
    ({
      client: { id: clientId },
    } = await addClient(db, { name: "RP", redirectUris: ["https://rp.example/cb"], public: false }));
  });
  after(async () => database?.drop());

  const challenge = (requester: string) => challengeFields(requester, { clientId });
  const inFiveMinutes = () => new Date(Date.now() + 300_000);
  const synchronousCommit = async (on: Connection) =>
    (await on.query<{ setting: string }>("SELECT current_setting('synchronous_commit') AS setting")).rows[0].setting;

  it("commits without waiting for the disk, and leaves the connection's later statements waiting as before", async function () {
    const connection = await db.connect();
    try {
      expect(await synchronousCommit(connection)).to.equal("on");
      // In a transaction of the test's, to see the setting the save's own commit runs with.
      await connection.query("BEGIN");
      expect(await saveChallenge(connection, challenge("async-commit"), inFiveMinutes(), 100)).to.equal(true);
      expect(await synchronousCommit(connection)).to.equal("off");
      await connection.query("COMMIT");
      // What the pool's next user of this connection runs (e.g. redeeming a challenge) waits for the disk again.
      expect(await synchronousCommit(connection)).to.equal("on");
      // And on its own, as the service calls it: the setting ends with the save's transaction.
      expect(await saveChallenge(connection, challenge("async-commit"), inFiveMinutes(), 100)).to.equal(true);
      expect(await synchronousCommit(connection)).to.equal("on");
    } finally {
      connection.release();
    }
    const { rows } = await db.query("SELECT 1 FROM login_challenges WHERE requester = 'async-commit'");
    expect(rows).to.have.length(2);
  });
});

describe("RecentChallenges", function () {
  const challenge = (id: string, over: Partial<Challenge> = {}): Challenge => ({
    id,
    ...challengeFields("192.0.2.1", { message: `message ${id}` }),
    ...over,
  });
  /** The app's clock, which a challenge's expiry is computed in and compared with. */
  const clock = new TestClock();
  const soon = () => new Date(clock.now() + 60_000);
  const where = { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", clientId: "rp", requester: "192.0.2.1" };

  it("finds the newest challenge saved for a requester, address and client, until it expires on the app's clock", function () {
    const recent = new RecentChallenges(clock.now);
    recent.remember(challenge("c1"), soon());
    recent.remember(challenge("c2"), soon());
    recent.remember(challenge("other-client", { clientId: "other" }), soon());
    recent.remember(challenge("other-requester", { requester: "192.0.2.2" }), soon());
    expect(recent.find(where)?.id).to.equal("c2");
    expect(recent.find({ ...where, clientId: "other" })?.id).to.equal("other-client");
    expect(recent.find({ ...where, requester: "192.0.2.3" })).to.equal(undefined);
    recent.remember(challenge("expires"), soon());
    expect(recent.find(where)?.id).to.equal("expires");
    clock.advance(60_000);
    expect(recent.find(where)).to.equal(undefined);
  });

  it("applies the filters of openChallenges: the redirect_uri and the message, when given", function () {
    const recent = new RecentChallenges(clock.now);
    recent.remember(challenge("c1"), soon());
    expect(recent.find({ ...where, message: "message c1", redirectUri: "https://rp.example/cb" })?.id).to.equal("c1");
    expect(recent.find({ ...where, message: "message c0" })).to.equal(undefined);
    expect(recent.find({ ...where, redirectUri: "https://rp.example/other" })).to.equal(undefined);
  });

  it("forgets a challenge once it is redeemed or found used, and only that one", function () {
    const recent = new RecentChallenges(clock.now);
    recent.remember(challenge("c1"), soon());
    recent.remember(challenge("c2"), soon());
    recent.forget(challenge("c1"));
    expect(recent.find(where)?.id).to.equal("c2");
    recent.forget(challenge("c2"));
    expect(recent.find(where)).to.equal(undefined);
  });

  it(`forgets the address, client and requester saved for longest ago beyond ${RecentChallenges.MAX}`, function () {
    const recent = new RecentChallenges(clock.now);
    for (let i = 0; i <= RecentChallenges.MAX; i++) recent.remember(challenge(`c${i}`, { requester: `r${i}` }), soon());
    expect(recent.find({ ...where, requester: "r0" })).to.equal(undefined);
    expect(recent.find({ ...where, requester: "r1" })?.id).to.equal("c1");
  });
});
