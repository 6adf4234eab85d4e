import { expect } from "chai";
import { Wallet } from "ethers";
import { CHALLENGE_TTL_MS } from "../../../server/auth/messages";
import { CODE_TTL_SECONDS } from "../../../server/auth/oidc/provider";
import type { Database } from "../../../server/db/database";
import { countQueries } from "../../../support/query-count";
import { fetchJson, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import {
  authorizeQuery,
  exchangeCode,
  postForm,
  postJson,
  refreshTokens,
  registerClient,
  signedLogin,
  startLoginApp,
  type RegisteredClient,
} from "./helpers";
import { expectRefusal } from "../../helpers/refusal";
import { addClient } from "../../../server/auth/clients";
import { parseHoldingsConfig } from "../../../server/auth/holdings";

/**
 * Each step's one statement, which on PostgreSQL also makes its request's rate-limit count in the shared counts
 * (request_windows): no statement of its own (server/http/rate-limit.ts, limitInStatement). PGlite counts in memory.
 */
const SAVE = "WITH counted AS";
const REDEEM = "WITH counted AS";
const EXCHANGE = "WITH counted AS";

/** The statements one full login sends to the database: each record is read once and written once. */
describe("queries of one login (authorize, login, token)", function () {
  let t: TestApp;
  let other: TestApp;
  let base: TestDatabase;
  let counting: ReturnType<typeof countQueries>;
  let opened: Database | undefined;
  let client: RegisteredClient;

  before(async function () {
    base = await createTestDatabase();
    const { database: config, db: shared } = await base.appOptions();
    opened = shared ? undefined : await base.open();
    counting = countQueries((shared ?? opened)!);
    const database = { ...base, appOptions: async () => ({ database: config, db: counting }) };
    t = await startLoginApp((await sharedNode()).url, { database });
    // Another instance on the same database, with a memory of its own.
    other = await startLoginApp((await sharedNode()).url, { database });
    client = await registerClient(t);
  });
  after(async function () {
    await other?.close();
    await t?.close();
    await base?.drop();
  });

  /** The login statements run by `fn` (not the sweep of expired rows, which runs on its own timer: server/auth/sweep.ts). */
  async function statementsOf(fn: () => Promise<void>): Promise<string[]> {
    const before = counting.queryCounts().bySql;
    await fn();
    const after = counting.queryCounts().bySql;
    const run: string[] = [];
    for (const [sql, n] of Object.entries(after)) {
      if (
        !/login_challenges|login_save_challenge|oidc_payloads|login_clients|login_history|request_windows|^SELECT q\.i, c\.block_number|^WITH q AS \(\s+SELECT \* FROM jsonb_to_recordset/.test(
          sql,
        ) ||
        /^DELETE .* expires_at <|^DELETE FROM request_windows/.test(sql)
      )
        continue;
      for (let i = 0; i < n - (before[sql] ?? 0); i++) run.push(sql);
    }
    return run;
  }

  const payloadRows = async () => Number((await t.app.db.query<{ n: string }>("SELECT count(*) AS n FROM oidc_payloads")).rows[0].n);

  /** A full login: authorize and login at `first`, the code exchanged at `second`; the statements each sent. */
  async function login(first: TestApp, loginAt: TestApp, second: TestApp, rp: RegisteredClient = client) {
    const client = rp;
    const wallet = Wallet.createRandom();
    const query = authorizeQuery(client, wallet.address);
    let tokens: Awaited<ReturnType<typeof postForm>> | undefined;
    const statements = await statementsOf(async () => {
      const { body } = await fetchJson(first, `/api/authorize?${query}`);
      const signed = await postJson(loginAt, `/api/login`, {
        address: wallet.address,
        signature: await wallet.signMessage(body.message),
        client_id: client.id,
      });
      expect(signed.status, JSON.stringify(signed.body)).to.equal(200);
      tokens = await exchangeCode(second, client, signed.body.code);
    });
    expect(tokens!.status, JSON.stringify(tokens!.body)).to.equal(200);
    expect(tokens!.body).to.include.keys("id_token", "access_token", "refresh_token");
    return { statements, tokens: tokens!.body, wallet };
  }
  /** The first words of each statement, the client reads left out (see the first test). */
  const heads = (statements: string[]) =>
    statements.filter((sql) => !sql.startsWith("SELECT * FROM login_clients")).map((sql) => sql.split(" ").slice(0, 3).join(" "));

  /** A confidential client registered with `holdings` (as the CLI and registration take them). */
  async function holdingsClient(holdings: unknown): Promise<RegisteredClient> {
    const { client: added, secret } = await addClient(t.app.db, {
      name: "Holdings RP",
      redirectUris: ["https://rp.example/callback"],
      public: false,
      holdings: parseHoldingsConfig(holdings, ["localhost"]),
    });
    return { id: added.id, secret, redirectUri: "https://rp.example/callback", name: added.name };
  }

  it("costs three statements on one instance: one to issue the challenge, one to redeem it for a code, one to exchange the code", async function () {
    // The client is read once first, then cached for a second: read again only when the login takes longer than that
    // (a loaded machine), and never more than once a second.
    await fetchJson(t, `/api/authorize?${authorizeQuery(client, Wallet.createRandom().address)}`);
    const cachedAt = Date.now();
    const { statements, tokens, wallet } = await login(t, t, t);
    const clientReads = statements.filter((sql) => sql.startsWith("SELECT * FROM login_clients")).length;
    expect(clientReads).to.be.at.most(Math.floor((Date.now() - cachedAt) / 1000));
    // On PostgreSQL each step's statement makes its request's rate-limit count first: no statement of its own.
    expect(heads(statements)).to.deep.equal([
      // authorize: under the requester's lock, its expired and over-quota challenges deleted and the challenge
      // stored within its quota (one function call, no transaction of several statements), committed without
      // waiting for the disk
      SAVE,
      // login (the challenge as this instance saved it, the signature proving it): the challenge redeemed, the grant
      // and the code stored, the login recorded in the account's history
      REDEEM,
      // token (the code and its grant as this instance stored them): the code consumed, the access and the refresh
      // token stored
      EXCHANGE,
    ]);
    const [, redeemed, exchanged] = statements.filter((sql) => !sql.startsWith("SELECT * FROM login_clients"));
    expect(redeemed).to.match(/DELETE FROM login_challenges .*INSERT INTO oidc_payloads .*INSERT INTO login_history /);
    expect(exchanged).to.match(/UPDATE oidc_payloads SET consumed_at .*INSERT INTO oidc_payloads /);

    // What was stored works: the access token at userinfo, the refresh token at the token endpoint.
    const userinfo = await fetchJson(t, `/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.status).to.equal(200);
    expect(userinfo.body.sub).to.equal(wallet.address.toLowerCase());
    const refreshed = await refreshTokens(t, client, tokens.refresh_token);
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
  });

  it("costs five statements when each step reaches another instance: the open challenges and the code are read back", async function () {
    const { statements } = await login(t, other, t);
    // (Counted by text, so in no particular order.)
    expect(heads(statements).sort()).to.deep.equal(
      [
        SAVE, // authorize, at the first instance
        "SELECT * FROM", // login, at the other: the open challenges
        REDEEM, // login: the challenge redeemed, as above
        "SELECT kind, payload,", // token, at the first again: the code and its grant, in one query
        EXCHANGE, // token: the code consumed, as above
      ].sort(),
    );
  });

  it("costs no statement more for a client with holdings (three collections), delegated holdings counted or not: the redeeming statement reads them from the index, and the code's grant carries their claim", async function () {
    const collections = ["0x" + "a1".repeat(20), "0x" + "b2".repeat(20), "0x" + "c3".repeat(20)].map((contract) => ({
      network: "localhost",
      contract,
    }));
    for (const delegation of [false, true]) {
      const holdings = await holdingsClient({ collections, delegation });
      // The code exchanged at the other instance: the claim comes with the grant read from the database.
      const { statements, tokens } = await login(t, t, other, holdings);
      // (Counted by text, so in no particular order.)
      expect(heads(statements).sort(), `delegation ${delegation}`).to.deep.equal(
        [
          SAVE, // authorize
          // login: what the signer (and with delegation, the vaults that delegated to it) hold of the three collections,
          // with the cursor, read by the statement that redeems the challenge (only when they meet the gate) and stores
          // the grant carrying their claim
          REDEEM,
          "SELECT kind, payload,", // token, at the other instance: the code and its grant
          EXCHANGE, // token: the code consumed
        ].sort(),
      );
      const redeemed = statements.find((sql) => /DELETE FROM login_challenges/.test(sql));
      expect(redeemed, `delegation ${delegation}`).to.match(/FROM nft_holdings .*DELETE FROM login_challenges /s);
      const claims = JSON.parse(Buffer.from(tokens.id_token.split(".")[1], "base64url").toString("utf8"));
      expect(
        claims.holdings.map((entry: { contract: string; count: string; total?: string }) => [
          entry.contract.toLowerCase(),
          entry.count,
          entry.total,
        ]),
      ).to.deep.equal(collections.map((c) => [c.contract, "0", delegation ? "0" : undefined]));
    }
  });

  it("sends the redeeming statement without the delegations' part for a client that does not count them, and the one with it for a client that does", async function () {
    // The delegated form with the delegations switched off by a parameter costs the database more than the
    // signer's own holdings read alone (docs/reference/login.md#what-it-costs): a client without delegation sends
    // the smaller form, written out whole.
    const collections = [{ network: "localhost", contract: "0x" + "d4".repeat(20) }];
    for (const delegation of [false, true, { rights: "0x" + "ee".repeat(32) }]) {
      const rp = await holdingsClient({ collections, delegation });
      const { statements } = await login(t, t, t, rp);
      const redeemed = statements.filter((sql) => /DELETE FROM login_challenges/.test(sql));
      const what = `delegation ${JSON.stringify(delegation)}`;
      expect(redeemed, what).to.have.length(1);
      expect(redeemed[0], what).to.match(/FROM nft_holdings /);
      if (delegation) expect(redeemed[0], what).to.match(/FROM nft_delegations /);
      else expect(redeemed[0], what).not.to.match(/nft_delegations|granted AS|holders AS/);
    }
  });

  it("reads a code's grant by its key, not by scanning every grant, on a table never analyzed", async function () {
    // Thousands of other grants, and no statistics (as on a server with autovacuum off): a plan chosen from the
    // statistics would look the grant up among all of them.
    await t.app.db.query(
      `INSERT INTO oidc_payloads (kind, id, payload, expires_at)
       SELECT 'Grant', 'other-' || n, '{}'::jsonb, now() + interval '1 hour' FROM generate_series(1, 3000) AS n`,
    );
    const signed = await signedLogin(t, client, Wallet.createRandom());
    expect(signed.status, JSON.stringify(signed.body)).to.equal(200);
    // Exchanged at the other instance, which reads the code from the database.
    const tokens = await exchangeCode(other, client, signed.body.code);
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    const read = Object.keys(counting.queryCounts().bySql).find((sql) => sql.startsWith("SELECT kind, payload,"));
    expect(read, "the token endpoint's read of the code and its grant").to.be.a("string");
    const { rows } = await t.app.db.query<{ "QUERY PLAN": [{ Plan: { "Actual Rows": number; "Shared Hit Blocks": number } }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${read}`,
      ["AuthorizationCode", signed.body.code],
    );
    const [{ Plan: plan }] = rows[0]["QUERY PLAN"];
    // The code and its grant, each found through the primary key in a few pages (the scan read hundreds).
    expect(plan["Actual Rows"]).to.equal(2);
    expect(JSON.stringify(plan)).not.to.match(/Seq Scan|Bitmap/);
    expect(plan["Shared Hit Blocks"]).to.be.below(30);
  });

  it("stores one code and one grant when the same signature is redeemed several times at once", async function () {
    const wallet = Wallet.createRandom();
    const query = authorizeQuery(client, wallet.address);
    const { body } = await fetchJson(t, `/api/authorize?${query}`);
    const request = {
      address: wallet.address,
      signature: await wallet.signMessage(body.message),
      client_id: client.id,
      message: body.message,
    };
    const rows = await payloadRows();
    const answers = await Promise.all(Array.from({ length: 5 }, () => postJson(t, `/api/login`, request)));
    expect(answers.filter((a) => a.status === 200)).to.have.length(1);
    for (const refused of answers.filter((a) => a.status !== 200)) await expectRefusal(refused, 401, "invalid_challenge");
    expect(await payloadRows()).to.equal(rows + 2);
  });

  it("computes a challenge's and a code's expiry on the app's clock, and reads each back once its memory of it is past that expiry", async function () {
    const wallet = Wallet.createRandom();
    const { body } = await fetchJson(t, `/api/authorize?${authorizeQuery(client, wallet.address)}`);
    // Past the challenge's expiry as this instance computed it: its memory of the challenge is of no use. The database,
    // whose clock decides whether a challenge is open (and has not moved), still holds it open.
    t.clock.advance(CHALLENGE_TTL_MS);
    let signed: Awaited<ReturnType<typeof postJson>> | undefined;
    const before = t.clock.now();
    const redeemed = await statementsOf(async () => {
      signed = await postJson(t, `/api/login`, {
        address: wallet.address,
        signature: await wallet.signMessage(body.message),
        client_id: client.id,
      });
    });
    const after = t.clock.now();
    expect(signed!.status, JSON.stringify(signed!.body)).to.equal(200);
    expect(heads(redeemed).sort()).to.deep.equal(["SELECT * FROM", REDEEM].sort());
    // The code's expiry, as the adapter computes it (oidc-provider gives its lifetime in whole seconds), on the app's clock.
    const { rows } = await t.app.db.query<{ expires_at: Date }>(
      "SELECT expires_at FROM oidc_payloads WHERE kind = 'AuthorizationCode' AND id = $1",
      [signed!.body.code],
    );
    expect(rows[0].expires_at.getTime()).to.be.within(before + CODE_TTL_SECONDS * 1000 - 1000, after + CODE_TTL_SECONDS * 1000);

    // Past the code's expiry on the same clock: the instance reads the code back. oidc-provider checks the code's own
    // expiry on its wall clock, which has not moved: the exchange succeeds.
    t.clock.advance(CODE_TTL_SECONDS * 1000);
    let tokens: Awaited<ReturnType<typeof exchangeCode>> | undefined;
    const exchanged = await statementsOf(async () => {
      tokens = await exchangeCode(t, client, signed!.body.code);
    });
    expect(tokens!.status, JSON.stringify(tokens!.body)).to.equal(200);
    expect(heads(exchanged).sort()).to.deep.equal(["SELECT kind, payload,", EXCHANGE].sort());

    // A challenge's expiry, as authorize computes it, on the app's clock too (ahead of the database's by now).
    const next = Wallet.createRandom().address;
    const from = t.clock.now();
    await fetchJson(t, `/api/authorize?${authorizeQuery(client, next)}`);
    const to = t.clock.now();
    const { rows: challenges } = await t.app.db.query<{ expires_at: Date }>("SELECT expires_at FROM login_challenges WHERE address = $1", [
      next.toLowerCase(),
    ]);
    expect(challenges[0].expires_at.getTime()).to.be.within(from + CHALLENGE_TTL_MS, to + CHALLENGE_TTL_MS);
  });
});
