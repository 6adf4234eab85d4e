import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { expectRefusal } from "../../helpers/refusal";
import { Wallet, verifyMessage, type Provider } from "ethers";
import * as oidc from "openid-client";
import { fetchJson, type TestApp } from "../../helpers/app";
import { providerFor, sharedNode } from "../../helpers/chain";
import type { TestSigner, TestSignerKind } from "../../helpers/signers";
import {
  authorizeQuery,
  deploySigners,
  eoaSigner,
  postForm,
  registerClient,
  relyingPartyLogin,
  startLoginApp,
  type RegisteredClient,
} from "./helpers";

type VerifySiweClaims = (claims: Record<string, unknown>, issuer: string, provider?: Provider) => Promise<string>;

/** docs/reference/login.md's verification example, run as written there. */
function documentedVerifier(): VerifySiweClaims {
  const doc = fs.readFileSync(path.join(__dirname, "../../../docs/reference/login.md"), "utf8");
  const section = doc.slice(doc.indexOf("### Checking the proof"));
  const code = /```js\n([\s\S]*?)```/.exec(section)![1];
  return new Function("require", `${code}\nreturn verifySiweClaims;`)(require) as VerifySiweClaims;
}

describe("the siwe scope: the signed message and signature in the ID token", function () {
  let t: TestApp;
  let nodeUrl: string;
  let client: RegisteredClient;
  let signers: Record<TestSignerKind, TestSigner>;
  const verifySiweClaims = documentedVerifier();

  before(async function () {
    nodeUrl = (await sharedNode()).url;
    signers = await deploySigners(nodeUrl);
    t = await startLoginApp(nodeUrl, { listen: true });
    client = await registerClient(t, { name: "Proof RP" });
  });
  after(async () => t?.close());

  it("is published in discovery with its two claims", async function () {
    const { body } = await fetchJson(t, "/.well-known/openid-configuration");
    expect(body.scopes_supported).to.include("siwe");
    expect(body.claims_supported).to.include.members(["siwe_message", "siwe_signature"]);
  });

  it("puts the exact message and signature of an EOA login in the ID token and userinfo; the documented check passes", async function () {
    const wallet = Wallet.createRandom();
    const { claims, message, tokens, config } = await relyingPartyLogin(t, client, eoaSigner(wallet), { scope: "openid siwe" });
    expect(claims.siwe_message).to.equal(message);
    expect(verifyMessage(message, claims.siwe_signature as string)).to.equal(wallet.address);
    expect(await verifySiweClaims(claims, t.config.issuer)).to.equal(wallet.address);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).to.include({ siwe_message: message, siwe_signature: claims.siwe_signature });

    // A refreshed ID token carries the same proof, kept with the grant.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()).to.include({ siwe_message: message, siwe_signature: claims.siwe_signature });
  });

  it("lets the relying party check an EIP-1271 wallet's login on the message's chain", async function () {
    const { claims } = await relyingPartyLogin(t, client, signers.single, { scope: "openid siwe" });
    const provider = providerFor(nodeUrl);
    try {
      expect(await verifySiweClaims(claims, t.config.issuer, provider)).to.equal(signers.single.address);
    } finally {
      provider.destroy();
    }
  });

  it("makes the documented check fail for another signature, another issuer or another account", async function () {
    const wallet = Wallet.createRandom();
    const { claims } = await relyingPartyLogin(t, client, eoaSigner(wallet), { scope: "openid siwe" });
    const forged = { ...claims, siwe_signature: await Wallet.createRandom().signMessage(claims.siwe_message as string) };
    // The siwe package rejects with its result ({success: false, error: SiweError}); the example's own check throws.
    const reason = (check: Promise<string>) =>
      check.then(
        () => "accepted",
        (failure: { error?: { type: string }; message?: string }) => failure.error?.type ?? failure.message,
      );
    expect(await reason(verifySiweClaims(forged, t.config.issuer))).to.match(/^Signature does not match address/);
    expect(await reason(verifySiweClaims(claims, "https://login.elsewhere.example"))).to.match(/^Domain does not match/);
    expect(await reason(verifySiweClaims({ ...claims, address: Wallet.createRandom().address }, t.config.issuer))).to.equal(
      "another login",
    );
  });

  it("leaves the claims out, and stores nothing, without the scope", async function () {
    const { claims } = await relyingPartyLogin(t, client, eoaSigner(Wallet.createRandom()));
    expect(claims).to.not.have.any.keys("siwe_message", "siwe_signature");
    const { rows } = await t.app.db.query(
      "SELECT 1 FROM login_siwe_proofs p JOIN oidc_payloads g ON g.kind = 'Grant' AND g.id = p.grant_id WHERE g.payload->>'accountId' = $1",
      [claims.sub],
    );
    expect(rows).to.have.length(0);
  });

  it("makes /api/authorize answer an EIP-4361 message with the scope, and refuses message_format=text with it", async function () {
    const address = Wallet.createRandom().address;
    const siwe = await fetchJson(t, `/api/authorize?${authorizeQuery(client, address, { scope: "openid siwe" })}`);
    expect(siwe.status).to.equal(200);
    expect(siwe.body.message).to.match(/wants you to sign in with your Ethereum account:\n/);
    const text = await fetchJson(t, `/api/authorize?${authorizeQuery(client, address, { scope: "openid siwe", message_format: "text" })}`);
    await expectRefusal(text, 400, "invalid_request", { message: 'the siwe scope needs message_format "siwe"' });
  });

  it("deletes the proof with its grant (a reused code revokes the grant)", async function () {
    const wallet = Wallet.createRandom();
    const { body } = await fetchJson(t, `/api/authorize?${authorizeQuery(client, wallet.address, { scope: "openid siwe" })}`);
    const login = await postForm(t, "/api/login", {
      address: wallet.address,
      signature: await wallet.signMessage(body.message),
      client_id: client.id,
    });
    const form = {
      grant_type: "authorization_code",
      code: login.body.code,
      redirect_uri: client.redirectUri,
      client_id: client.id,
      client_secret: client.secret!,
    };
    const proofs = async () =>
      (await t.app.db.query("SELECT grant_id FROM login_siwe_proofs WHERE message = $1", [body.message])).rows.length;
    expect((await postForm(t, "/token", form)).status).to.equal(200);
    expect(await proofs()).to.equal(1);
    expect((await postForm(t, "/token", form)).body.error).to.equal("invalid_grant");
    expect(await proofs()).to.equal(0);
  });
});
