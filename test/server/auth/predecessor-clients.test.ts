import { createPublicKey, verify as verifySignature, type KeyObject } from "node:crypto";
import { expect } from "chai";
import { Wallet } from "ethers";
import * as oidc from "openid-client";
import { fetchJson } from "../../helpers/app";
import { SuiteChain } from "../../helpers/suite-chain";
import {
  exchangeCode,
  postJson,
  refreshTokens,
  registerClient,
  relyingPartyCodeGrant,
  relyingPartyRequest,
  startLoginApp,
  type RegisteredClient,
} from "./helpers";

/**
 * The predecessor's public clients, replayed call by call as they make them (paths, parameters, content types) and
 * checked against what they decode: mchplus-auth-go unmarshals into Go types (map[string]string, int64, ...),
 * where a value of another JSON type is an error, and mchplus-auth-js reads the JSON as is. The service runs
 * without RPC_URL_MAINNET, as `npm start` does, while the clients name mainnet.
 */
describe("the predecessor's clients, call by call", function () {
  const HOME = "https://game.example/";
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    // It listens: the last test's relying party, openid-client, fetches discovery, tokens and userinfo by itself.
    const t = chain.closesWith(await startLoginApp(chain.url, { listen: true }));
    expect(t.app.networks.configured()).to.not.include("mainnet");
    const game = await registerClient(t, {
      name: "MCH Game",
      redirectUris: ["https://game.example/callback"],
      profile: {
        title: { en: "My Crypto Heroes", ja: "マイクリプトヒーローズ" },
        description: { en: "A blockchain RPG. Play it.", ja: "ブロックチェーンRPG" },
        logoUrl: "https://game.example/logo.png",
        homeUrl: HOME,
      },
    });
    return { t, game, plain: await registerClient(t, { name: "Plain RP" }) };
  });

  /** What Go's json.Unmarshal into map[string]string accepts: an object whose values are all strings. */
  function expectStringMap(body: unknown, what: string) {
    expect(body, what).to.be.an("object").and.not.an("array");
    for (const [key, value] of Object.entries(body as object)) expect(value, `${what}: ${key}`).to.be.a("string");
  }
  const expectInt64 = (value: unknown, what: string) =>
    expect(Number.isSafeInteger(value), `${what} = ${JSON.stringify(value)}`).to.equal(true);
  const sixDigits = () => String(Math.floor(Math.random() * 1e6)).padStart(6, "0");

  /** mchplus-auth-go's ParseVerify: header read with base64.RawStdEncoding, key from /api/metadata/x509, RS256. */
  /** The ID token claims CheckValidIDToken reads; the tests check the others as they come. */
  type GoClaims = { iat: number; exp: number; aud: string | string[]; [claim: string]: unknown };

  async function goParseVerify(idToken: string): Promise<GoClaims> {
    const [header, payload, signature] = idToken.split(".");
    // RawStdEncoding refuses the URL-safe alphabet and padding: the header must not need them.
    expect(header).to.match(/^[A-Za-z0-9+/]+$/);
    const { kid } = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    expect(kid).to.be.a("string");
    const keys = await goFetchMetadata();
    expect(keys).to.have.property(kid);
    const ok = verifySignature("RSA-SHA256", Buffer.from(`${header}.${payload}`), keys[kid], Buffer.from(signature, "base64url"));
    expect(ok, "RS256 signature with the PKCS#1 key").to.equal(true);
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  }

  /** mchplus-auth-go's fetchMetadata: map[string]string of PEMs, each pem.Decode'd and x509.ParsePKCS1PublicKey'd. */
  async function goFetchMetadata(): Promise<Record<string, KeyObject>> {
    const { status, body, headers } = await fetchJson(suite().t, `/api/metadata/x509`);
    expect(status).to.equal(200);
    expect(headers.get("content-type")).to.match(/^application\/json/);
    expectStringMap(body, "/api/metadata/x509");
    const keys: Record<string, KeyObject> = {};
    for (const [kid, pem] of Object.entries(body as Record<string, string>)) {
      const block = /^-----BEGIN RSA PUBLIC KEY-----\n([A-Za-z0-9+/=\n]+)-----END RSA PUBLIC KEY-----\n?$/.exec(pem);
      expect(block, pem).to.not.equal(null);
      const der = Buffer.from(block![1].replace(/\n/g, ""), "base64");
      // PKCS#1 RSAPublicKey (SEQUENCE of n and e), which is what ParsePKCS1PublicKey reads; SPKI would fail here.
      keys[kid] = createPublicKey({ key: der, format: "der", type: "pkcs1" });
      expect(keys[kid].asymmetricKeyType).to.equal("rsa");
    }
    return keys;
  }

  /** mchplus-auth-go's CheckValidIDToken, as written there. */
  function goCheckValidIDToken(p: GoClaims, now: number, homeUrl: string): string | undefined {
    if (p.iat > now) return "id token error: issueAt";
    if (p.exp < now) return "id token error: expire";
    const audiences = Array.isArray(p.aud) ? p.aud : [p.aud];
    return audiences.includes(homeUrl) ? undefined : "id token error: audience";
  }

  /** mchplus-auth-go's Authorize then Login (JSON), then GetToken (form): returns the Token it decodes. */
  async function goLogin(client: RegisteredClient, wallet = Wallet.createRandom(), network = "mainnet") {
    const { t } = suite();
    const state = sixDigits();
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.id,
      state,
      scope: "openid",
      redirect_uri: client.redirectUri,
      address: wallet.address,
    });
    const authorize = await fetchJson(t, `/api/authorize?${query}`);
    expect(authorize.status, JSON.stringify(authorize.body)).to.equal(200);
    expectStringMap(authorize.body, "/api/authorize");
    const login = await postJson(t, `/api/login`, {
      address: wallet.address,
      client_id: client.id,
      signature: await wallet.signMessage(authorize.body.message),
      network,
      redirect_uri: client.redirectUri,
      state,
    });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    expectStringMap(login.body, "/api/login");
    expect(login.body.state).to.equal(state);
    const token = await exchangeCode(t, client, login.body.code, "/api/token");
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    for (const field of ["access_token", "token_type", "refresh_token", "id_token"]) expect(token.body[field], field).to.be.a("string");
    expectInt64(token.body.expires_in, "expires_in");
    return { wallet, token: token.body as { access_token: string; refresh_token: string; id_token: string } };
  }

  describe("mchplus-auth-go", function () {
    it("Init: GET /api/client?client_id= decodes into its ClientInfo, every field a string", async function () {
      const { t, game, plain } = suite();
      const answer = await fetchJson(t, `/api/client?client_id=${encodeURIComponent(game.id)}`);
      expect(answer.status).to.equal(200);
      expect(answer.headers.get("content-type")).to.match(/^application\/json/);
      expect(answer.body).to.deep.equal({
        client_id: game.id,
        title: "My Crypto Heroes",
        description: "A blockchain RPG. Play it.",
        logo_url: "https://game.example/logo.png",
        home_url: HOME,
      });
      const bare = await fetchJson(t, `/api/client?client_id=${encodeURIComponent(plain.id)}`);
      expect(bare.body).to.deep.equal({ client_id: plain.id, title: "Plain RP", description: "", logo_url: "", home_url: "" });
      expectStringMap(bare.body, "/api/client");
    });

    it("Authorize, Login (network mainnet, no node), GetToken, ParseIDToken with the PKCS#1 keys and its audience check", async function () {
      const { game } = suite();
      const { wallet, token } = await goLogin(game);
      const p = await goParseVerify(token.id_token);
      expect(p.aud).to.deep.equal([game.id, HOME]);
      expect(p.azp).to.equal(game.id);
      expect(p.sub).to.equal(wallet.address.toLowerCase());
      expect(goCheckValidIDToken(p, Math.floor(Date.now() / 1000), HOME)).to.equal(undefined);
      // The check can fail: a token of another client's home, or an expired one.
      expect(goCheckValidIDToken(p, Math.floor(Date.now() / 1000), "https://other.example/")).to.equal("id token error: audience");
      expect(goCheckValidIDToken(p, p.exp + 1, HOME)).to.equal("id token error: expire");
    });

    it("a refreshed ID token has the same audiences", async function () {
      const { t, game } = suite();
      const { token } = await goLogin(game);
      const refreshed = await refreshTokens(t, game, token.refresh_token, "/api/token");
      expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
      const p = await goParseVerify(refreshed.body.id_token);
      expect(p.aud).to.deep.equal([game.id, HOME]);
      expect(goCheckValidIDToken(p, Math.floor(Date.now() / 1000), HOME)).to.equal(undefined);
    });

    it("without a home_url the audience stays the client id alone (and its check then needs one: docs/guides/migrating-from-mch.md says so)", async function () {
      const { plain } = suite();
      const { token } = await goLogin(plain);
      const p = await goParseVerify(token.id_token);
      expect(p.aud).to.equal(plain.id);
      expect(p).to.not.have.property("azp");
      expect(goCheckValidIDToken(p, Math.floor(Date.now() / 1000), "")).to.equal("id token error: audience");
    });

    it("GetUserInfo: GET /api/userinfo with the Bearer token decodes into its UserInfo (since and services int64)", async function () {
      const { t, game, plain } = suite();
      const wallet = Wallet.createRandom();
      const before = Math.floor(Date.now() / 1000);
      await goLogin(plain, wallet);
      const { token } = await goLogin(game, wallet);
      const answer = await fetchJson(t, `/api/userinfo`, { headers: { authorization: `Bearer ${token.access_token}` } });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.headers.get("content-type")).to.match(/^application\/json/);
      const u = answer.body;
      expect(u).to.have.keys("sub", "address", "since", "first_service", "services");
      expect(u.address).to.equal(wallet.address);
      expect(u.first_service).to.equal(plain.id);
      expectInt64(u.since, "since");
      expect(u.since).to.be.within(before, Math.floor(Date.now() / 1000));
      expect(u.services).to.be.an("object").and.have.keys(plain.id, game.id);
      for (const [id, at] of Object.entries(u.services)) expectInt64(at, `services.${id}`);
      expect(u.services[plain.id]).to.equal(u.since);
      expect(u.services[game.id]).to.be.at.least(u.since);
      // Fields this service cannot know are left out, not sent empty or null.
      for (const field of ["invite_code", "phone_hash", "region", "birthday"]) expect(u).to.not.have.property(field);
    });
  });

  describe("mchplus-auth-js", function () {
    it("getClientInfo: /api/client with client_id and lang picks the language's texts, else English", async function () {
      const { t, game, plain } = suite();
      const info = async (lang: string, client = game) =>
        (await fetchJson(t, `/api/client?${new URLSearchParams({ client_id: client.id, lang })}`)).body;
      expect(await info("ja")).to.deep.include({ title: "マイクリプトヒーローズ", description: "ブロックチェーンRPG" });
      expect(await info("en")).to.deep.include({ title: "My Crypto Heroes", description: "A blockchain RPG. Play it." });
      expect(await info("ja-JP")).to.deep.include({ title: "マイクリプトヒーローズ" });
      expect(await info("fr")).to.deep.include({ title: "My Crypto Heroes" });
      expect(await info("ja", plain)).to.deep.equal({
        client_id: plain.id,
        title: "Plain RP",
        description: "",
        logo_url: "",
        home_url: "",
      });
    });

    it("signAuth: authorize with lang and wallet_name, login as JSON with lang and network (or none for an unknown chain)", async function () {
      const { t, game } = suite();
      for (const network of ["mainnet", "matic-mainnet", undefined]) {
        const wallet = Wallet.createRandom();
        const query = new URLSearchParams({
          response_type: "code",
          scope: "openid profile",
          client_id: game.id,
          wallet_name: "metamask",
          state: String(Math.floor(Math.random() * 100000)),
          redirect_uri: game.redirectUri,
          address: wallet.address,
          lang: "ja",
        });
        const authorize = await fetchJson(t, `/api/authorize?${query}`);
        expect(authorize.status, JSON.stringify(authorize.body)).to.equal(200);
        expect(authorize.body.message).to.include("MCH Game");
        const state = String(Math.floor(Math.random() * 100000));
        // JSON.stringify drops network when the wallet's chain is not in the client's table, as axios sends it.
        const login = await postJson(t, `/api/login`, {
          address: wallet.address,
          client_id: game.id,
          signature: await wallet.signMessage(authorize.body.message),
          network,
          redirect_uri: game.redirectUri,
          lang: "ja",
          state,
        });
        expect(login.status, `${network}: ${JSON.stringify(login.body)}`).to.equal(200);
        expectStringMap(login.body, "/api/login");
        expect(new URL(login.body.redirect_url).searchParams.get("state")).to.equal(state);
      }
    });
  });

  describe("mchplus.js metadata", function () {
    it("posts an EOA issuer's account metadata to /metadata/ethereum/mainnet/<address> without a mainnet node, as it signs it", async function () {
      const { t } = suite();
      const issuer = Wallet.createRandom();
      const account = Wallet.createRandom().address;
      const data = { name: "勇者", level: 3 };
      // btoa(unescape(encodeURIComponent(JSON.stringify(data)))), personal_sign of that Base64, posted as JSON.
      const metadata = Buffer.from(unescape(encodeURIComponent(JSON.stringify(data))), "latin1").toString("base64");
      const posted = await postJson(t, `/metadata/ethereum/mainnet/${account}`, {
        iss: issuer.address,
        sig: await issuer.signMessage(metadata),
        metadata,
      });
      expect(posted).to.deep.include({ status: 200, body: "ok" });
      expect((await fetchJson(t, `/metadata/ethereum/mainnet/${account}`)).body).to.deep.equal({ [issuer.address]: data });
    });
  });

  describe("openid-client v6 with the audience list", function () {
    it("accepts an ID token for [client_id, home_url] with azp, and refreshes", async function () {
      const { t, game } = suite();
      const request = await relyingPartyRequest(t, game, oidc.ClientSecretPost(game.secret!));
      const { config, state, url } = request;
      const wallet = Wallet.createRandom();
      const query = new URLSearchParams(url.search);
      query.set("address", wallet.address);
      const challenge = await fetchJson(t, `/api/authorize?${query}`);
      const login = await postJson(t, `/api/login`, {
        address: wallet.address,
        signature: await wallet.signMessage(challenge.body.message),
        client_id: game.id,
        state,
      });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      const tokens = await relyingPartyCodeGrant(request, login.body.redirect_url);
      const claims = tokens.claims()!;
      expect(claims.aud).to.deep.equal([game.id, HOME]);
      expect(claims.azp).to.equal(game.id);
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.claims()!.aud).to.deep.equal([game.id, HOME]);
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(info.first_service).to.equal(game.id);
    });
  });
});
