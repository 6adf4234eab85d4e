import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../../server/app";
import { addClient } from "../../../server/auth/clients";
import { redactUrl } from "../../../server/http/log-redact";
import { testConfig } from "../../helpers/app";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

const ISSUER = "https://login.example";
const FORGED = {
  host: "evil.example",
  "x-forwarded-host": "evil.example",
  "x-forwarded-proto": "http",
  forwarded: "host=evil.example;proto=http",
};

describe("URLs from ISSUER and secrets kept out of logs", function () {
  let database: TestDatabase;
  let app: FastifyInstance;
  const lines: string[] = [];

  before(async function () {
    database = await createTestDatabase();
    const { database: databaseConfig, db } = await database.appOptions();
    // TRUST_PROXY on: forwarded headers are believed for the client address, and must still not name our host.
    const config = { ...testConfig({ ISSUER, TRUST_PROXY: "true", LOG_LEVEL: "info" }), database: databaseConfig };
    app = await buildApp(config, { db, logStream: { write: (line: string) => void lines.push(line) } });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  describe("discovery, JWKS and redirects", function () {
    it("names only ISSUER's URLs in discovery whatever the Host and X-Forwarded-* headers say", async function () {
      for (const headers of [{}, FORGED, { host: "evil.example" }]) {
        const response = await app.inject({ url: "/.well-known/openid-configuration", headers });
        expect(response.statusCode).to.equal(200);
        const discovery = response.json();
        expect(discovery.issuer).to.equal(ISSUER);
        for (const key of ["authorization_endpoint", "token_endpoint", "jwks_uri", "userinfo_endpoint", "revocation_endpoint"]) {
          expect(discovery[key], key).to.match(new RegExp(`^${ISSUER}/`));
        }
        expect(response.body).to.not.include("evil.example");
      }
    });

    it("lets shared caches keep discovery and JWKS (Cache-Control: public, max-age=300)", async function () {
      for (const url of ["/.well-known/openid-configuration", "/jwks"]) {
        const response = await app.inject({ url, headers: FORGED });
        expect(response.statusCode, url).to.equal(200);
        expect(response.headers["cache-control"], url).to.equal("public, max-age=300");
      }
    });

    it("redirects from /authorize without naming the forged host", async function () {
      const { client } = await addClient(app.db, { name: "RP", redirectUris: ["https://rp.example/cb"], public: false });
      const query = new URLSearchParams({
        client_id: client.id,
        redirect_uri: "https://rp.example/cb",
        response_type: "code",
        scope: "openid",
      });
      const response = await app.inject({ url: `/authorize?${query}`, headers: FORGED });
      expect(response.statusCode).to.equal(303);
      expect(String(response.headers.location)).to.match(/^\/interaction\//);
      expect(JSON.stringify(response.headers)).to.not.include("evil.example");
    });

    it("names ISSUER in the OpenAPI document's servers", async function () {
      const response = await app.inject({ url: "/openapi.json", headers: FORGED });
      expect(response.json().servers).to.deep.equal([{ url: ISSUER }]);
    });
  });

  describe("logs", function () {
    const SECRETS = [
      "AccessTok3nSecret",
      "Auth0rizationCodeSecret",
      "ClientSecretValue9",
      "Refr3shTokenSecret",
      "BearerHeaderSecret",
      "Verif1erSecret",
    ];

    it("never contain access tokens, codes, client secrets, refresh tokens or Authorization headers", async function () {
      lines.length = 0;
      await app.inject({ url: `/userinfo?access_token=${SECRETS[0]}` });
      await app.inject({ url: "/userinfo", headers: { authorization: `Bearer ${SECRETS[4]}` } });
      await app.inject({
        method: "POST",
        url: "/token",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          grant_type: "authorization_code",
          code: SECRETS[1],
          client_id: "x",
          client_secret: SECRETS[2],
          code_verifier: SECRETS[5],
        }).toString(),
      });
      await app.inject({
        method: "POST",
        url: `/api/token?refresh_token=${SECRETS[3]}&client_secret=${SECRETS[2]}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "grant_type=refresh_token",
      });
      await app.inject({ url: `/api/authorize?code=${SECRETS[1]}&state=kept-state` });
      await app.inject({ url: `/nowhere?token=${SECRETS[0]}` });
      expect(lines.length).to.be.at.least(6);
      const all = lines.join("");
      for (const secret of SECRETS) expect(all, secret).to.not.include(secret);
      const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");
      expect(requests.map((entry) => entry.url)).to.include("/userinfo?access_token=[redacted]");
      expect(requests.map((entry) => entry.url)).to.include("/api/authorize?code=[redacted]&state=kept-state");
    });

    it("redacts every credential-like query parameter, keeping names and other values", function () {
      expect(redactUrl("/a?access_token=x&refresh_token=y&id_token_hint=z&client_secret=s&code=c&code_verifier=v&page=2")).to.equal(
        "/a?access_token=[redacted]&refresh_token=[redacted]&id_token_hint=[redacted]&client_secret=[redacted]&code=[redacted]&code_verifier=[redacted]&page=2",
      );
      expect(redactUrl("/a?%61ccess_token=x&b=%zz")).to.equal("/a?%61ccess_token=[redacted]&b=%zz");
      expect(redactUrl("/plain")).to.equal("/plain");
    });
  });
});
