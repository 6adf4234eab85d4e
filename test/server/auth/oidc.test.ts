import { createHash, createPublicKey, randomBytes } from "node:crypto";
import { expect } from "chai";
import { Wallet } from "ethers";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from "jose";
import { fetchJson } from "../../helpers/app";
import { SuiteChain } from "../../helpers/suite-chain";
import { postForm, refreshTokens, registerClient, signedLogin, startLoginApp, type RegisteredClient } from "./helpers";
import { expectRefusal } from "../../helpers/refusal";

describe("OIDC engine (oidc-provider on our database)", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const t = chain.closesWith(await startLoginApp(chain.url));
    return {
      t,
      client: await registerClient(t, { name: "Confidential RP" }),
      other: await registerClient(t, { name: "Other RP", redirectUris: ["https://rp.example/callback"] }),
      spa: await registerClient(t, { name: "SPA", redirectUris: ["http://localhost:5173/cb"], public: true }),
    };
  });

  const pkcePair = () => {
    const verifier = randomBytes(32).toString("base64url");
    return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
  };

  /** Logs a fresh EOA in through the JSON API; returns the code. */
  async function codeFor(c: RegisteredClient, extra: Record<string, string> = {}, wallet = Wallet.createRandom()) {
    const answer = await signedLogin(suite().t, c, wallet, extra);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return { code: answer.body.code as string, wallet };
  }
  const exchange = (form: Record<string, string>, headers: Record<string, string> = {}, path = "/token") =>
    postForm(suite().t, path, form, headers);
  const codeForm = (c: RegisteredClient, code: string, extra: Record<string, string> = {}) => ({
    grant_type: "authorization_code",
    code,
    redirect_uri: c.redirectUri,
    client_id: c.id,
    ...(c.secret ? { client_secret: c.secret } : {}),
    ...extra,
  });
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
  });
  /** RFC 6750 §3: a refused access token names the scheme and the error in WWW-Authenticate. */
  const BEARER_REFUSED = { "www-authenticate": /^Bearer realm="[^"]+", error="invalid_token"/ };
  const userinfo = (accessToken: string) => fetchJson(suite().t, `/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

  describe("discovery and keys", function () {
    it("publishes the endpoints, code flow only, PKCE S256 only and the three client authentication methods", async function () {
      const { t } = suite();
      const { status, body } = await fetchJson(t, `/.well-known/openid-configuration`);
      expect(status).to.equal(200);
      expect(body).to.include({
        issuer: t.config.issuer,
        authorization_endpoint: `${t.config.issuer}/authorize`,
        token_endpoint: `${t.config.issuer}/token`,
        userinfo_endpoint: `${t.config.issuer}/userinfo`,
        jwks_uri: `${t.config.issuer}/jwks`,
      });
      expect(body.response_types_supported).to.deep.equal(["code"]);
      expect(body.code_challenge_methods_supported).to.deep.equal(["S256"]);
      expect(body.token_endpoint_auth_methods_supported).to.have.members(["client_secret_basic", "client_secret_post", "none"]);
      expect(body.id_token_signing_alg_values_supported).to.deep.equal(["RS256"]);
    });

    it("signs ID tokens with an RS256 key published in the JWKS and at /api/metadata/x509", async function () {
      const { t, client } = suite();
      const { code } = await codeFor(client, { nonce: "n" });
      const tokens = (await exchange(codeForm(client, code))).body;
      const { kid, alg } = decodeProtectedHeader(tokens.id_token);
      expect(alg).to.equal("RS256");
      const jwks = (await fetchJson(t, `/jwks`)).body;
      expect(jwks.keys.map((k: { kid: string }) => k.kid)).to.include(kid);
      expect(jwks.keys.every((k: Record<string, unknown>) => k.d === undefined)).to.equal(true);
      const pems = (await fetchJson(t, `/api/metadata/x509`)).body as Record<string, string>;
      expect(Object.keys(pems)).to.deep.equal([kid]);
      const { payload } = await jwtVerify(tokens.id_token, createPublicKey(pems[kid as string]), {
        issuer: t.config.issuer,
        audience: client.id,
      });
      expect(payload.nonce).to.equal("n");
    });

    it("keeps its keys in the database: a second instance publishes the same ones", async function () {
      const { t, chain } = suite();
      const second = await startLoginApp(chain.url, { database: t.database });
      try {
        expect((await fetchJson(second, `/api/metadata/x509`)).body).to.deep.equal((await fetchJson(t, `/api/metadata/x509`)).body);
      } finally {
        await second.close();
      }
    });

    it("signs with the keys of OIDC_JWKS when given", async function () {
      const { chain } = suite();
      const { privateKey } = await generateKeyPair("RS256", { extractable: true });
      const jwk = { ...(await exportJWK(privateKey)), kid: "env-key-1" };
      const app = await startLoginApp(chain.url, { env: { OIDC_JWKS: JSON.stringify({ keys: [jwk] }) } });
      try {
        expect(Object.keys((await fetchJson(app, `/api/metadata/x509`)).body)).to.deep.equal(["env-key-1"]);
      } finally {
        await app.close();
      }
    });
  });

  describe("token endpoint", function () {
    it("takes client_secret_post and client_secret_basic, on /token and /api/token", async function () {
      const { client } = suite();
      for (const path of ["/token", "/api/token"]) {
        const post = await exchange(codeForm(client, (await codeFor(client)).code), {}, path);
        expect(post.status, JSON.stringify(post.body)).to.equal(200);
        expect(post.body).to.include.keys("access_token", "token_type", "expires_in", "refresh_token", "id_token");
        const { code } = await codeFor(client);
        const viaBasic = await exchange(
          { grant_type: "authorization_code", code, redirect_uri: client.redirectUri },
          basic(client.id, client.secret!),
          path,
        );
        expect(viaBasic.status, JSON.stringify(viaBasic.body)).to.equal(200);
      }
    });

    it("refuses a wrong secret, no secret, the stored hash as a secret, and secrets both in a header and the body (RFC 6749 errors)", async function () {
      const { t, client } = suite();
      const { rows } = await t.app.db.query<{ secret_hash: string }>("SELECT secret_hash FROM login_clients WHERE id = $1", [client.id]);
      for (const [secret, status, code] of [
        ["wrong", 401, "invalid_client"],
        [rows[0].secret_hash, 401, "invalid_client"],
        ["", 401, "invalid_client"],
      ] as const) {
        const answer = await exchange(codeForm(client, (await codeFor(client)).code, { client_secret: secret }));
        await expectRefusal(answer, status, code, { dialect: "oauth", label: secret });
      }
      const { code } = await codeFor(client);
      const both = await exchange(codeForm(client, code), basic(client.id, client.secret!));
      await expectRefusal(both, 400, "invalid_request", { dialect: "oauth" });
      // Refused requests did not use the code up.
      expect((await exchange(codeForm(client, code))).status).to.equal(200);
    });

    it("keeps codes at most 60 seconds and refuses an expired one", async function () {
      const { t, client, chain } = suite();
      const { code } = await codeFor(client);
      const { rows } = await t.app.db.query<{ payload: { exp: number; iat: number } }>(
        "SELECT payload FROM oidc_payloads WHERE kind = 'AuthorizationCode' AND id = $1",
        [code],
      );
      expect(rows[0].payload.exp - rows[0].payload.iat).to.be.at.most(60);
      await t.app.db.query(
        "UPDATE oidc_payloads SET payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch FROM now())::int - 1)) WHERE kind = 'AuthorizationCode' AND id = $1",
        [code],
      );
      // Exchanged at another instance, which reads the code from the database (the instance that minted it remembers
      // the code as it was: see MintedCodes' own test for its expiry).
      const otherInstance = await startLoginApp(chain.url, { database: t.database });
      try {
        const answer = await postForm(otherInstance, "/token", codeForm(client, code));
        await expectRefusal(answer, 400, "invalid_grant", { dialect: "oauth" });
      } finally {
        await otherInstance.close();
      }
    });

    it("refuses a reused code and revokes the tokens issued from it", async function () {
      const { t, client } = suite();
      const { code } = await codeFor(client);
      const first = await exchange(codeForm(client, code));
      expect(first.status).to.equal(200);
      expect((await userinfo(first.body.access_token)).status).to.equal(200);
      const second = await exchange(codeForm(client, code));
      await expectRefusal(second, 400, "invalid_grant", { dialect: "oauth" });
      await expectRefusal(await userinfo(first.body.access_token), 401, "invalid_token", { dialect: "oauth", headers: BEARER_REFUSED });
      const refresh = await refreshTokens(t, client, first.body.refresh_token);
      await expectRefusal(refresh, 400, "invalid_grant", { dialect: "oauth" });
    });

    it("binds the code to its client and redirect_uri", async function () {
      const { client, other } = suite();
      const { code } = await codeFor(client);
      const otherClient = await exchange(codeForm(other, code));
      await expectRefusal(otherClient, 400, "invalid_grant", { dialect: "oauth" });
      const otherUri = await exchange(codeForm(client, code, { redirect_uri: "https://rp.example/callback/" }));
      await expectRefusal(otherUri, 400, "invalid_grant", { dialect: "oauth" });
      const noUri = await exchange({ grant_type: "authorization_code", code, client_id: client.id, client_secret: client.secret! });
      await expectRefusal(noUri, 400, "invalid_request", { dialect: "oauth" });
    });

    it("lets a public client in with PKCE and no secret; refuses a wrong or missing verifier", async function () {
      const { spa } = suite();
      const pkce = pkcePair();
      const pkceParams = { code_challenge: pkce.challenge, code_challenge_method: "S256" };
      const ok = await exchange(codeForm(spa, (await codeFor(spa, pkceParams)).code, { code_verifier: pkce.verifier }));
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      const wrong = await exchange(codeForm(spa, (await codeFor(spa, pkceParams)).code, { code_verifier: pkcePair().verifier }));
      await expectRefusal(wrong, 400, "invalid_grant", { dialect: "oauth" });
      const missing = await exchange(codeForm(spa, (await codeFor(spa, pkceParams)).code));
      await expectRefusal(missing, 400, "invalid_grant", { dialect: "oauth" });
    });

    it("refuses a verifier sent for a code that had no challenge", async function () {
      const { client } = suite();
      const { code } = await codeFor(client);
      const answer = await exchange(codeForm(client, code, { code_verifier: pkcePair().verifier }));
      await expectRefusal(answer, 400, "invalid_grant", { dialect: "oauth" });
    });

    it("refreshes tokens (refresh_token grant) on /api/token", async function () {
      const { client } = suite();
      const { code, wallet } = await codeFor(client);
      const first = (await exchange(codeForm(client, code), {}, "/api/token")).body;
      const refreshed = await exchange(
        { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: client.id, client_secret: client.secret! },
        {},
        "/api/token",
      );
      expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
      expect(refreshed.body.access_token).to.not.equal(first.access_token);
      expect(decodeJwt(refreshed.body.id_token).sub).to.equal(wallet.address.toLowerCase());
    });

    it("answers malformed token requests with RFC 6749 errors, never a 5xx", async function () {
      const { t, client } = suite();
      const cases: Array<[string, RequestInit]> = [
        [
          "JSON body",
          { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "authorization_code" }) },
        ],
        ["malformed JSON", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }],
        ["text/plain", { method: "POST", headers: { "content-type": "text/plain" }, body: "grant_type=x" }],
        ["empty form", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" }],
        [
          "no grant_type",
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: `client_id=${client.id}&client_secret=${client.secret}`,
          },
        ],
        [
          "unknown grant_type",
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: `grant_type=password&client_id=${client.id}&client_secret=${client.secret}`,
          },
        ],
        [
          "garbage Basic header",
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Basic !!!" },
            body: "grant_type=authorization_code",
          },
        ],
        [
          "Basic without colon",
          {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              authorization: `Basic ${Buffer.from("abc").toString("base64")}`,
            },
            body: "grant_type=authorization_code",
          },
        ],
        [
          "Basic with bad percent-encoding",
          {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              authorization: `Basic ${Buffer.from("%zz:%zz").toString("base64")}`,
            },
            body: "grant_type=authorization_code",
          },
        ],
        [
          "repeated parameter",
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: `grant_type=authorization_code&grant_type=authorization_code&client_id=${client.id}`,
          },
        ],
        [
          "unknown code",
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(codeForm(client, "nope")).toString(),
          },
        ],
        [
          "unknown client",
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "grant_type=authorization_code&code=x&redirect_uri=x&client_id=nope&client_secret=x",
          },
        ],
      ];
      // RFC 6749 §5.2: a client that failed to authenticate is a 401 invalid_client, any other refusal a 400.
      const expected: Record<string, [status: number, code: string]> = {
        "JSON body": [400, "invalid_request"],
        "malformed JSON": [400, "invalid_request"],
        "text/plain": [400, "invalid_request"],
        "empty form": [400, "invalid_request"],
        "no grant_type": [400, "invalid_request"],
        "unknown grant_type": [400, "unsupported_grant_type"],
        "garbage Basic header": [400, "invalid_request"],
        "Basic without colon": [400, "invalid_request"],
        "Basic with bad percent-encoding": [400, "invalid_request"],
        "repeated parameter": [401, "invalid_client"],
        "unknown code": [400, "invalid_grant"],
        "unknown client": [401, "invalid_client"],
      };
      for (const path of ["/token", "/api/token"]) {
        for (const [what, init] of cases) {
          await expectRefusal(await t.fetch(path, init), ...expected[what], { dialect: "oauth", label: `${path} ${what}` });
        }
      }
    });
  });

  describe("revocation", function () {
    // RFC 7009's 200 has no body: the answer is read as it comes, not as JSON.
    const revoke = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      suite().t.fetch("/token/revocation", { method: "POST", headers, body: new URLSearchParams(form) });

    it("revokes an access token (RFC 7009), authenticated like the token endpoint", async function () {
      const { client, other } = suite();
      const { code } = await codeFor(client);
      const tokens = (await exchange(codeForm(client, code))).body;
      expect((await userinfo(tokens.access_token)).status).to.equal(200);
      // Another client cannot revoke it (RFC 7009 answers 200 all the same).
      expect((await revoke({ token: tokens.access_token }, basic(other.id, other.secret!))).status).to.equal(200);
      expect((await userinfo(tokens.access_token)).status).to.equal(200);
      const revoked = await revoke({ token: tokens.access_token }, basic(client.id, client.secret!));
      expect(revoked.status, await revoked.text()).to.equal(200);
      await expectRefusal(await userinfo(tokens.access_token), 401, "invalid_token", { dialect: "oauth", headers: BEARER_REFUSED });
      const wrongSecret = await revoke({ token: tokens.refresh_token, client_id: client.id, client_secret: "nope" });
      await expectRefusal(wrongSecret, 401, "invalid_client", { dialect: "oauth" });
    });
  });

  describe("userinfo", function () {
    it("answers sub and the checksummed address", async function () {
      const { client } = suite();
      const { code, wallet } = await codeFor(client);
      const tokens = (await exchange(codeForm(client, code))).body;
      const answer = await userinfo(tokens.access_token);
      expect(answer.body).to.include({ sub: wallet.address.toLowerCase(), address: wallet.address, first_service: client.id });
    });
    it("refuses a bad token with 401", async function () {
      await expectRefusal(await userinfo("nope"), 401, "invalid_token", { dialect: "oauth", headers: BEARER_REFUSED });
    });
  });

  describe("authorization endpoint", function () {
    it("sends a browser with a valid request to the hosted page", async function () {
      const { t, client } = suite();
      const query = new URLSearchParams({ client_id: client.id, redirect_uri: client.redirectUri, response_type: "code", scope: "openid" });
      const response = await t.fetch(`/authorize?${query}`, { redirect: "manual" });
      expect(response.status).to.be.oneOf([302, 303]);
      expect(response.headers.get("location")).to.match(/^\/interaction\/[\w-]+$/);
    });
    it("shows an error, never a redirect, for an unregistered redirect_uri", async function () {
      const { t, client } = suite();
      const query = new URLSearchParams({
        client_id: client.id,
        redirect_uri: "https://evil.example/cb",
        response_type: "code",
        scope: "openid",
      });
      const response = await t.fetch(`/authorize?${query}`, { redirect: "manual" });
      expect(response.headers.get("location")).to.equal(null);
      await expectRefusal(response, 400, "invalid_redirect_uri", { dialect: "html" });
    });
    it("refuses a public client's request without PKCE, and plain PKCE", async function () {
      const { t, spa } = suite();
      for (const extra of [{}, { code_challenge: pkcePair().challenge, code_challenge_method: "plain" }] as Record<string, string>[]) {
        const query = new URLSearchParams({
          client_id: spa.id,
          redirect_uri: spa.redirectUri,
          response_type: "code",
          scope: "openid",
          state: "s",
          ...extra,
        });
        const response = await t.fetch(`/authorize?${query}`, { redirect: "manual" });
        // Errors about a valid client and redirect URI go back to the client (RFC 6749 §4.1.2.1).
        const location = new URL(response.headers.get("location") ?? "http://x/");
        expect(location.searchParams.get("error")).to.equal("invalid_request");
      }
    });
  });
});
