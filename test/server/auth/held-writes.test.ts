import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { Wallet } from "ethers";
import { RecentChallenges } from "../../../server/auth/challenges";
import { addClient, CachedClients } from "../../../server/auth/clients";
import { loadKeys } from "../../../server/auth/keys";
import { authorize, redeem, type LoginDeps } from "../../../server/auth/login";
import { createProvider, inRequestScope, MintedCodes, type Provider } from "../../../server/auth/oidc";
import { Networks } from "../../../server/chain/networks";
import type { Database } from "../../../server/db/database";
import { migrate } from "../../../server/db/migrate";
import { systemClock } from "../../../server/lib/clock";
import { testConfig } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { withQueryHook } from "../../../support/query-hook";
import { expectRefusal } from "../../helpers/refusal";

/** The models whose adapter calls the holding depends on (clients are read through CachedClients, not held). */
const MODELS = ["AuthorizationCode", "Grant", "AccessToken", "RefreshToken"] as const;
const METHODS = ["find", "upsert", "consume", "destroy", "revokeByGrantId"] as const;

/**
 * The order of oidc-provider's adapter calls that server/auth/oidc/held-writes.ts relies on, and the statements that
 * reach the database in that order, through the real oidc-provider, adapter and database: one timeline of
 * `<call> <model>` and `sql <first words>`. A change of oidc-provider's order (e.g. a grant read before its code, the
 * access token saved before the code is consumed) changes the timeline and fails here, before it costs a round trip.
 */
