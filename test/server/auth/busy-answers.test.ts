import { expect } from "chai";
import { Wallet } from "ethers";
import type { Connection } from "../../../server/db/database";
import { fetchJson } from "../../helpers/app";
import { usingPostgres } from "../../helpers/database";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";
import { authorizeQuery, exchangeCode, postJson, refreshTokens, registerClient, signedLogin, startLoginApp } from "./helpers";

/**
 * Every 503 and 429 of the login service carries Retry-After and the documented error shape in its dialect
 * (docs/reference/api.md, docs/reference/login.md#errors): ours and oidc-provider's endpoints alike, with the database
 * pool taken (503 database_busy) and past the rate limit (429 too_many_requests).
 */
describe("the login service's 503 and 429 answers", function () {
  this.timeout(60_000);
  before(function () {
    // PGlite is one in-process connection, without a pool to take.
    if (!usingPostgres()) this.skip();
  });
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    // The acquire bound also covers opening a connection (docs/operations/running.md): it stays above what that takes
    // on a loaded machine, or the start's own first connection is refused.
    const env = { INDEXER: "false", DATABASE_POOL_SIZE: "1", DATABASE_ACQUIRE_TIMEOUT_MS: "500", LOGIN_RATE_LIMIT: "1000" };
    const t = chain.closesWith(await startLoginApp(chain.url, { env }));
    return { t, client: await registerClient(t) };
  });

  it("with the pool taken, every endpoint that needs the database answers 503 database_busy with Retry-After", async function () {
    const { t, client } = suite();
    // What each request needs, made while the database answers.
    const first = await signedLogin(t, client, Wallet.createRandom());
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const tokens = await exchangeCode(t, client, first.body.code);
    expect(tokens.status).to.equal(200);
    const pending = await signedLogin(t, client, Wallet.createRandom());
    expect(pending.status).to.equal(200);

    const held: Connection = await t.app.db.connect();
    try {
      const busy = { headers: { "retry-after": "1" } };
      await expectRefusal(
        await fetchJson(t, `/api/authorize?${authorizeQuery(client, Wallet.createRandom().address)}`),
        503,
        "database_busy",
        {
          ...busy,
          label: "GET /api/authorize",
        },
      );
      const wallet3 = Wallet.createRandom();
      await expectRefusal(
        await postJson(t, "/api/login", { address: wallet3.address, signature: await wallet3.signMessage("x"), client_id: client.id }),
        503,
        "database_busy",
        { ...busy, label: "POST /api/login" },
      );
      await expectRefusal(await exchangeCode(t, client, pending.body.code), 503, "database_busy", {
        ...busy,
        dialect: "oauth",
        label: "POST /token (code)",
      });
      await expectRefusal(await refreshTokens(t, client, tokens.body.refresh_token), 503, "database_busy", {
        ...busy,
        dialect: "oauth",
        label: "POST /token (refresh)",
      });
      await expectRefusal(
        await fetchJson(t, "/userinfo", { headers: { authorization: `Bearer ${tokens.body.access_token}` } }),
        503,
        "database_busy",
        { ...busy, dialect: "oauth", label: "GET /userinfo" },
      );
      const ready = await fetchJson(t, "/ready");
      expect(ready.status, "GET /ready").to.equal(503);
      expect(ready.headers.get("retry-after"), "GET /ready").to.equal("1");
    } finally {
      held.release();
    }
    // Once the pool has a connection again, the code held back during the refusal still redeems.
    expect((await exchangeCode(t, client, pending.body.code)).status).to.equal(200);
  });
});
