import { expect } from "chai";
import { Wallet } from "ethers";
import { fetchJson } from "../../helpers/app";
import { usingPostgres } from "../../helpers/database";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";
import { authorizeQuery, exchangeCode, postJson, registerClient, signedLogin, startLoginApp } from "./helpers";

/** The refusals a write may meet while the login's held writes are flushed, as PostgreSQL raises them. */
const FAILURES = [
  { sqlstate: "disk_full", code: "database_full", retryAfter: "60" },
  { sqlstate: "read_only_sql_transaction", code: "database_unavailable", retryAfter: "1" },
] as const;

/**
 * The login holds oidc-provider's writes back and stores them with one statement (server/auth/oidc/held-writes.ts):
 * at /api/login the grant and the code with the challenge's redemption, at /token the code's consumption with both
 * tokens. A database refusing that statement (PostgreSQL's own refusal, raised by a trigger on the table it writes)
 * leaves all of it unwritten: the answer is a 503 with Retry-After, no code is acknowledged that cannot redeem, and
 * no code redeems to a token the database lacks; once the database writes again, the same login or code succeeds.
 */
describe("held writes flushed all or nothing under a database failure", function () {
  this.timeout(60_000);
  before(function () {
    // The refusal is a PostgreSQL SQLSTATE the service reads; PGlite, in process, raises none of these.
    if (!usingPostgres()) this.skip();
  });
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const t = chain.closesWith(await startLoginApp(chain.url, { env: { INDEXER: "false" } }));
    await t.app.db.exec(
      `CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'refused by the test' USING ERRCODE = TG_ARGV[0]; END $$`,
    );
    return { t, client: await registerClient(t) };
  });

  /** Refuses every new row of `kind` in oidc_payloads with `sqlstate` until `free` is called. */
  async function refuse(kind: string, sqlstate: string) {
    await suite().t.app.db.exec(
      `CREATE TRIGGER test_refuse BEFORE INSERT ON oidc_payloads FOR EACH ROW WHEN (NEW.kind = '${kind}') EXECUTE FUNCTION test_refuse('${sqlstate}')`,
    );
  }
  const free = () => suite().t.app.db.exec("DROP TRIGGER test_refuse ON oidc_payloads");

  const rowsOf = async (kind: string) =>
    (await suite().t.app.db.query<{ n: number }>("SELECT count(*)::int AS n FROM oidc_payloads WHERE kind = $1", [kind])).rows[0].n;

  for (const { sqlstate, code, retryAfter } of FAILURES) {
    it(`/api/login (${sqlstate}): 503 ${code}, no code acknowledged nor stored; the same signature logs in once it writes`, async function () {
      const { t, client } = suite();
      const wallet = Wallet.createRandom();
      const { body } = await fetchJson(t, `/api/authorize?${authorizeQuery(client, wallet.address)}`);
      const login = { address: wallet.address, signature: await wallet.signMessage(body.message), client_id: client.id };
      const codes = await rowsOf("AuthorizationCode");
      await refuse("AuthorizationCode", sqlstate);
      try {
        await expectRefusal(await postJson(t, "/api/login", login), 503, code, { headers: { "retry-after": retryAfter } });
      } finally {
        await free();
      }
      expect(await rowsOf("AuthorizationCode"), "codes stored").to.equal(codes);
      // The challenge was not redeemed either: the statement that redeems it stores the code.
      const again = await postJson(t, "/api/login", login);
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect((await exchangeCode(t, client, again.body.code)).status).to.equal(200);
    });

    it(`/token (${sqlstate}): 503 ${code}, the code not consumed and no token stored; the same code redeems once it writes`, async function () {
      const { t, client } = suite();
      const login = await signedLogin(t, client, Wallet.createRandom());
      expect(login.status).to.equal(200);
      const tokens = { access: await rowsOf("AccessToken"), refresh: await rowsOf("RefreshToken") };
      await refuse("RefreshToken", sqlstate);
      try {
        await expectRefusal(await exchangeCode(t, client, login.body.code), 503, code, {
          dialect: "oauth",
          headers: { "retry-after": retryAfter },
        });
      } finally {
        await free();
      }
      // Nothing of the exchange was written: no token, and the code is still unused.
      expect({ access: await rowsOf("AccessToken"), refresh: await rowsOf("RefreshToken") }).to.deep.equal(tokens);
      const { rows } = await t.app.db.query<{ consumed: boolean }>(
        "SELECT consumed_at IS NOT NULL AS consumed FROM oidc_payloads WHERE kind = 'AuthorizationCode' AND payload->>'grantId' IS NOT NULL ORDER BY expires_at DESC LIMIT 1",
      );
      expect(rows[0]?.consumed, "the newest code consumed").to.equal(false);
      const exchanged = await exchangeCode(t, client, login.body.code);
      expect(exchanged.status, JSON.stringify(exchanged.body)).to.equal(200);
      const userinfo = await fetchJson(t, "/userinfo", { headers: { authorization: `Bearer ${exchanged.body.access_token}` } });
      expect(userinfo.status).to.equal(200);
    });
  }
});
