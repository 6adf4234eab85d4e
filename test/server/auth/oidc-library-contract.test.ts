import { createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { expectRefusal } from "../../helpers/refusal";
import type { Adapter, AdapterPayload, Provider } from "oidc-provider";
import { mintCode } from "../../../server/auth/oidc";
import { addIdTokenAudience, compareSecretsWith, loadOidcLibrary, READ_BEFORE_THEIR_GRANT } from "../../../server/auth/oidc/internals";

/** One call oidc-provider made: to the adapter of a model, or to a configuration hook. */
interface Call {
  kind: string;
  op: "find" | "upsert" | "consume" | "destroy" | "issueRefreshToken";
  id: string;
  payload?: AdapterPayload;
}

const REDIRECT_URI = "https://rp.example/callback";
const STORED_SECRET = "what-the-store-holds";
const SENT_SECRET = "what-the-client-sends";
const HOME_URL = "https://rp.example";

/** Clients as server/auth/oidc/adapter.ts hands them over, one per authentication method. */
const CLIENTS: Record<string, AdapterPayload> = Object.fromEntries(
  ["client_secret_post", "client_secret_basic"].map((method) => [
    method,
    {
      client_id: method,
      redirect_uris: [REDIRECT_URI],
      response_types: ["code"],
      grant_types: ["authorization_code", "refresh_token"],
      id_token_signed_response_alg: "RS256",
      token_endpoint_auth_method: method as "client_secret_post" | "client_secret_basic",
      client_secret: STORED_SECRET,
    },
  ]),
);

/**
 * The internals of oidc-provider we rely on (server/auth/oidc/internals.ts, docs/reference/oidc-provider.md), one `it` each, on
 * the installed library with a storage that records what it is asked: when oidc-provider is upgraded, the failing
 * ones say which reliance broke.
 */
describe("oidc-provider: the internals we rely on", function () {
  this.timeout(30_000);
  let provider: Provider;
  let server: Server;
  let url: string;
  const calls: Call[] = [];
  const store = new Map<string, AdapterPayload>();
  const pristine: { compareClientSecret?: unknown; issue?: unknown } = {};
  const secretsCompared: Array<[sent: string, stored: string | null]> = [];
  const audiencesAsked: string[] = [];
  const contexts: Array<{ before: unknown; after: unknown; again: unknown; own: PropertyDescriptor | undefined }> = [];
  const jwk = { ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }), kid: "contract" };

  function adapter(kind: string): Adapter {
    const record = (op: Call["op"], id: string, payload?: AdapterPayload) => calls.push({ kind, op, id, ...(payload ? { payload } : {}) });
    const read = (id: string) => (kind === "Client" ? CLIENTS[id] : structuredClone(store.get(`${kind}:${id}`)));
    return {
      async upsert(id, payload) {
        record("upsert", id, payload);
        store.set(`${kind}:${id}`, structuredClone(payload));
      },
      async find(id) {
        record("find", id);
        return read(id);
      },
      findByUid: async () => undefined,
      findByUserCode: async () => undefined,
      async consume(id) {
        record("consume", id);
        const payload = store.get(`${kind}:${id}`);
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        record("destroy", id);
        store.delete(`${kind}:${id}`);
      },
      async revokeByGrantId() {},
    };
  }

  before(async function () {
    const { Provider } = await loadOidcLibrary();
    provider = new Provider("http://127.0.0.1", {
      adapter,
      jwks: { keys: [jwk] },
      scopes: ["openid", "offline_access"],
      clientAuthMethods: ["client_secret_basic", "client_secret_post"],
      enabledJWA: { idTokenSigningAlgValues: ["RS256"] },
      ttl: { AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600, RefreshToken: 3600, Grant: 3600 },
      findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
      async issueRefreshToken(_ctx, client) {
        calls.push({ kind: "configuration", op: "issueRefreshToken", id: client.clientId });
        return true;
      },
      features: { devInteractions: { enabled: false }, userinfo: { enabled: true } },
    });
    pristine.compareClientSecret = provider.Client.prototype.compareClientSecret;
    pristine.issue = provider.IdToken.prototype.issue;
    compareSecretsWith(provider, (sent, stored) => {
      secretsCompared.push([sent, stored]);
      return sent === SENT_SECRET && stored === STORED_SECRET;
    });
    addIdTokenAudience(provider, async (clientId) => {
      audiencesAsked.push(clientId);
      return clientId === "client_secret_post" ? HOME_URL : undefined;
    });
    // Runs before oidc-provider's router: what a request's context holds before and after the provider handles it.
    provider.use(async (ctx, next) => {
      const before = ctx.oidc;
      await next();
      contexts.push({ before, after: ctx.oidc, again: ctx.oidc, own: Object.getOwnPropertyDescriptor(ctx, "oidc") });
    });
    server = createServer(provider.callback());
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => server.close());

  beforeEach(function () {
    calls.length = secretsCompared.length = audiencesAsked.length = contexts.length = 0;
  });

  /** A code minted as /api/login mints one (server/auth/oidc/provider.ts). */
  const mint = (clientId = "client_secret_post") =>
    mintCode(provider, {
      clientId,
      sub: "0x00000000000000000000000000000000000000aa",
      redirectUri: REDIRECT_URI,
      scope: "openid offline_access",
    });

  async function token(form: Record<string, string>, clientId = "client_secret_post", secret = SENT_SECRET): Promise<Response> {
    const basic = clientId === "client_secret_basic";
    return fetch(`${url}/token`, {
      method: "POST",
      headers: basic ? { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` } : {},
      body: new URLSearchParams({ ...form, ...(basic ? {} : { client_id: clientId, client_secret: secret }) }),
    });
  }

  async function exchange(clientId = "client_secret_post") {
    const code = await mint(clientId);
    calls.length = 0;
    const response = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }, clientId);
    expect(response.status, await response.clone().text()).to.equal(200);
    const tokens = (await response.json()) as { access_token: string; refresh_token: string; id_token: string };
    return { code, grantId: store.get(`AuthorizationCode:${code}`)!.grantId!, tokens };
  }

  /** Asserts that `calls` read the `kind` record `id`, then its grant, and saved no grant in between. */
  function expectReadThenGrant(kind: string, id: string, grantId: string) {
    const token = calls.findIndex((call) => call.op === "find" && call.kind === kind && call.id === id);
    const grant = calls.findIndex((call) => call.op === "find" && call.kind === "Grant" && call.id === grantId);
    expect(token, `${kind} read`).to.be.greaterThan(-1);
    expect(grant, `its grant read after it: ${JSON.stringify(calls.map((call) => `${call.op} ${call.kind}`))}`).to.be.greaterThan(token);
    expect(calls.slice(token, grant).filter((call) => call.kind === "Grant" && call.op !== "find")).to.deep.equal([]);
  }

  describe("the order the adapter relies on (server/auth/oidc/adapter.ts answers a grant from its token's query)", function () {
    it("names the kinds whose find is followed by their grant's: codes, refresh tokens, access tokens", function () {
      expect([...READ_BEFORE_THEIR_GRANT].sort()).to.deep.equal(["AccessToken", "AuthorizationCode", "RefreshToken"]);
    });

    it("a code exchange reads the code, then its grant", async function () {
      const { code, grantId } = await exchange();
      expectReadThenGrant("AuthorizationCode", code, grantId);
    });

    it("a refresh reads the refresh token, then its grant", async function () {
      const { grantId, tokens } = await exchange();
      calls.length = 0;
      const response = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
      expect(response.status, await response.clone().text()).to.equal(200);
      expectReadThenGrant("RefreshToken", tokens.refresh_token, grantId);
    });

    it("userinfo reads the access token, then its grant", async function () {
      const { grantId, tokens } = await exchange();
      calls.length = 0;
      const response = await fetch(`${url}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(response.status, await response.clone().text()).to.equal(200);
      expectReadThenGrant("AccessToken", tokens.access_token, grantId);
    });

    it("a code exchange consumes the code, then saves the access token, then asks issueRefreshToken, then saves the refresh token", async function () {
      await exchange();
      const writes = calls.filter((call) => call.op !== "find");
      expect(writes.map((call) => `${call.op} ${call.kind}`)).to.deep.equal([
        "consume AuthorizationCode",
        "upsert AccessToken",
        "issueRefreshToken configuration",
        "upsert RefreshToken",
      ]);
      expect(writes[1].payload?.gty, "what the adapter tells an exchange's access token by").to.equal("authorization_code");
    });
  });

  describe("Client.prototype.compareClientSecret (hashed secrets, server/auth/clients.ts)", function () {
    it("is a method of the client prototype, the one oidc-provider calls for client_secret_post and client_secret_basic, and its answer decides", async function () {
      expect(pristine.compareClientSecret).to.be.a("function");
      for (const clientId of ["client_secret_post", "client_secret_basic"]) {
        secretsCompared.length = 0;
        await exchange(clientId);
        expect(secretsCompared, clientId).to.deep.equal([[SENT_SECRET, STORED_SECRET]]);
        const refused = await token(
          { grant_type: "authorization_code", code: await mint(clientId), redirect_uri: REDIRECT_URI },
          clientId,
          STORED_SECRET,
        );
        await expectRefusal(refused, 401, "invalid_client", { dialect: "oauth", label: clientId, extraKeys: ["error_uri"] });
      }
    });
  });

  describe("IdToken.prototype.issue (a second audience for a client's home_url)", function () {
    it("is the method that signs every ID token, taking `aud` from the client's clientId", async function () {
      expect(pristine.issue).to.be.a("function");
      const { tokens } = await exchange("client_secret_post");
      expect(audiencesAsked).to.deep.equal(["client_secret_post"]);
      const [header, payload, signature] = tokens.id_token.split(".");
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
      expect(claims).to.include({ azp: "client_secret_post", iss: "http://127.0.0.1" });
      expect(claims.aud).to.deep.equal(["client_secret_post", HOME_URL]);
      const key = createPublicKey({ key: jwk, format: "jwk" });
      expect(verify("sha256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"))).to.equal(true);

      const plain = JSON.parse(Buffer.from((await exchange("client_secret_basic")).tokens.id_token.split(".")[1], "base64url").toString());
      expect(plain.aud).to.equal("client_secret_basic");
      expect(plain).not.to.have.property("azp");
    });
  });

  // patches/oidc-provider+*.patch: one getter on the Koa context's prototype instead of an accessor, with a closure of
  // its own, defined on every request's context, which kept every request's context alive until the next full
  // garbage collection. server/auth/oidc/internals.ts refuses to start without it.
  describe("the patched ctx.oidc", function () {
    it("gives a routed request its OIDC context through the shared getter, not an accessor of its own", async function () {
      expect((await fetch(`${url}/jwks`)).status).to.equal(200);
      expect(contexts).to.have.length(1);
      expect(contexts[0].before, "before the router").to.equal(undefined);
      expect(contexts[0].after).to.be.an("object").with.property("route", "jwks");
      expect(contexts[0].own, "an own ctx.oidc accessor on every request is what the patch removes").to.equal(undefined);
    });

    it("hands the same OIDC context to every read within one request, and a new one to the next request", async function () {
      await fetch(`${url}/jwks`);
      await fetch(`${url}/jwks`);
      expect(contexts).to.have.length(2);
      expect(contexts[0].again).to.equal(contexts[0].after);
      expect(contexts[0].after).not.to.equal(contexts[1].after);
    });

    it("leaves ctx.oidc undefined on a request no route of the provider takes, as without the patch", async function () {
      expect((await fetch(`${url}/no-such-route`)).status).to.equal(404); // not a refusal of the service: a bare oidc-provider's
      expect(contexts[0].after).to.equal(undefined);
    });
  });
});