describe("held writes: oidc-provider's order of adapter calls and the statements it makes", function () {
  this.timeout(60_000);
  const ip = "198.51.100.9";
  const redirectUri = "https://rp.example/cb";
  let database: TestDatabase;
  let db: Database;
  let server: Server;
  let url: string;
  /** The instance that mints the codes (it remembers them), and another one on the same database (it reads them). */
  const instances: Record<"here" | "elsewhere", { provider?: Provider; minted: MintedCodes }> = {
    here: { minted: new MintedCodes(systemClock) },
    elsewhere: { minted: new MintedCodes(systemClock) },
  };
  let deps: LoginDeps;
  let confidential: { id: string; secret: string };
  let publicClient: { id: string };
  const timeline: string[] = [];

  before(async function () {
    database = await createTestDatabase();
    const opened = await database.open();
    await migrate(opened);
    db = withQueryHook(opened, (sql, _params, run) => {
      // Client reads are cached by time (a second), not by the order under test.
      if (!/login_clients/.test(sql)) timeline.push(`sql ${sql.replace(/\s+/g, " ").trim().split(" ").slice(0, 3).join(" ")}`);
      return run();
    });
    // The providers' HTTP server as routes/oidc.ts runs it: each request in the adapter's request scope.
    let route: (path: string) => Provider = () => expect.fail("no provider yet");
    server = createServer((request, response) => {
      const [, instance, path] = /^\/(here|elsewhere)(\/.*)$/.exec(request.url ?? "") ?? [];
      request.url = path;
      const basic = /^basic\s/i.test(request.headers.authorization ?? "");
      inRequestScope({ basic }, () => route(instance).callback()(request, response));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const nodeUrl = (await sharedNode()).url;
    const config = testConfig({ ISSUER: url, RPC_URL_LOCALHOST: nodeUrl, DEFAULT_NETWORK: "localhost" }, database.config);
    const keys = await loadKeys(opened);
    for (const instance of Object.values(instances)) {
      const provider = await createProvider({ config, db, clients: new CachedClients(opened), keys, minted: instance.minted });
      instance.provider = provider;
      for (const model of MODELS) {
        const adapter = provider[model].adapter;
        for (const method of METHODS) {
          const call = adapter[method].bind(adapter) as (...args: unknown[]) => Promise<unknown>;
          (adapter as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
            timeline.push(`${method} ${model}`);
            return call(...args);
          };
        }
      }
    }
    route = (instance) => instances[instance as "here" | "elsewhere"].provider!;
    deps = {
      db,
      clients: new CachedClients(opened),
      networks: new Networks({ localhost: nodeUrl }, 10_000),
      provider: instances.here.provider!,
      settings: { issuer: url, defaultNetwork: "localhost", messageHeader: "Wallet Login", maxOpenChallenges: 10 },
      recent: new RecentChallenges(systemClock),
      minted: instances.here.minted,
      clock: systemClock,
    };
    const added = await addClient(opened, { name: "Example RP", redirectUris: [redirectUri], public: false });
    confidential = { id: added.client.id, secret: added.secret! };
    publicClient = (await addClient(opened, { name: "SPA", redirectUris: [redirectUri], public: true })).client;
  });
  after(async function () {
    server?.close();
    await database?.drop();
  });

  /** What `fn` resolved to, and what it added to the timeline. */
  async function sequenceOf<T>(fn: () => Promise<T>): Promise<{ answer: T; sequence: string[] }> {
    timeline.length = 0;
    const answer = await fn();
    return { answer, sequence: [...timeline] };
  }

  /** A login at the login service (minted by "here"): the code. */
  async function login(clientId = confidential.id, pkce: Record<string, string> = {}): Promise<string> {
    const wallet = Wallet.createRandom();
    const request = { client_id: clientId, redirect_uri: redirectUri, response_type: "code", scope: "openid offline_access", ...pkce };
    const message = await authorize(deps, { ...request, address: wallet.address }, { ip: ip });
    const { code } = await redeem(
      deps,
      { address: wallet.address, signature: await wallet.signMessage(message), client_id: clientId },
      { ip: ip },
    );
    return code;
  }

  async function token(instance: "here" | "elsewhere", form: Record<string, string>) {
    const response = await fetch(`${url}/${instance}/token`, { method: "POST", body: new URLSearchParams(form) });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }
  const exchange = (instance: "here" | "elsewhere", code: string) =>
    token(instance, {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      client_id: confidential.id,
      client_secret: confidential.secret,
    });

  it("a login holds the grant and the code, and stores them with the statement that redeems the challenge", async function () {
    const wallet = Wallet.createRandom();
    const request = { client_id: confidential.id, redirect_uri: redirectUri, response_type: "code", scope: "openid offline_access" };
    const message = await authorize(deps, { ...request, address: wallet.address }, { ip: ip });
    const signature = await wallet.signMessage(message);
    const { answer, sequence } = await sequenceOf(() =>
      redeem(deps, { address: wallet.address, signature, client_id: confidential.id }, { ip: ip }),
    );
    expect(answer.code).to.be.a("string");
    expect(sequence).to.deep.equal([
      "upsert Grant", // held (holdWrites)
      "upsert AuthorizationCode", // held
      "sql WITH counted AS", // the challenge redeemed, the grant and the code stored, the login recorded
    ]);
  });

  it("a code exchange at the instance that minted it: the code and grant from memory, then one statement for the consumption and both tokens", async function () {
    const code = await login();
    const { answer, sequence } = await sequenceOf(() => exchange("here", code));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include.keys("access_token", "refresh_token", "id_token");
    expect(sequence).to.deep.equal([
      "find AuthorizationCode", // from MintedCodes, its grant kept for the next find
      "find Grant", // answered from the code's find: needs the code read before its grant
      "consume AuthorizationCode", // held
      "upsert AccessToken", // held (gty authorization_code)
      "upsert RefreshToken", // takes the consumption and the access token along:
      "sql WITH counted AS",
    ]);
    await expectStored(code, answer.body);
  });

  it("a code exchange at another instance: the code read with its grant in one query, then the same one statement", async function () {
    const code = await login();
    const { answer, sequence } = await sequenceOf(() => exchange("elsewhere", code));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(sequence).to.deep.equal([
      "find AuthorizationCode",
      "sql SELECT kind, payload,", // the code and its grant
      "find Grant", // answered from that query
      "consume AuthorizationCode",
      "upsert AccessToken",
      "upsert RefreshToken",
      "sql WITH counted AS",
    ]);
    await expectStored(code, answer.body);
  });

  it("a code exchanged again: oidc-provider finds it used before consuming it, and revokes its grant, nothing held", async function () {
    const code = await login();
    const first = await exchange("here", code);
    expect(first.status).to.equal(200);
    const { answer, sequence } = await sequenceOf(() => exchange("elsewhere", code));
    await expectRefusal(answer, 400, "invalid_grant", { dialect: "oauth", message: "grant request is invalid" });
    expect(sequence).to.deep.equal([
      "find AuthorizationCode",
      "sql SELECT kind, payload,",
      "find Grant",
      "revokeByGrantId AccessToken",
      "sql DELETE FROM oidc_payloads",
      "revokeByGrantId RefreshToken",
      "sql DELETE FROM oidc_payloads",
      "revokeByGrantId AuthorizationCode",
      "sql DELETE FROM oidc_payloads",
      "destroy Grant",
      "sql DELETE FROM oidc_payloads",
    ]);
    const { rows } = await db.query("SELECT 1 FROM oidc_payloads WHERE id = ANY($1)", [
      [first.body.access_token, first.body.refresh_token],
    ]);
    expect(rows).to.deep.equal([]);
  });

  it("a refresh (confidential client): the refresh token read with its grant, the new access token stored as it comes", async function () {
    const tokens = (await exchange("here", await login())).body;
    const { answer, sequence } = await sequenceOf(() =>
      token("elsewhere", {
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: confidential.id,
        client_secret: confidential.secret,
      }),
    );
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(sequence).to.deep.equal([
      "find RefreshToken",
      "sql SELECT kind, payload,", // the refresh token and its grant
      "find Grant", // answered from that query
      "upsert AccessToken", // not a code exchange's: stored now
      "sql INSERT INTO oidc_payloads",
    ]);
  });

  it("a refresh (public client, rotated): the old refresh token consumed and the new tokens stored as they come, nothing held", async function () {
    const verifier = "v".repeat(43);
    const challenge = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString("base64url");
    const code = await login(publicClient.id, { code_challenge: challenge, code_challenge_method: "S256" });
    const exchanged = await token("here", {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      client_id: publicClient.id,
      code_verifier: verifier,
    });
    expect(exchanged.status, JSON.stringify(exchanged.body)).to.equal(200);
    const { answer, sequence } = await sequenceOf(() =>
      token("here", {
        grant_type: "refresh_token",
        refresh_token: exchanged.body.refresh_token,
        client_id: publicClient.id,
      }),
    );
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(sequence).to.deep.equal([
      "find RefreshToken",
      "sql SELECT kind, payload,",
      "find Grant",
      "consume RefreshToken",
      "sql UPDATE oidc_payloads SET",
      "upsert RefreshToken",
      "sql INSERT INTO oidc_payloads",
      "upsert AccessToken",
      "sql INSERT INTO oidc_payloads",
    ]);
  });

  it("userinfo: the access token read with its grant, nothing written", async function () {
    const tokens = (await exchange("here", await login())).body;
    const { answer, sequence } = await sequenceOf(() =>
      fetch(`${url}/elsewhere/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
    );
    expect(answer.status, "userinfo").to.equal(200);
    expect(sequence).to.deep.equal([
      "find AccessToken",
      "sql SELECT kind, payload,",
      "find Grant",
      "sql SELECT client_id, floor(extract(epoch", // the account's login history, a claim of userinfo
    ]);
  });

  /** The code consumed, the access and refresh tokens stored, by the exchange's one statement. */
  async function expectStored(code: string, tokens: Record<string, string>) {
    const { rows } = await db.query<{ kind: string; consumed: boolean }>(
      "SELECT kind, consumed_at IS NOT NULL AS consumed FROM oidc_payloads WHERE id = ANY($1) ORDER BY kind",
      [[code, tokens.access_token, tokens.refresh_token]],
    );
    expect(rows).to.deep.equal([
      { kind: "AccessToken", consumed: false },
      { kind: "AuthorizationCode", consumed: true },
      { kind: "RefreshToken", consumed: false },
    ]);
  }
});
