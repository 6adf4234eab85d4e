import { expect } from "chai";
import { fetchJson } from "../../helpers/app";
import { Wallet } from "ethers";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import type { TestDatabase } from "../../helpers/database";
import { runCli } from "../../helpers/cli";
import { postForm, postJson, scriptDatabase, startLoginApp } from "../auth/helpers";

const run = (args: string[], env: Record<string, string>) => runCli("client", args, env);

describe("npm run client", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  before(async function () {
    ({ database, env, cleanup } = await scriptDatabase());
  });
  after(async () => cleanup?.());

  it("adds a confidential client whose secret, printed once, works at the token endpoint and is stored only hashed", async function () {
    const added = await run(
      ["add", "--name", "Script RP", "--redirect-uri", "https://rp.example/cb", "--redirect-uri", "https://rp.example/cb2", "--json"],
      env,
    );
    expect(added.code, added.stderr).to.equal(0);
    const client = JSON.parse(added.stdout);
    expect(client).to.include({ name: "Script RP", public: false });
    expect(client.client_secret).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(client.redirect_uris).to.deep.equal(["https://rp.example/cb", "https://rp.example/cb2"]);

    const listed = await run(["list", "--json"], env);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.not.include(client.client_secret);
    expect(JSON.parse(listed.stdout).map((c: { client_id: string }) => c.client_id)).to.include(client.client_id);

    const t: TestApp = await startLoginApp((await sharedNode()).url, { database });
    try {
      const { rows } = await t.app.db.query<{ secret_hash: string }>("SELECT secret_hash FROM login_clients WHERE id = $1", [
        client.client_id,
      ]);
      expect(rows[0].secret_hash).to.match(/^sha256\$[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).to.not.include(client.client_secret);

      const wallet = Wallet.createRandom();
      const query = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: "https://rp.example/cb2",
        response_type: "code",
        scope: "openid",
        address: wallet.address,
      });
      const { body } = await fetchJson(t, `/api/authorize?${query}`);
      expect(body.message).to.include("Script RP");
      const login = await postJson(t, `/api/login`, {
        address: wallet.address,
        signature: await wallet.signMessage(body.message),
        client_id: client.client_id,
      });
      const token = await postForm(t, `/api/token`, {
        grant_type: "authorization_code",
        code: login.body.code,
        redirect_uri: "https://rp.example/cb2",
        client_id: client.client_id,
        client_secret: client.client_secret,
      });
      expect(token.status, JSON.stringify(token.body)).to.equal(200);
    } finally {
      await t.close();
    }

    // What oidc-provider stored for the login above (its grant, code and tokens), read behind the scripts' back.
    const issued = async () => {
      const db = await database.open();
      try {
        return (
          await db.query<{ kind: string }>("SELECT kind FROM oidc_payloads WHERE payload->>'clientId' = $1 ORDER BY kind", [
            client.client_id,
          ])
        ).rows.map((r) => r.kind);
      } finally {
        if (database.kind === "pglite") await db.close(); // one process at a time
      }
    };
    expect(await issued()).to.include.members(["AuthorizationCode", "Grant", "RefreshToken"]);
    const removed = await run(["remove", client.client_id], env);
    expect(removed.code, removed.stderr).to.equal(0);
    expect(await issued()).to.deep.equal([]);
    expect(JSON.parse((await run(["list", "--json"], env)).stdout).map((c: { client_id: string }) => c.client_id)).to.not.include(
      client.client_id,
    );
    expect((await run(["remove", client.client_id], env)).code).to.equal(1);
  });

  it("adds a public client without a secret", async function () {
    const added = await run(["add", "--name", "SPA", "--redirect-uri", "http://localhost:5173/cb", "--public"], env);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.include("public client").and.include("PKCE").and.not.include("client_secret");
  });

  it("adds a client with its profile, updates and clears it; /api/client shows it in both languages", async function () {
    const added = await run(
      [
        "add",
        "--name",
        "Game",
        "--redirect-uri",
        "https://game.example/cb",
        "--title",
        "My Game",
        "--title-ja",
        "マイゲーム",
        "--description",
        "Line one, line two",
        "--description-ja",
        "説明",
        "--logo-url",
        "https://game.example/logo.png",
        "--home-url",
        "https://game.example/",
        "--json",
      ],
      env,
    );
    expect(added.code, added.stderr).to.equal(0);
    const client = JSON.parse(added.stdout);
    expect(client).to.deep.include({
      name: "Game",
      title: { en: "My Game", ja: "マイゲーム" },
      description: { en: "Line one, line two", ja: "説明" },
      logo_url: "https://game.example/logo.png",
      home_url: "https://game.example/",
    });
    const updated = await run(
      ["update", client.client_id, "--title-ja", "", "--description", "New", "--home-url", "https://play.game.example/", "--logo-url", ""],
      env,
    );
    expect(updated.code, updated.stderr).to.equal(0);
    expect(updated.stdout).to.include("Updated client").and.include("https://play.game.example/");
    const renamed = await run(["update", client.client_id, "--name", "Game 2", "--json"], env);
    expect(JSON.parse(renamed.stdout)).to.deep.include({
      name: "Game 2",
      title: { en: "My Game" },
      description: { en: "New", ja: "説明" },
      logo_url: null,
      home_url: "https://play.game.example/",
    });

    const t: TestApp = await startLoginApp((await sharedNode()).url, { database });
    try {
      const ja = await fetchJson(t, `/api/client?client_id=${client.client_id}&lang=ja`);
      expect(ja.body).to.deep.equal({
        client_id: client.client_id,
        title: "My Game",
        description: "説明",
        logo_url: "",
        home_url: "https://play.game.example/",
      });
      const en = await fetchJson(t, `/api/client?client_id=${client.client_id}`);
      expect(en.body).to.deep.include({ title: "My Game", description: "New" });
      // A name-only client: the title is its name.
      const { rows } = await t.app.db.query<{ id: string }>("SELECT id FROM login_clients WHERE name = 'SPA'");
      if (rows[0]) expect((await fetchJson(t, `/api/client?client_id=${rows[0].id}`)).body.title).to.equal("SPA");
    } finally {
      await t.close();
    }
    expect((await run(["update", "no-such-client", "--title", "x"], env)).code).to.equal(1);
  });

  for (const dashes of ["-", "--"]) {
    it(`updates and removes a client whose id starts with "${dashes}" (one in ${64 ** dashes.length} does), not refusing it as an option`, async function () {
      const name = `Dashed ${dashes.length}`;
      const added = await run(["add", "--name", name, "--redirect-uri", "https://d.example/cb", "--json"], env);
      expect(added.code, added.stderr).to.equal(0);
      const id = `${dashes}${JSON.parse(added.stdout).client_id.slice(dashes.length)}`;
      const db = await database.open();
      try {
        await db.query("UPDATE login_clients SET id = $1 WHERE name = $2", [id, name]);
      } finally {
        if (database.kind === "pglite") await db.close(); // one process at a time
      }
      const updated = await run(["update", id, "--title", "Dashed title", "--json"], env);
      expect(updated.code, updated.stderr).to.equal(0);
      expect(JSON.parse(updated.stdout)).to.deep.include({ client_id: id, title: { en: "Dashed title" } });
      expect((await run(["remove", id], env)).code).to.equal(0);
      expect((await run(["remove", "--", id], env)).code).to.equal(1);
    });
  }

  it("takes an option right after update or remove as the option it names", async function () {
    expect((await run(["update", "--help"], env)).code).to.equal(0);
    const json = await run(["remove", "--json"], env);
    expect(json.code).to.equal(2);
    expect(json.stderr).to.match(/^client: /);
  });

  it("refuses a bad profile value, and redirect URIs in update, with a message and exit code 2", async function () {
    for (const args of [
      ["add", "--name", "x", "--redirect-uri", "https://a.example/cb", "--home-url", "javascript:alert(1)"],
      ["update", "some-id", "--redirect-uri", "https://a.example/cb"],
    ]) {
      const result = await run(args, env);
      expect(result.code, args.join(" ")).to.equal(2);
      expect(result.stderr, args.join(" ")).to.match(/^client: /);
    }
  });

  it("sets the subject format with --subject-format on add and update, and refuses an unknown one", async function () {
    const added = await run(
      ["add", "--name", "CAIP RP", "--redirect-uri", "https://c.example/cb", "--subject-format=caip10", "--json"],
      env,
    );
    const client = added.code === 0 ? JSON.parse(added.stdout) : expect.fail(added.stderr);
    expect(client.subject_format).to.equal("caip10");
    const text = await run(["update", client.client_id, "--subject-format", "address"], env);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.include("subject_format address");
    const kept = await run(["update", client.client_id, "--name", "CAIP RP 2", "--json"], env);
    expect(JSON.parse(kept.stdout)).to.include({ name: "CAIP RP 2", subject_format: "address" });
    const refused = await run(["add", "--name", "x", "--redirect-uri", "https://c.example/cb", "--subject-format", "did"], {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    });
    expect(refused.code).to.equal(2);
    expect(refused.stderr.split("\n")[0]).to.equal("client: the subject format must be one of address, caip10: did");
  });

  it("registers post-logout redirect URIs on add, replaces or clears them on update, and refuses a bad one", async function () {
    const uris = ["--post-logout-redirect-uri", "https://p.example/bye", "--post-logout-redirect-uri", "https://p.example/bye2"];
    const added = await run(["add", "--name", "P", "--redirect-uri", "https://p.example/cb", ...uris, "--json"], env);
    const client = added.code === 0 ? JSON.parse(added.stdout) : expect.fail(added.stderr);
    expect(client.post_logout_redirect_uris).to.deep.equal(["https://p.example/bye", "https://p.example/bye2"]);
    const replaced = await run(["update", client.client_id, "--post-logout-redirect-uri", "https://p.example/out", "--json"], env);
    expect(JSON.parse(replaced.stdout).post_logout_redirect_uris).to.deep.equal(["https://p.example/out"]);
    const cleared = await run(["update", client.client_id, "--post-logout-redirect-uri", "", "--json"], env);
    expect(JSON.parse(cleared.stdout).post_logout_redirect_uris).to.deep.equal([]);
    const refused = await run(["update", client.client_id, "--post-logout-redirect-uri", "https://p.example/#x"], {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    });
    expect(refused.code).to.equal(2);
    expect(refused.stderr.split("\n")[0]).to.equal("client: post-logout a redirect URI must not have a fragment: https://p.example/#x");
  });

  it("registers holdings and a gate with --holdings on add, replaces and removes them on update, and refuses a network not indexed", async function () {
    const contract = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    const holdings = {
      collections: [{ network: "localhost", contract }],
      gate: { any: [{ network: "localhost", contract, min_count: 2 }] },
    };
    const indexedEnv = { ...env, RPC_URL_LOCALHOST: "http://127.0.0.1:8545" };
    const added = await run(
      ["add", "--name", "Gated", "--redirect-uri", "https://g.example/cb", "--holdings", JSON.stringify(holdings), "--json"],
      indexedEnv,
    );
    const client = added.code === 0 ? JSON.parse(added.stdout) : expect.fail(added.stderr);
    const stored = {
      collections: [{ network: "localhost", contract: contract.toLowerCase(), min_count: "1" }],
      gate: { any: [{ network: "localhost", contract: contract.toLowerCase(), min_count: "2" }] },
    };
    expect(client.holdings).to.deep.equal(stored);
    const text = await run(["update", client.client_id, "--name", "Gated 2"], indexedEnv);
    expect(text.stdout).to.include(`holdings       ${JSON.stringify(stored)}`);
    const removed = await run(["update", client.client_id, "--holdings", "", "--json"], indexedEnv);
    expect(JSON.parse(removed.stdout).holdings).to.equal(null);
    const refused = await run(["add", "--name", "x", "--redirect-uri", "https://g.example/cb", "--holdings", JSON.stringify(holdings)], {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
      RPC_URL_SEPOLIA: "http://127.0.0.1:8545",
    });
    expect(refused.code).to.equal(2);
    expect(refused.stderr.split("\n")[0]).to.equal(
      'client: holdings.collections[0]: network "localhost" is not indexed by this service (indexed: sepolia)',
    );
    const malformed = await run(["add", "--name", "x", "--redirect-uri", "https://g.example/cb", "--holdings", "{"], {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    });
    expect([malformed.code, malformed.stderr.split("\n")[0]]).to.deep.equal([
      2,
      "client: --holdings must be JSON (docs/reference/login.md, holdings and gates)",
    ]);
  });

  it("registers a client that counts delegated holdings with --holdings, and refuses a malformed delegation with exit code 2", async function () {
    const contract = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    const indexedEnv = { ...env, RPC_URL_LOCALHOST: "http://127.0.0.1:8545" };
    const holdings = { gate: { network: "localhost", contract }, delegation: true };
    const added = await run(
      ["add", "--name", "Delegating", "--redirect-uri", "https://d.example/cb", "--holdings", JSON.stringify(holdings), "--json"],
      indexedEnv,
    );
    const client = added.code === 0 ? JSON.parse(added.stdout) : expect.fail(added.stderr);
    expect(client.holdings).to.deep.equal({
      collections: [],
      gate: { network: "localhost", contract: contract.toLowerCase(), min_count: "1" },
      delegation: true,
    });
    const refused = await run(
      [
        "add",
        "--name",
        "x",
        "--redirect-uri",
        "https://d.example/cb",
        "--holdings",
        JSON.stringify({ ...holdings, delegation: { rights: "login" } }),
      ],
      { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", RPC_URL_LOCALHOST: "http://127.0.0.1:8545" },
    );
    expect([refused.code, refused.stderr.split("\n")[0]]).to.deep.equal([
      2,
      'client: holdings.delegation must be true, false or {"rights": "0x" and 64 hex digits (the registry\'s bytes32 rights)}',
    ]);
  });

  it("refuses bad input with a message and exit code 2", async function () {
    for (const args of [
      [],
      ["frobnicate"],
      ["add", "--redirect-uri", "https://a.example/cb"],
      ["add", "--name", "x"],
      ["add", "--name", "x", "--redirect-uri", "not a url"],
      ["add", "--name", "x", "--redirect-uri", "https://a.example/cb#frag"],
      ["add", "--name", "two\nlines", "--redirect-uri", "https://a.example/cb"],
      ["add", "--name", "next\u0085line", "--redirect-uri", "https://a.example/cb"],
      ["add", "--name", "evil\u202Emoc.elgoog", "--redirect-uri", "https://a.example/cb"],
      ["add", "--name", "x", "--redirect-uri", "https://a.example/\u202Ecb"],
      ["add", "--name", "x", "--redirect-uri", "https://a.example/cb", "--bogus"],
      ["remove"],
    ]) {
      // Refused before any database is opened: the one configured here does not exist.
      const result = await run(args, { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
      expect(result.code, args.join(" ")).to.equal(2);
      expect(result.stderr, args.join(" ")).to.match(/^client: /);
    }
  });
});
