import { expect } from "chai";
import { Wallet } from "ethers";
import * as oidc from "openid-client";
import { updateClient } from "../../../server/auth/clients";
import { accountOfSubject, caip10Subject } from "../../../server/auth/subjects";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import type { TestSigner, TestSignerKind } from "../../helpers/signers";
import { deploySigners, eoaSigner, registerClient, relyingPartyLogin, startLoginApp, type RegisteredClient } from "./helpers";

describe("subject formats per client (address, caip10)", function () {
  let t: TestApp;
  let signers: Record<TestSignerKind, TestSigner>;
  let plain: RegisteredClient;
  let caip: RegisteredClient;

  before(async function () {
    const nodeUrl = (await sharedNode()).url;
    signers = await deploySigners(nodeUrl);
    t = await startLoginApp(nodeUrl, { listen: true });
    plain = await registerClient(t, { name: "Address RP" });
    caip = await registerClient(t, { name: "CAIP-10 RP", subjectFormat: "caip10" });
  });
  after(async () => t?.close());

  it("gives an EOA eip155:1:<checksummed address> in a caip10 client's ID token and userinfo, whichever chain it logged in on", async function () {
    const wallet = Wallet.createRandom();
    const { claims, tokens, config } = await relyingPartyLogin(t, caip, eoaSigner(wallet));
    // The login's chain is the local node's (31337): an EOA's key holds its address on every chain.
    expect(claims.sub).to.equal(`eip155:1:${wallet.address}`);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).to.include({ sub: `eip155:1:${wallet.address}`, address: wallet.address });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()!.sub).to.equal(`eip155:1:${wallet.address}`);
  });

  it("gives a contract wallet the chain it was proven on, in both formats", async function () {
    const { claims: asCaip } = await relyingPartyLogin(t, caip, signers.single);
    expect(asCaip.sub).to.equal(`eip155:31337:${signers.single.address}`);
    const { claims: asAddress } = await relyingPartyLogin(t, plain, signers.single);
    expect(asAddress.sub).to.equal(`eip155:31337:${signers.single.address.toLowerCase()}`);
  });

  it("keeps one login history per account whatever the clients' formats", async function () {
    const wallet = Wallet.createRandom();
    await relyingPartyLogin(t, plain, eoaSigner(wallet));
    const { claims, tokens, config } = await relyingPartyLogin(t, caip, eoaSigner(wallet));
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info.first_service).to.equal(plain.id);
    expect(Object.keys(info.services as object)).to.have.members([plain.id, caip.id]);
  });

  it("switches a client's format for the logins that follow; tokens issued before keep their sub", async function () {
    const switching = await registerClient(t, { name: "Switching RP" });
    const wallet = Wallet.createRandom();
    const before = await relyingPartyLogin(t, switching, eoaSigner(wallet));
    expect(before.claims.sub).to.equal(wallet.address.toLowerCase());
    await updateClient(t.app.db, switching.id, { subjectFormat: "caip10" });
    // Clients are read again after a second at most.
    t.clock.advance(1001);
    const after = await relyingPartyLogin(t, switching, eoaSigner(wallet));
    expect(after.claims.sub).to.equal(`eip155:1:${wallet.address}`);
    const refreshed = await oidc.refreshTokenGrant(before.config, before.tokens.refresh_token!);
    expect(refreshed.claims()!.sub).to.equal(wallet.address.toLowerCase());
  });

  it("maps each subject of one format to exactly one of the other", function () {
    const address = Wallet.createRandom().address;
    const cases: Array<[string, string]> = [
      [caip10Subject(address, "eoa", 137), address.toLowerCase()],
      [caip10Subject(address, "erc1271", 1), address.toLowerCase()],
      [caip10Subject(address, "erc6492", 10), `eip155:10:${address.toLowerCase()}`],
    ];
    for (const [caip10, account] of cases) {
      expect(caip10).to.match(/^eip155:\d+:0x[0-9a-fA-F]{40}$/);
      expect(accountOfSubject(caip10)).to.equal(account);
      expect(accountOfSubject(account)).to.equal(account);
    }
    expect(cases[0][0]).to.equal(`eip155:1:${address}`);
  });

  it("refuses an unknown format", async function () {
    await expect(updateClient(t.app.db, plain.id, { subjectFormat: "did" as "caip10" })).to.be.rejectedWith(
      "the subject format must be one of address, caip10: did",
    );
  });
});
