import { expect } from "chai";
import { Wallet } from "ethers";
import { fetchJson, startOfMinute, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import {
  authorizeQuery,
  exchangeCode,
  postForm,
  postJson,
  registerClient,
  registerHoldingsClient,
  startLoginApp,
  type RegisteredClient,
} from "./helpers";
import { expectRefusal } from "../../helpers/refusal";

describe("login rate limits (LOGIN_RATE_LIMIT per minute and IP)", function () {
  let t: TestApp;
  let client: RegisteredClient;

  before(async function () {
    t = await startLoginApp((await sharedNode()).url, { env: { LOGIN_RATE_LIMIT: "3" } });
    client = await registerClient(t);
  });
  after(async () => t?.close());

  const authorize = () => fetchJson(t, `/api/authorize?${authorizeQuery(client, Wallet.createRandom().address)}`);

  it("answers 429 with Retry-After on /api/authorize past the limit, in the API's error shape", async function () {
    startOfMinute(t.clock);
    for (let i = 0; i < 3; i++) expect((await authorize()).status).to.equal(200);
    const refused = await authorize();
    await expectRefusal(refused, 429, "too_many_requests", { headers: { "retry-after": true } });
    expect(Number(refused.headers.get("retry-after"))).to.be.within(1, 60);
  });

  it("counts /api/login on its own, and answers 429 there too", async function () {
    startOfMinute(t.clock);
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await postJson(t, `/api/login`, { address: Wallet.createRandom().address, signature: "0x00", client_id: client.id }));
    // The first three are refused for want of a challenge, not for their rate.
    for (const answer of answers.slice(0, 3)) await expectRefusal(answer, 401, "invalid_challenge");
    await expectRefusal(answers[3], 429, "too_many_requests", { headers: { "retry-after": true } });
  });

  it("answers 429 on the token endpoints in the RFC 6749 shape", async function () {
    startOfMinute(t.clock);
    let last;
    for (let i = 0; i < 4; i++)
      last = await postForm(t, `/api/token`, {
        grant_type: "authorization_code",
        code: "x",
        redirect_uri: client.redirectUri,
        client_id: client.id,
        client_secret: "x",
      });
    await expectRefusal(last!, 429, "too_many_requests", { dialect: "oauth", headers: { "retry-after": true } });
    expect(last!.body.error).to.equal("too_many_requests");
    expect(last!.body.error_description).to.be.a("string");
  });

  it("refuses a login step past the limit with nothing done: its message and its code stay good for the next minute", async function () {
    // On PostgreSQL each step's own statement counts it (server/http/rate-limit.ts, limitInStatement): the refusal
    // comes from the statement that would have redeemed the message or consumed the code, which then does neither.
    startOfMinute(t.clock);
    const wallet = Wallet.createRandom();
    const { body } = await fetchJson(t, `/api/authorize?${authorizeQuery(client, wallet.address)}`);
    const signature = await wallet.signMessage(body.message);
    const login = () => postJson(t, `/api/login`, { address: wallet.address, signature, client_id: client.id });
    for (let i = 0; i < 3; i++)
      await expectRefusal(
        await postJson(t, `/api/login`, { address: Wallet.createRandom().address, signature, client_id: client.id }),
        401,
        "invalid_challenge",
      );
    await expectRefusal(await login(), 429, "too_many_requests", { headers: { "retry-after": true } });
    t.clock.advance(60_000);
    const signed = await login();
    expect(signed.status, JSON.stringify(signed.body)).to.equal(200);

    for (let i = 0; i < 3; i++)
      await expectRefusal(await exchangeCode(t, client, `unknown-${i}`), 400, "invalid_grant", { dialect: "oauth" });
    await expectRefusal(await exchangeCode(t, client, signed.body.code), 429, "too_many_requests", {
      dialect: "oauth",
      headers: { "retry-after": true },
    });
    t.clock.advance(60_000);
    const tokens = await exchangeCode(t, client, signed.body.code);
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    expect(tokens.body).to.include.keys("id_token", "access_token");
  });

  it("counts a gated login in the statement that reads the holdings: refused for the gate within the limit, for its rate past it, nothing stored", async function () {
    // The gate asks for a token of a contract no one holds: every login is refused, and its message stays open.
    const gated = await registerHoldingsClient(t, "Gated RP", { gate: { network: "localhost", contract: "0x" + "d4".repeat(20) } });
    startOfMinute(t.clock);
    const wallet = Wallet.createRandom();
    const { body } = await fetchJson(t, `/api/authorize?${authorizeQuery(gated, wallet.address)}`);
    const signature = await wallet.signMessage(body.message);
    const login = () => postJson(t, `/api/login`, { address: wallet.address, signature, client_id: gated.id });
    const stored = async () => (await t.app.db.query("SELECT 1 FROM oidc_payloads")).rows.length;
    const before = await stored();
    for (let i = 0; i < 3; i++)
      await expectRefusal(await login(), 403, "access_denied", { message: /does not meet the holdings Gated RP requires/ });
    await expectRefusal(await login(), 429, "too_many_requests", { headers: { "retry-after": true } });
    t.clock.advance(60_000);
    await expectRefusal(await login(), 403, "access_denied", { message: /does not meet the holdings Gated RP requires/ });
    expect(await stored()).to.equal(before);
  });

  it("leaves the other routes alone", async function () {
    expect((await fetchJson(t, `/health`)).status).to.equal(200);
    expect((await fetchJson(t, `/.well-known/openid-configuration`)).status).to.equal(200);
  });

  it("refuses a LOGIN_RATE_LIMIT that is not a positive integer, naming the variable", async function () {
    const { loadConfig } = await import("../../../server/config");
    expect(() => loadConfig({ LOGIN_RATE_LIMIT: "0" })).to.throw(/^LOGIN_RATE_LIMIT: expected an integer/);
    expect(() => loadConfig({ LOGIN_RATE_LIMIT: "lots" })).to.throw(/^LOGIN_RATE_LIMIT/);
    expect(() => loadConfig({ LOGIN_MESSAGE_HEADER: "a\nb" })).to.throw(/^LOGIN_MESSAGE_HEADER/);
    expect(() => loadConfig({ OIDC_JWKS: "{" })).to.throw(/^OIDC_JWKS/);
    expect(() => loadConfig({ OIDC_JWKS: '{"keys":[{"kty":"RSA","n":"x","e":"AQAB"}]}' })).to.throw(/^OIDC_JWKS: .*a value that is not/);
  });
});
