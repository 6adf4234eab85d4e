import { expect } from "chai";
import { expectRefusal } from "../../helpers/refusal";
import { Wallet } from "ethers";
import * as oidc from "openid-client";
import { listClients } from "../../../server/auth/clients";
import { fetchJson, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { eoaSigner, relyingPartyLogin, startLoginApp } from "./helpers";

const TOKEN = "initial-access-token-of-at-least-32-chars";

describe("dynamic client registration (RFC 7591)", function () {
  let t: TestApp;
  let nodeUrl: string;

  before(async function () {
    nodeUrl = (await sharedNode()).url;
    t = await startLoginApp(nodeUrl, { listen: true, env: { LOGIN_REGISTRATION_ACCESS_TOKEN: TOKEN } });
  });
  after(async () => t?.close());

  const register = (metadata: Partial<oidc.ClientMetadata>, initialAccessToken: string | undefined = TOKEN) =>
    oidc.dynamicClientRegistration(new URL(t.config.issuer), metadata, undefined, {
      initialAccessToken,
      execute: [oidc.allowInsecureRequests],
    });

  /** A refused registration as openid-client reports it: the status and RFC 7591's error and description. */
  async function refusal(metadata: Partial<oidc.ClientMetadata>, initialAccessToken?: string) {
    try {
      await register(metadata, initialAccessToken);
    } catch (error) {
      // The refusal as openid-client read it: its status and RFC 7591 error body.
      const { status, error: code, error_description: description } = error as { status: number; error: string; error_description: string };
      return { status, body: { error: code, error_description: description } };
    }
    return expect.fail("registered");
  }

  it("is off without LOGIN_REGISTRATION_ACCESS_TOKEN: not in discovery, 404", async function () {
    const off = await startLoginApp(nodeUrl);
    try {
      expect((await fetchJson(off, "/.well-known/openid-configuration")).body).to.not.have.property("registration_endpoint");
      const answer = await fetchJson(off, "/register", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      await expectRefusal(answer, 404, "not_found");
    } finally {
      await off.close();
    }
  });

  it("registers a confidential client, stored with the others, that logs in at once (openid-client's dynamicClientRegistration)", async function () {
    const redirectUri = "https://self.example/callback";
    const config = await register({
      client_name: "Self-registered RP",
      redirect_uris: [redirectUri],
      post_logout_redirect_uris: ["https://self.example/bye"],
    });
    const metadata = config.clientMetadata();
    expect(metadata.client_id).to.be.a("string");
    expect(metadata.client_secret).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(metadata).to.include({
      client_name: "Self-registered RP",
      token_endpoint_auth_method: "client_secret_basic",
      client_secret_expires_at: 0,
    });
    const stored = (await listClients(t.app.db)).find((c) => c.id === metadata.client_id)!;
    expect(stored).to.deep.include({
      name: "Self-registered RP",
      redirectUris: [redirectUri],
      public: false,
      postLogoutRedirectUris: ["https://self.example/bye"],
    });
    expect(stored.secretHash).to.match(/^sha256\$/);

    const client = { id: metadata.client_id, secret: metadata.client_secret as string, redirectUri, name: "Self-registered RP" };
    const wallet = Wallet.createRandom();
    const { claims } = await relyingPartyLogin(t, client, eoaSigner(wallet), { clientAuth: oidc.ClientSecretBasic(client.secret) });
    expect(claims.sub).to.equal(wallet.address.toLowerCase());
  });

  it("registers a public client (token_endpoint_auth_method none) without a secret, with the subject format it asks for", async function () {
    const redirectUri = "http://localhost:5173/cb";
    const config = await register({
      client_name: "Self SPA",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      subject_format: "caip10",
    });
    const metadata = config.clientMetadata();
    expect(metadata).to.not.have.property("client_secret");
    const wallet = Wallet.createRandom();
    const { claims } = await relyingPartyLogin(t, { id: metadata.client_id, redirectUri, name: "Self SPA" }, eoaSigner(wallet));
    expect(claims.sub).to.equal(`eip155:1:${wallet.address}`);
  });

  it("registers holdings and a gate, answered as registered; refuses a network this service does not index", async function () {
    const contract = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    const holdings = {
      collections: [{ network: "localhost", contract, token_ids: ["2", 1] }],
      gate: { all: [{ network: "localhost", contract }] },
    };
    const config = await register({ client_name: "Gated", redirect_uris: ["https://g.example/cb"], holdings });
    expect(config.clientMetadata().holdings).to.deep.equal({
      collections: [{ network: "localhost", contract: contract.toLowerCase(), token_ids: ["1", "2"], min_count: "1" }],
      gate: { all: [{ network: "localhost", contract: contract.toLowerCase(), min_count: "1" }] },
    });
    const stored = (await listClients(t.app.db)).find((c) => c.id === config.clientMetadata().client_id);
    expect(stored?.holdings?.gate).to.deep.equal({ all: [{ network: "localhost", contract: contract.toLowerCase(), minCount: "1" }] });
    await expectRefusal(
      await refusal({
        client_name: "Elsewhere",
        redirect_uris: ["https://g.example/cb"],
        holdings: { collections: [{ network: "mainnet", contract }] },
      }),
      400,
      "invalid_client_metadata",
      { dialect: "oauth", message: 'holdings.collections[0]: network "mainnet" is not indexed by this service (indexed: localhost)' },
    );
    await expectRefusal(
      await refusal({
        client_name: "Deep",
        redirect_uris: ["https://g.example/cb"],
        holdings: { gate: { any: [{ all: [{ any: [{ all: [{ any: [] }] }] }] }] } },
      }),
      400,
      "invalid_client_metadata",
      { dialect: "oauth", message: "holdings: a gate nests at most 4 groups deep" },
    );
  });

  it("registers a client that counts delegated holdings, with or without rights, and refuses a malformed delegation", async function () {
    const contract = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    const rights = "0x" + "6c6f67696e".padEnd(64, "0");
    const collections = [{ network: "localhost", contract }];
    for (const delegation of [true, { rights }]) {
      const config = await register({
        client_name: "Delegating",
        redirect_uris: ["https://d.example/cb"],
        holdings: { collections, delegation },
      });
      expect(config.clientMetadata().holdings).to.deep.equal({
        collections: [{ network: "localhost", contract: contract.toLowerCase(), min_count: "1" }],
        delegation,
      });
      const stored = (await listClients(t.app.db)).find((c) => c.id === config.clientMetadata().client_id);
      expect(stored?.holdings?.delegation).to.deep.equal({ rights: delegation === true ? null : rights });
    }
    const refusals: Array<[oidc.JsonValue, string]> = [
      [
        { collections, delegation: "yes" },
        'holdings.delegation must be true, false or {"rights": "0x" and 64 hex digits (the registry\'s bytes32 rights)}',
      ],
      [
        { collections, delegation: { rights: "0x12" } },
        'holdings.delegation must be true, false or {"rights": "0x" and 64 hex digits (the registry\'s bytes32 rights)}',
      ],
      [
        { collections, delegation: { rights, registry: "0x" } },
        'holdings.delegation must be true, false or {"rights": "0x" and 64 hex digits (the registry\'s bytes32 rights)}',
      ],
      [{ delegation: true }, "holdings.delegation needs collections or a gate to count the delegated holdings of"],
    ];
    for (const [holdings, message] of refusals)
      await expectRefusal(
        await refusal({ client_name: "Bad", redirect_uris: ["https://d.example/cb"], holdings }),
        400,
        "invalid_client_metadata",
        {
          dialect: "oauth",
          message,
        },
      );
  });

  it("refuses a registration without the initial access token, or with another, as RFC 6750 says", async function () {
    for (const token of [undefined, "another-token-that-is-long-enough-000000"]) {
      const response = await fetch(`${t.config.issuer}/register`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ client_name: "x", redirect_uris: ["https://x.example/cb"] }),
      });
      await expectRefusal(response, 401, "invalid_token", {
        dialect: "oauth",
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
        message: "registration needs the initial access token as Authorization: Bearer",
      });
    }
  });

  it("refuses a request without the initial access token before reading its body: what it sends is never parsed", async function () {
    for (const body of [undefined, "[]", "{", "x".repeat(2_000)]) {
      const answer = await fetchJson(t, "/register", { method: "POST", headers: { "content-type": "application/json" }, body });
      await expectRefusal(answer, 401, "invalid_token", {
        dialect: "oauth",
        label: String(body).slice(0, 10),
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
        message: "registration needs the initial access token as Authorization: Bearer",
      });
    }
  });

  it("refuses what npm run client -- add refuses, in its words, with RFC 7591's error codes", async function () {
    const uri = "https://x.example/cb";
    const cases: Array<[Partial<oidc.ClientMetadata>, string, string]> = [
      [
        { client_name: "x", redirect_uris: ["https://x.example/cb#frag"] },
        "invalid_redirect_uri",
        "a redirect URI must not have a fragment: https://x.example/cb#frag",
      ],
      [{ client_name: "x", redirect_uris: ["not a url"] }, "invalid_redirect_uri", "not an absolute URL: not a url"],
      [{ client_name: "x", redirect_uris: [] }, "invalid_redirect_uri", "redirect_uris must be a non-empty array of strings"],
      [{ redirect_uris: [uri] }, "invalid_client_metadata", "client_name is required: users see it in the message they sign"],
      [
        { client_name: "evil\u202Emoc.elgoog", redirect_uris: [uri] },
        "invalid_client_metadata",
        "the name must not contain control, format or bidi characters (Unicode Cc, Cf, Zl, Zp)",
      ],
      [
        { client_name: "x", redirect_uris: [uri], grant_types: ["implicit"] },
        "invalid_client_metadata",
        "grant_types: implicit is not supported",
      ],
      [
        { client_name: "x", redirect_uris: [uri], token_endpoint_auth_method: "private_key_jwt" },
        "invalid_client_metadata",
        "token_endpoint_auth_method must be one of client_secret_basic, client_secret_post, none",
      ],
      [
        { client_name: "x", redirect_uris: [uri], client_uri: "javascript:alert(1)" },
        "invalid_client_metadata",
        "home_url must be an absolute http(s) URL: javascript:alert(1)",
      ],
      [
        { client_name: "x", redirect_uris: [uri], subject_format: "did" },
        "invalid_client_metadata",
        "the subject format must be one of address, caip10: did",
      ],
    ];
    const before = (await listClients(t.app.db)).length;
    for (const [metadata, error, description] of cases) {
      await expectRefusal(await refusal(metadata), 400, error, { dialect: "oauth", message: description, label: JSON.stringify(metadata) });
    }
    expect((await listClients(t.app.db)).length).to.equal(before);
  });

  it("refuses a body that is no JSON object as unreadable metadata", async function () {
    for (const body of ["[]", "{", '"x"']) {
      const answer = await fetchJson(t, "/register", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
        body,
      });
      await expectRefusal(answer, 400, "invalid_client_metadata", { dialect: "oauth", label: body });
    }
  });
});
