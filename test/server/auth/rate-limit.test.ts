import { expect } from "chai";
import { Wallet } from "ethers";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { authorizeQuery, getJson, postForm, postJson, registerClient, startLoginApp, type RegisteredClient } from "./helpers";

describe("login rate limits (LOGIN_RATE_LIMIT per minute and IP)", function () {
  let t: TestApp;
  let client: RegisteredClient;

  before(async function () {
    t = await startLoginApp((await sharedNode()).url, { env: { LOGIN_RATE_LIMIT: "3" } });
    client = await registerClient(t);
  });
  after(async () => t?.close());

  const authorize = () => getJson(t, `/api/authorize?${authorizeQuery(client, Wallet.createRandom().address)}`);

  it("answers 429 with Retry-After on /api/authorize past the limit, in the API's error shape", async function () {
    for (let i = 0; i < 3; i++) expect((await authorize()).status).to.equal(200);
    const refused = await authorize();
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get("retry-after"))).to.be.within(1, 60);
    expect(refused.body.error).to.equal("too_many_requests");
    expect(refused.body.message).to.be.a("string");
  });

  it("counts /api/login on its own, and answers 429 there too", async function () {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await postJson(t, `/api/login`, { address: Wallet.createRandom().address, signature: "0x00", client_id: client.id })).status,
      );
    expect(statuses.slice(0, 3).every((s) => s !== 429)).to.equal(true);
    expect(statuses[3]).to.equal(429);
  });

  it("answers 429 on the token endpoints in the RFC 6749 shape", async function () {
    let last;
    for (let i = 0; i < 4; i++)
      last = await postForm(t, `/api/token`, {
        grant_type: "authorization_code",
        code: "x",
        redirect_uri: client.redirectUri,
        client_id: client.id,
        client_secret: "x",
      });
    expect(last!.status).to.equal(429);
    expect(last!.headers.get("retry-after")).to.be.a("string");
    expect(last!.body.error).to.equal("too_many_requests");
    expect(last!.body.error_description).to.be.a("string");
  });

  it("leaves the other routes alone", async function () {
    expect((await getJson(t, `/health`)).status).to.equal(200);
    expect((await getJson(t, `/.well-known/openid-configuration`)).status).to.equal(200);
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
