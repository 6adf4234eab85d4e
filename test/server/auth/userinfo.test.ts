import { expect } from "chai";
import { Wallet } from "ethers";
import { fetchJson, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import type { TestSigner, TestSignerKind } from "../../helpers/signers";
import {
  authorizeQuery,
  deploySigners,
  exchangeCode,
  postJson,
  registerClient,
  signedLogin,
  startLoginApp,
  type RegisteredClient,
} from "./helpers";
import { expectRefusal } from "../../helpers/refusal";

describe("userinfo (/userinfo and /api/userinfo) and the login history", function () {
  let nodeUrl: string;
  let signers: Record<TestSignerKind, TestSigner>;

  before(async function () {
    nodeUrl = (await sharedNode()).url;
    signers = await deploySigners(nodeUrl);
  });

  type Signer = { address: string; sign(message: string): Promise<string> };
  const eoa = (wallet = Wallet.createRandom()): Signer => ({ address: wallet.address, sign: (m) => wallet.signMessage(m) });

  /** A login through the JSON API and the code exchange; returns the access token. */
  async function login(app: TestApp, client: RegisteredClient, signer: Signer, network = "localhost"): Promise<string> {
    const answer = await signedLogin(app, client, { address: signer.address, signMessage: (message) => signer.sign(message) }, { network });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const token = await exchangeCode(app, client, answer.body.code);
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    return token.body.access_token;
  }
  const userinfo = (app: TestApp, path: string, headers: Record<string, string>) => fetchJson(app, path, { headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const now = () => Math.floor(Date.now() / 1000);

  describe("one instance", function () {
    let t: TestApp;
    let a: RegisteredClient;
    let b: RegisteredClient;

    before(async function () {
      t = await startLoginApp(nodeUrl);
      a = await registerClient(t, { name: "Client A" });
      b = await registerClient(t, { name: "Client B" });
    });
    after(async () => t?.close());

    it("answers the same on both paths: sub, checksummed address, since, first_service and services", async function () {
      const wallet = eoa();
      const start = now();
      const token = await login(t, a, wallet);
      const standard = await userinfo(t, "/userinfo", bearer(token));
      const predecessor = await userinfo(t, "/api/userinfo", bearer(token));
      expect(standard.status).to.equal(200);
      expect(predecessor).to.deep.include({ status: 200, body: standard.body });
      expect(standard.body).to.deep.equal({
        sub: wallet.address.toLowerCase(),
        address: wallet.address,
        since: standard.body.since,
        first_service: a.id,
        services: { [a.id]: standard.body.since },
      });
      expect(standard.body.since).to.be.within(start, now());
    });

    it("keeps the first login to each client: a later login to another client adds it, a second one to the first changes nothing but the last login", async function () {
      const wallet = eoa();
      await login(t, a, wallet);
      const firstToken = await login(t, a, wallet);
      // The history counts in seconds: the logins to a are moved two seconds back rather than waited for.
      await t.app.db.query(
        "UPDATE login_history SET first_at = first_at - interval '2 seconds', last_at = last_at - interval '2 seconds' WHERE account = $1",
        [wallet.address.toLowerCase()],
      );
      const first = (await userinfo(t, "/api/userinfo", bearer(firstToken))).body;
      const token = await login(t, b, wallet);
      await login(t, a, wallet);
      const after = (await userinfo(t, "/api/userinfo", bearer(token))).body;
      expect(after.first_service).to.equal(a.id);
      expect(after.since).to.equal(first.since);
      expect(after.services[a.id]).to.equal(first.since);
      expect(after.services[b.id]).to.be.above(first.since);
      const { rows } = await t.app.db.query<{ client_id: string; logins: string; first_at: Date; last_at: Date }>(
        "SELECT client_id, logins::text, first_at, last_at FROM login_history WHERE account = $1 ORDER BY first_at",
        [wallet.address.toLowerCase()],
      );
      expect(rows.map((row) => [row.client_id, row.logins])).to.deep.equal([
        [a.id, "3"],
        [b.id, "1"],
      ]);
      expect(rows[0].last_at.getTime()).to.be.above(rows[0].first_at.getTime());
    });

    it("keeps contract wallets' history under their chain-qualified sub", async function () {
      const token = await login(t, a, signers.single);
      const { body } = await userinfo(t, "/api/userinfo", bearer(token));
      expect(body.sub).to.equal(`eip155:31337:${signers.single.address.toLowerCase()}`);
      expect(body.address).to.equal(signers.single.address);
      expect(body.services).to.have.keys(a.id);
    });

    it("does not record a refused login", async function () {
      const wallet = eoa();
      const query = authorizeQuery(a, wallet.address);
      const { body } = await fetchJson(t, `/api/authorize?${query}`);
      const refused = await postJson(t, `/api/login`, {
        address: wallet.address,
        signature: await Wallet.createRandom().signMessage(body.message),
        client_id: a.id,
      });
      await expectRefusal(refused, 401, "invalid_signature");
      const { rows } = await t.app.db.query("SELECT 1 FROM login_history WHERE account = $1", [wallet.address.toLowerCase()]);
      expect(rows).to.have.length(0);
    });

    it("refuses a missing, unknown, revoked or malformed token with 401 (RFC 6750) and another scheme with 400, with WWW-Authenticate, on both paths", async function () {
      const token = await login(t, a, eoa());
      // RFC 7009 answers 200 with no body, no JSON to read.
      const revocation = await t.fetch(`/token/revocation`, {
        method: "POST",
        body: new URLSearchParams({ token, client_id: a.id, client_secret: a.secret! }),
      });
      expect(revocation.status).to.equal(200);
      const cases: [string, Record<string, string>, number, string][] = [
        ["missing", {}, 401, "invalid_token"],
        ["unknown", bearer("x".repeat(43)), 401, "invalid_token"],
        ["revoked", bearer(token), 401, "invalid_token"],
        ["NUL byte", bearer("abc%00def"), 401, "invalid_token"],
        ["bidi", bearer(encodeURIComponent("abc\u202edef")), 401, "invalid_token"],
        ["long", bearer("y".repeat(5000)), 401, "invalid_token"],
        ["another scheme", { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }, 400, "invalid_request"],
      ];
      for (const path of ["/userinfo", "/api/userinfo"]) {
        for (const [name, headers, status, error] of cases) {
          const answer = await userinfo(t, path, headers);
          expect(answer.status, `${path} ${name}: ${JSON.stringify(answer.body)}`).to.equal(status);
          expect(answer.headers.get("www-authenticate"), `${path} ${name}`).to.match(/^Bearer realm=/);
          expect(answer.body, `${path} ${name}`).to.have.keys("error", "error_description");
          expect(answer.body.error, `${path} ${name}`).to.equal(error);
        }
      }
    });

    it("does not take the token in the query string (it would end up in logs)", async function () {
      const token = await login(t, a, eoa());
      const answer = await fetchJson(t, `/api/userinfo?access_token=${token}`);
      expect(answer.status).to.not.equal(200);
    });
  });

  describe("across restarts and instances", function () {
    let database: TestDatabase;
    after(async () => database?.drop());

    it("keeps the history when the service restarts on the same database", async function () {
      database = await createTestDatabase();
      const first = await startLoginApp(nodeUrl, { database });
      const wallet = eoa();
      let client: RegisteredClient;
      let before: Record<string, unknown>;
      try {
        client = await registerClient(first);
        before = (await userinfo(first, "/api/userinfo", bearer(await login(first, client, wallet)))).body;
      } finally {
        await first.close();
      }
      const second = await startLoginApp(nodeUrl, { database });
      try {
        const token = await login(second, client, wallet);
        const after = (await userinfo(second, "/api/userinfo", bearer(token))).body;
        expect(after).to.deep.equal(before);
      } finally {
        await second.close();
      }
    });

    it("records every login of two instances taking one account's logins at the same moment, first and last agreeing", async function () {
      database ??= await createTestDatabase();
      const one = await startLoginApp(nodeUrl, { database });
      const two = await startLoginApp(nodeUrl, { database });
      try {
        const client = await registerClient(one);
        const other = await registerClient(one, { name: "Other" });
        const wallet = eoa();
        // Five at once: one requester holds at most five open sign-in messages of an address.
        const tokens = await Promise.all([one, two, one, two, one].map((app, i) => login(app, i === 2 ? other : client, wallet)));
        const views = await Promise.all([one, two].map((app) => userinfo(app, "/api/userinfo", bearer(tokens[0]))));
        expect(views[0].body).to.deep.equal(views[1].body);
        expect(views[0].body.services).to.have.keys(client.id, other.id);
        const { rows } = await one.app.db.query<{ client_id: string; logins: string }>(
          "SELECT client_id, logins::text FROM login_history WHERE account = $1",
          [wallet.address.toLowerCase()],
        );
        expect(Object.fromEntries(rows.map((row) => [row.client_id, row.logins]))).to.deep.equal({ [client.id]: "4", [other.id]: "1" });
      } finally {
        await one.close();
        await two.close();
      }
    });
  });
});
