import { expect } from "chai";
import { deleteClientPayloads } from "../../../server/auth/oidc";
import { deleteStaleChallenges, saveChallenge } from "../../../server/auth/challenges";
import { addClient, removeClient } from "../../../server/auth/clients";
import type { Database } from "../../../server/db/database";
import { migrate } from "../../../server/db/migrate";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { challengeFields } from "./helpers";

/** Rows nobody will use again go with the module that owns their table. */
describe("deleting login rows of no further use", function () {
  let database: TestDatabase;
  let db: Database;

  before(async function () {
    database = await createTestDatabase();
    db = await database.open();
    await migrate(db);
  });
  after(async () => database?.drop());

  async function challenge(clientId: string, requester: string, expiresAt: Date) {
    const challenge = challengeFields(requester, { clientId, message: requester });
    expect(await saveChallenge(db, challenge, expiresAt, 100)).to.equal(true);
  }

  it("deleteStaleChallenges deletes the challenges of every requester that expired over a day ago, and no other", async function () {
    const { client } = await addClient(db, { name: "RP", redirectUris: ["https://rp.example/cb"], public: false });
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
    await challenge(client.id, "stale-1", hoursAgo(25));
    await challenge(client.id, "stale-2", hoursAgo(48));
    await challenge(client.id, "expired-recently", hoursAgo(23));
    await challenge(client.id, "open", new Date(Date.now() + 300_000));
    await deleteStaleChallenges(db);
    const { rows } = await db.query<{ requester: string }>(
      "SELECT requester FROM login_challenges WHERE client_id = $1 ORDER BY requester",
      [client.id],
    );
    expect(rows.map((row) => row.requester)).to.deep.equal(["expired-recently", "open"]);
  });

  it("deleteClientPayloads deletes a client's codes, grants and tokens, not another client's", async function () {
    const { client: doomed } = await addClient(db, { name: "Doomed", redirectUris: ["https://rp.example/cb"], public: false });
    const { client: kept } = await addClient(db, { name: "Kept", redirectUris: ["https://rp.example/cb"], public: false });
    const store = (kind: string, id: string, clientId: string) =>
      db.query("INSERT INTO oidc_payloads (kind, id, payload) VALUES ($1, $2, $3)", [kind, id, JSON.stringify({ clientId })]);
    for (const [kind, id] of [
      ["Grant", "g"],
      ["AuthorizationCode", "c"],
      ["RefreshToken", "r"],
    ]) {
      await store(kind, `${id}-doomed`, doomed.id);
      await store(kind, `${id}-kept`, kept.id);
    }
    await deleteClientPayloads(db, doomed.id);
    const ids = async () => (await db.query<{ id: string }>("SELECT id FROM oidc_payloads ORDER BY id")).rows.map((row) => row.id);
    expect(await ids()).to.deep.equal(["c-kept", "g-kept", "r-kept"]);
    await deleteClientPayloads(db, kept.id);
    expect(await ids()).to.deep.equal([]);
  });

  it("removeClient deletes the client's row and says whether there was one", async function () {
    const { client } = await addClient(db, { name: "Gone", redirectUris: ["https://rp.example/cb"], public: false });
    expect(await removeClient(db, client.id)).to.equal(true);
    expect(await removeClient(db, client.id)).to.equal(false);
    const { rows } = await db.query("SELECT 1 FROM login_clients WHERE id = $1", [client.id]);
    expect(rows).to.have.length(0);
  });
});
