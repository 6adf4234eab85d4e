import { expect } from "chai";
import { Wallet } from "ethers";
import { decodeProtectedHeader } from "jose";
import { fetchJson, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import type { TestDatabase } from "../../helpers/database";
import { runCli } from "../../helpers/cli";
import { exchangeCode, registerClient, signedLogin, scriptDatabase, startLoginApp } from "./helpers";

/** Key rotation as docs/reference/login.md describes it, with `npm run login-keys` as a real process between restarts. */
describe("npm run login-keys (signing key rotation)", function () {
  this.timeout(180_000);
  let database: TestDatabase;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let nodeUrl: string;

  before(async function () {
    nodeUrl = (await sharedNode()).url;
    ({ database, env, cleanup } = await scriptDatabase());
  });
  after(async () => cleanup?.());

  const keys = (args: string[]) => runCli("login-keys", args, env);

  /** Starts an instance, reads its published kids and the kid that signs an ID token, and stops it. */
  async function observe(): Promise<{ published: string[]; signing: string }> {
    const t: TestApp = await startLoginApp(nodeUrl, { database });
    try {
      const client = await registerClient(t);
      const wallet = Wallet.createRandom();
      const login = await signedLogin(t, client, wallet);
      const token = await exchangeCode(t, client, login.body.code);
      const jwks = (await fetchJson(t, `/jwks`)).body.keys.map((k: { kid: string }) => k.kid).sort();
      const x509 = Object.keys((await fetchJson(t, `/api/metadata/x509`)).body).sort();
      expect(x509).to.deep.equal(jwks);
      return { published: jwks, signing: decodeProtectedHeader(token.body.id_token).kid! };
    } finally {
      await t.close();
    }
  }

  it("stages, activates and retires a key without an instance ever signing with an unpublished key", async function () {
    const first = await observe();
    expect(first.published).to.deep.equal([first.signing]);
    const listed = await keys(["list"]);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.match(new RegExp(`^${first.signing}\\s+active`, "m"));

    const added = await keys(["add", "--staged"]);
    expect(added.code, added.stderr).to.equal(0);
    const second = added.stdout.split(/\s+/)[0];
    const staged = await observe();
    expect(staged.published).to.deep.equal([first.signing, second].sort());
    expect(staged.signing).to.equal(first.signing);

    expect((await keys(["activate", second])).code).to.equal(0);
    const activated = await observe();
    expect(activated.signing).to.equal(second);
    expect(activated.published).to.deep.equal([first.signing, second].sort());

    expect((await keys(["retire", first.signing])).code).to.equal(0);
    const retired = await observe();
    expect(retired).to.deep.equal({ published: [second], signing: second });

    const last = await keys(["retire", second]);
    expect(last.code).to.equal(1);
    expect(last.stderr).to.include("only active key");
    expect((await keys(["retire", "no-such-kid"])).code).to.equal(1);
    // Thumbprints are base64url: a kid may begin with "-" and is still a kid, not an option.
    const dashed = await keys(["activate", "-no-such-kid"]);
    expect(dashed.code, dashed.stderr).to.equal(1);
    expect(dashed.stderr).to.include("no signing key -no-such-kid");
  });

  it("refuses bad input with exit code 2", async function () {
    for (const args of [[], ["spin"], ["activate"], ["retire", "a", "b"], ["add", "extra"], ["add", "--bogus"]]) {
      const result = await keys(args);
      expect(result.code, args.join(" ")).to.equal(2);
      expect(result.stderr).to.match(/^login-keys: /);
    }
  });
});
