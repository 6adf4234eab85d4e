import { expect } from "chai";
import { Wallet } from "ethers";
import { createPublicKey } from "node:crypto";
import { jwtVerify, decodeProtectedHeader } from "jose";
import * as oidc from "openid-client";
import { fetchJson, type TestApp } from "../../helpers/app";
import { createTestDatabase, usingPostgres, type TestDatabase } from "../../helpers/database";
import { SuiteChain } from "../../helpers/suite-chain";
import {
  authorizeQuery,
  deploySigners,
  postForm,
  postJson,
  refreshTokens,
  registerClient,
  signedLogin,
  relyingPartyCodeGrant,
  relyingPartyRequest,
  startLoginApp,
  type RegisteredClient,
} from "./helpers";
import { expectRefusal, type RefusalExpectation } from "../../helpers/refusal";

describe("login end to end", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const signers = await deploySigners(chain.url);
    // It listens: openid-client, the relying party, fetches discovery, the token endpoint and userinfo by itself.
    const t = chain.closesWith(await startLoginApp(chain.url, { listen: true }));
    return { t, signers, client: await registerClient(t, { name: "openid-client RP", redirectUris: ["https://rp.example/callback"] }) };
  });

  describe("openid-client v6 as the relying party", function () {
    /**
     * The RP does what any OIDC library does (discovery, PKCE, state, nonce); the user's side goes through the JSON
     * API with the authorization request's own parameters, as the hosted page does.
     */
    async function loginWith(signer: { address: string; sign(m: string): Promise<string> }, auth: "post" | "basic") {
      const { t, client } = suite();
      const clientAuth = auth === "post" ? oidc.ClientSecretPost(client.secret!) : oidc.ClientSecretBasic(client.secret!);
      const request = await relyingPartyRequest(t, client, clientAuth);
      const { config, state, url } = request;
      expect(url.origin + url.pathname).to.equal(`${t.config.issuer}/authorize`);
      // The standard endpoint takes the request (it sends the browser to the hosted page) ...
      const hosted = await fetch(url, { redirect: "manual" });
      expect(hosted.headers.get("location")).to.match(/^\/interaction\//);
      // ... whose script asks /api/authorize with the same parameters, has the wallet sign and calls /api/login.
      const query = new URLSearchParams(url.search);
      query.set("address", signer.address);
      query.set("message_format", "siwe");
      const challenge = await fetchJson(t, `/api/authorize?${query}`);
      expect(challenge.status, JSON.stringify(challenge.body)).to.equal(200);
      const login = await postJson(t, `/api/login`, {
        address: signer.address,
        signature: await signer.sign(challenge.body.message),
        client_id: client.id,
        redirect_uri: client.redirectUri,
        state,
      });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);

      const tokens = await relyingPartyCodeGrant(request, login.body.redirect_url);
      const claims = tokens.claims()!;
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      return { claims, info, tokens, config };
    }

    it("logs an EOA in: discovery, PKCE, code exchange, ID token (nonce), userinfo", async function () {
      const { t, client } = suite();
      const wallet = Wallet.createRandom();
      const { claims, info, tokens } = await loginWith({ address: wallet.address, sign: (m) => wallet.signMessage(m) }, "post");
      expect(claims.sub).to.equal(wallet.address.toLowerCase());
      expect(claims.iss).to.equal(t.config.issuer);
      expect(claims.aud).to.equal(client.id);
      expect(info).to.deep.equal({
        sub: wallet.address.toLowerCase(),
        address: wallet.address,
        since: info.since,
        first_service: client.id,
        services: { [client.id]: info.since },
      });
      expect(info.since)
        .to.be.a("number")
        .within(claims.iat - 60, claims.iat);
      expect(tokens.refresh_token).to.be.a("string");
    });

    it("logs an EIP-1271 wallet in (client_secret_basic), with a chain-qualified sub", async function () {
      const { signers } = suite();
      const { claims, info } = await loginWith(signers.single, "basic");
      expect(claims.sub).to.equal(`eip155:31337:${signers.single.address.toLowerCase()}`);
      expect(info.address).to.equal(signers.single.address);
    });

    it("refreshes through openid-client", async function () {
      const wallet = Wallet.createRandom();
      const { tokens, config } = await loginWith({ address: wallet.address, sign: (m) => wallet.signMessage(m) }, "post");
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).to.be.a("string").and.not.equal(tokens.access_token);
    });
  });

  describe("the predecessor's clients, unchanged", function () {
    const fiveDigits = () => String(10000 + Math.floor(Math.random() * 90000));

    it("its JS client: authorize with scope=openid profile, wallet_name and a 5-digit state; login as JSON with another state and the wallet's network", async function () {
      const { t, client } = suite();
      const wallet = Wallet.createRandom();
      const query = new URLSearchParams({
        response_type: "code",
        client_id: client.id,
        redirect_uri: client.redirectUri,
        scope: "openid profile",
        state: fiveDigits(),
        address: wallet.address,
        wallet_name: "metamask",
      });
      const authorize = await fetchJson(t, `/api/authorize?${query}`);
      expect(authorize.status, JSON.stringify(authorize.body)).to.equal(200);
      expect(authorize.body).to.have.keys("message");
      const loginState = fiveDigits();
      const login = await postJson(t, `/api/login`, {
        address: wallet.address,
        signature: await wallet.signMessage(authorize.body.message),
        client_id: client.id,
        redirect_uri: client.redirectUri,
        state: loginState,
        network: "localhost",
      });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      expect(login.body.state).to.equal(loginState);
      const redirect = new URL(login.body.redirect_url);
      expect(redirect.searchParams.get("code")).to.equal(login.body.code);
      expect(redirect.searchParams.get("state")).to.equal(loginState);
    });

    it("its Go client: token exchange as a form with client_secret in the body gets a refresh_token; ID-token keys from /api/metadata/x509", async function () {
      const { t, client } = suite();
      const wallet = Wallet.createRandom();
      const login = await signedLogin(t, client, wallet, { scope: "openid profile" });
      const token = await postForm(t, `/api/token`, {
        grant_type: "authorization_code",
        code: login.body.code,
        redirect_uri: client.redirectUri,
        client_id: client.id,
        client_secret: client.secret!,
      });
      expect(token.status, JSON.stringify(token.body)).to.equal(200);
      expect(token.body).to.include.keys("access_token", "token_type", "expires_in", "refresh_token", "id_token");
      expect(token.body.token_type).to.equal("Bearer");
      const keys = (await fetchJson(t, `/api/metadata/x509`)).body as Record<string, string>;
      const { kid } = decodeProtectedHeader(token.body.id_token);
      expect(keys[kid!]).to.match(/^-----BEGIN RSA PUBLIC KEY-----\n/);
      const { payload } = await jwtVerify(token.body.id_token, createPublicKey(keys[kid!]));
      expect(payload.sub).to.equal(wallet.address.toLowerCase());
      const refreshed = await refreshTokens(t, client, token.body.refresh_token, "/api/token");
      expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
      expect(refreshed.body.id_token).to.be.a("string");
    });
  });

  describe("two instances on one PostgreSQL", function () {
    let database: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let shared: RegisteredClient;

    before(async function () {
      if (!usingPostgres()) return this.skip();
      database = await createTestDatabase();
      a = await startLoginApp(suite().chain.url, { database });
      b = await startLoginApp(suite().chain.url, { database });
      shared = await registerClient(a);
    });
    after(async function () {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    /** Of the same request sent to both instances at once, one succeeded and the other is refused with `status` and `code`. */
    async function expectOneWon(
      answers: Array<Awaited<ReturnType<typeof fetchJson>>>,
      status: number,
      code: string,
      extra: RefusalExpectation = {},
    ) {
      const winners = answers.filter((x) => x.status === 200);
      expect(winners, JSON.stringify(answers.map((x) => x.body))).to.have.length(1);
      await expectRefusal(
        answers.find((x) => x !== winners[0])!,
        status,
        code,
        extra,
      );
    }

    it("redeems one signed challenge exactly once when both get it at the same moment", async function () {
      for (let round = 0; round < 5; round++) {
        const wallet = Wallet.createRandom();
        const { body } = await fetchJson(a, `/api/authorize?${authorizeQuery(shared, wallet.address)}`);
        const payload = { address: wallet.address, signature: await wallet.signMessage(body.message), client_id: shared.id };
        const answers = await Promise.all([postJson(a, `/api/login`, payload), postJson(b, `/api/login`, payload)]);
        await expectOneWon(answers, 401, "invalid_challenge");
      }
    });

    it("exchanges one code exactly once when both get it at the same moment", async function () {
      for (let round = 0; round < 5; round++) {
        const wallet = Wallet.createRandom();
        const login = await signedLogin(b, shared, wallet);
        const form = {
          grant_type: "authorization_code",
          code: login.body.code,
          redirect_uri: shared.redirectUri,
          client_id: shared.id,
          client_secret: shared.secret!,
        };
        const answers = await Promise.all([postForm(a, `/token`, form), postForm(b, `/api/token`, form)]);
        await expectOneWon(answers, 400, "invalid_grant", { dialect: "oauth" });
      }
    });
  });
});
