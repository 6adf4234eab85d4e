import fs from "node:fs";
import { fetchJson } from "../helpers/app";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { Wallet } from "ethers";
import { addClient } from "../../server/auth/clients";
import { DEMO_REDIRECT_URI, ensureDemoClient, readDemoClient } from "../../local/demo-client";
import type { TestApp } from "../helpers/app";
import { sharedNode } from "../helpers/chain";
import { exchangeCode, signedLogin, startLoginApp } from "../server/auth/helpers";

/** The claims of a compact JWS, unverified (the predecessor's Go client checks `aud` against the client's home_url). */
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8")) as { aud: string | string[] };

describe("npm start's demo login client", function () {
  let t: TestApp;
  let dataDir: string;

  before(async function () {
    t = await startLoginApp((await sharedNode()).url);
  });
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "demo-client-"))));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  after(async () => t?.close());

  it("has a home_url, so the predecessor's Go client accepts its ID tokens (their aud names it)", async function () {
    const demo = await ensureDemoClient(t.app.db, dataDir);
    // The Go client reads the home_url from /api/client when it starts, then requires it among an ID token's audiences.
    const info = await fetchJson(t, `/api/client?client_id=${demo.id}`);
    expect(info.body.home_url).to.equal(new URL(DEMO_REDIRECT_URI).origin);
    const login = await signedLogin(t, demo, Wallet.createRandom());
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const token = await exchangeCode(t, demo, login.body.code, "/api/token");
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    expect(claimsOf(token.body.id_token).aud).to.deep.equal([demo.id, info.body.home_url]);
  });

  it("gives a demo client registered by an earlier version, without home_url, one at the next start", async function () {
    const { client, secret } = await addClient(t.app.db, { name: "Demo dApp", redirectUris: [DEMO_REDIRECT_URI], public: false });
    const recorded = { id: client.id, secret: secret!, name: "Demo dApp", redirectUri: DEMO_REDIRECT_URI };
    fs.writeFileSync(path.join(dataDir, "demo-client.json"), JSON.stringify(recorded));
    expect(await ensureDemoClient(t.app.db, dataDir)).to.deep.equal(recorded);
    expect((await fetchJson(t, `/api/client?client_id=${client.id}`)).body.home_url).to.equal(new URL(DEMO_REDIRECT_URI).origin);
  });

  it("writes the file with the names the banner prints, and reads one an earlier version wrote with id and secret", async function () {
    const demo = await ensureDemoClient(t.app.db, dataDir);
    const file = path.join(dataDir, "demo-client.json");
    const written = { client_id: demo.id, client_secret: demo.secret, redirect_uri: DEMO_REDIRECT_URI, name: "Demo dApp" };
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).to.deep.equal(written);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    // The same client, as the version before wrote it: kept (not registered again), and the file rewritten.
    fs.writeFileSync(file, JSON.stringify({ id: demo.id, secret: demo.secret, name: "Demo dApp", redirectUri: DEMO_REDIRECT_URI }));
    expect(readDemoClient(dataDir)).to.deep.equal(demo);
    expect(await ensureDemoClient(t.app.db, dataDir)).to.deep.equal(demo);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).to.deep.equal(written);
  });
});
