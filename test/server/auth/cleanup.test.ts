import { expect } from "chai";
import { deleteClientPayloads } from "../../../server/auth/oidc";
import { deleteStaleChallenges, saveChallenge } from "../../../server/auth/challenges";
import { addClient, removeClient } from "../../../server/auth/clients";
import { KEPT_PAST_EXPIRY_MS, LoginSweeper } from "../../../server/auth/sweep";
import type { Database } from "../../../server/db/database";
import { TestClock } from "../../helpers/app";
import { openMigratedTestDatabase, type TestDatabase } from "../../helpers/database";
import { challengeFields } from "./helpers";

/** Rows nobody will use again go with the module that owns their table. */
describe("deleting login rows of no further use", function () {
  let database: TestDatabase;
  let db: Database;

  before(async function () {
    ({ database, db } = await openMigratedTestDatabase());
  });
  after(async () => database?.drop());

  async function challenge(clientId: string, requester: string, expiresAt: Date) {
    const challenge = challengeFields(requester, { clientId, message: requester });
    expect(await saveChallenge(db, challenge, expiresAt, 100)).to.equal(true);
  }

  const HOUR = 3600_000;

  it("deleteStaleChallenges deletes the challenges of every requester that expired before the time given, at most as many as asked", async function () {
    const { client } = await addClient(db, { name: "RP", redirectUris: ["https://rp.example/cb"], public: false });
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR);
    await challenge(client.id, "stale-1", hoursAgo(25));
    await challenge(client.id, "stale-2", hoursAgo(48));
    await challenge(client.id, "expired-recently", hoursAgo(23));
    await challenge(client.id, "open", new Date(Date.now() + 300_000));
    const requesters = async () =>
      (
        await db.query<{ requester: string }>("SELECT requester FROM login_challenges WHERE client_id = $1 ORDER BY requester", [client.id])
      ).rows.map((row) => row.requester);
    expect(await deleteStaleChallenges(db, hoursAgo(24), 1)).to.equal(1);
    expect(await requesters()).to.have.length(3);
    expect(await deleteStaleChallenges(db, hoursAgo(24), 10)).to.equal(1);
    expect(await requesters()).to.deep.equal(["expired-recently", "open"]);
    await db.query("DELETE FROM login_challenges WHERE client_id = $1", [client.id]);
  });

  describe("the sweeper (server/auth/sweep.ts)", function () {
    /** Rows whose expiry is `hours` from now on `clock`: `n` challenges and `n` oidc-provider records. */
    async function rowsExpiring(clock: TestClock, clientId: string, tag: string, hours: number, n: number) {
      const at = new Date(clock.now() + hours * HOUR);
      for (let i = 0; i < n; i++) {
        await challenge(clientId, `${tag}-${i}`, at);
        await db.query("INSERT INTO oidc_payloads (kind, id, payload, expires_at) VALUES ('AccessToken', $1, '{}', $2)", [
          `${tag}-${i}`,
          at,
        ]);
      }
    }
    const left = async (tag: string) => {
      const { rows } = await db.query<{ challenges: string; payloads: string }>(
        `SELECT (SELECT count(*) FROM login_challenges WHERE requester LIKE $1) AS challenges,
                (SELECT count(*) FROM oidc_payloads WHERE id LIKE $1) AS payloads`,
        [`${tag}-%`],
      );
      return { challenges: Number(rows[0].challenges), payloads: Number(rows[0].payloads) };
    };

    it("deletes what expired over a day ago on its clock, at most `rows` of each table a pass, and nothing younger", async function () {
      const clock = new TestClock();
      const { client } = await addClient(db, { name: "Swept", redirectUris: ["https://rp.example/cb"], public: false });
      await rowsExpiring(clock, client.id, "old", -1, 5);
      await rowsExpiring(clock, client.id, "young", 1, 2);
      const sweeper = new LoginSweeper(db, { intervalMs: 60_000, rows: 3, clock: clock.now }, (error) => expect.fail(String(error)));

      // Expired an hour ago: kept a day past its expiry.
      expect(await sweeper.pass()).to.deep.equal({ challenges: 0, payloads: 0 });
      clock.advance(KEPT_PAST_EXPIRY_MS);
      expect(await sweeper.pass()).to.deep.equal({ challenges: 3, payloads: 3 });
      expect(await left("old")).to.deep.equal({ challenges: 2, payloads: 2 });
      expect(await sweeper.pass()).to.deep.equal({ challenges: 2, payloads: 2 });
      expect(await left("old")).to.deep.equal({ challenges: 0, payloads: 0 });
      expect(await left("young")).to.deep.equal({ challenges: 2, payloads: 2 });
      // Once they too expired over a day ago on that clock.
      clock.advance(2 * HOUR);
      expect(await sweeper.pass()).to.deep.equal({ challenges: 2, payloads: 2 });
      expect(await left("young")).to.deep.equal({ challenges: 0, payloads: 0 });
    });

    it("runs a pass every interval once started, and none once stopped", async function () {
      const clock = new TestClock();
      const { client } = await addClient(db, { name: "Timed", redirectUris: ["https://rp.example/cb"], public: false });
      await rowsExpiring(clock, client.id, "timed", -25, 2);
      const sweeper = new LoginSweeper(db, { intervalMs: 20, rows: 1, clock: clock.now }, (error) => expect.fail(String(error)));
      sweeper.start();
      try {
        const deadline = Date.now() + 5_000;
        while ((await left("timed")).payloads > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        await sweeper.stop();
      }
      expect(await left("timed")).to.deep.equal({ challenges: 0, payloads: 0 });
      await rowsExpiring(clock, client.id, "after-stop", -25, 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await left("after-stop")).to.deep.equal({ challenges: 1, payloads: 1 });
    });
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
