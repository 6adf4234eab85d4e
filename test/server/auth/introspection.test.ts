import { expect } from "chai";
import { Wallet } from "ethers";
import * as oidc from "openid-client";
import { fetchJson } from "../../helpers/app";
import { SuiteChain } from "../../helpers/suite-chain";
import { eoaSigner, postForm, registerClient, relyingPartyLogin, startLoginApp } from "./helpers";

describe("token introspection (RFC 7662)", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const t = chain.closesWith(await startLoginApp(chain.url, { listen: true }));
    return { t, client: await registerClient(t, { name: "Introspecting RP" }), other: await registerClient(t, { name: "Other RP" }) };
  });

  it("is published in discovery, for the secret-based authentication methods", async function () {
    const { t } = suite();
    const { body } = await fetchJson(t, "/.well-known/openid-configuration");
    expect(body.introspection_endpoint).to.equal(`${t.config.issuer}/token/introspection`);
  });

  it("describes a confidential client's own access and refresh tokens (openid-client's tokenIntrospection)", async function () {
    const { t, client } = suite();
    const wallet = Wallet.createRandom();
    const { config, tokens, claims } = await relyingPartyLogin(t, client, eoaSigner(wallet));
    const access = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(access).to.include({
      active: true,
      sub: wallet.address.toLowerCase(),
      client_id: client.id,
      scope: "openid",
      iss: t.config.issuer,
    });
    expect(access.token_type).to.equal("Bearer");
    expect(access.exp).to.be.a("number").above(claims.iat);
    const refresh = await oidc.tokenIntrospection(config, tokens.refresh_token!, { token_type_hint: "refresh_token" });
    expect(refresh).to.include({ active: true, sub: wallet.address.toLowerCase(), client_id: client.id });
  });

  it("gives the sub in the client's subject format", async function () {
    const { t } = suite();
    const caip = await registerClient(t, { name: "CAIP RP", subjectFormat: "caip10" });
    const wallet = Wallet.createRandom();
    const { config, tokens } = await relyingPartyLogin(t, caip, eoaSigner(wallet));
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).sub).to.equal(`eip155:1:${wallet.address}`);
  });

  it("answers active: false for a revoked, unknown or other client's token", async function () {
    const { t, client, other } = suite();
    const mine = await relyingPartyLogin(t, client, eoaSigner(Wallet.createRandom()));
    const theirs = await relyingPartyLogin(t, other, eoaSigner(Wallet.createRandom()));
    expect(await oidc.tokenIntrospection(mine.config, theirs.tokens.access_token)).to.deep.equal({ active: false });
    expect(await oidc.tokenIntrospection(mine.config, "no-such-token")).to.deep.equal({ active: false });
    await oidc.tokenRevocation(mine.config, mine.tokens.access_token);
    expect(await oidc.tokenIntrospection(mine.config, mine.tokens.access_token)).to.deep.equal({ active: false });
  });

  it("refuses a public client, a wrong secret and a missing token with RFC 6749 errors", async function () {
    const { t, client } = suite();
    const spa = await registerClient(t, { name: "SPA", public: true, redirectUris: ["http://localhost:5173/cb"] });
    const { tokens } = await relyingPartyLogin(t, client, eoaSigner(Wallet.createRandom()));
    const cases: Array<[Record<string, string>, number, string, string]> = [
      [{ token: tokens.access_token, client_id: spa.id }, 400, "unauthorized_client", "token introspection is for confidential clients"],
      [{ token: tokens.access_token, client_id: client.id, client_secret: "wrong" }, 401, "invalid_client", "client authentication failed"],
      [{ client_id: client.id, client_secret: client.secret! }, 400, "invalid_request", "missing required parameter 'token'"],
    ];
    for (const [form, status, error, description] of cases) {
      const answer = await postForm(t, "/token/introspection", form);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
      expect(answer.body).to.deep.equal({ error, error_description: description });
    }
  });
});
