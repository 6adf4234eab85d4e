import { expect } from "chai";
import { saveChallenge } from "../../../server/auth/challenges";
import { addClient } from "../../../server/auth/clients";
import type { Connection, Database } from "../../../server/db/database";
import { migrate } from "../../../server/db/migrate";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

describe("saveChallenge", function () {
  let database: TestDatabase;
  let db: Database;
  let clientId: string;

  before(async function () {
    database = await createTestDatabase();
    db = await database.open();
    await migrate(db);
    ({
      client: { id: clientId },
    } = await addClient(db, { name: "RP", redirectUris: ["https://rp.example/cb"], public: false }));
  });
  after(async () => database?.drop());

  const challenge = (requester: string) => ({
    address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    clientId,
    redirectUri: "https://rp.example/cb",
    scope: "openid",
    state: null,
    nonce: null,
    codeChallenge: null,
    codeChallengeMethod: null,
    network: "localhost",
    message: `a message for ${requester}`,
    format: "text" as const,
    requester,
  });
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
