import { expect } from "chai";
import { encodeBytes32String, Wallet, ZeroHash, type JsonRpcSigner } from "ethers";
import * as oidc from "openid-client";
import { DELEGATE_REGISTRY } from "../../../server/indexer";
import { deployDelegateRegistry } from "../../../support/delegate-registry";
import { AliceNFT__factory, TestDelegateRegistry__factory, type AliceNFT, type TestDelegateRegistry } from "../../../typechain-types";
import type { TestApp } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { expectRefusal } from "../../helpers/refusal";
import {
  eoaSigner,
  localhostCursor,
  refreshTokens,
  registerHoldingsClient,
  relyingPartyLogin,
  relyingPartyRequest,
  signedLogin,
  startLoginApp,
  type RegisteredClient,
} from "./helpers";

interface Entry {
  count: string;
  total?: string;
  meets: boolean;
  ids: string[];
  delegated?: Array<{ vault: string; via: string; count: string; ids: string[]; ids_complete: boolean }>;
  delegations_complete?: boolean;
}

/**
 * Delegated holdings (docs/reference/login.md#delegation): a hot wallet signs, and the holdings of the cold wallets
 * (vaults) that delegated to it in the delegate.xyz v2 registry, at its canonical address on the local chain, count.
 * openid-client is the relying party.
 */
describe("holdings delegated in the delegate.xyz v2 registry", function () {
  this.timeout(120_000);
  let chain: SuiteChain;
  let t: TestApp;
  let registry: TestDelegateRegistry;
  let alice: AliceNFT;
  let other: AliceNFT;
  let aliceAddress: string;
  let vault: JsonRpcSigner;
  let deployer: JsonRpcSigner;
  /** Admits holders of alice, delegated holdings counted (full rights). */
  let delegating: RegisteredClient;
  /** The same gate without delegation. */
  let plain: RegisteredClient;
  /** Admits holders of 2 alice tokens, counting delegations of the rights "login" too. */
  let scoped: RegisteredClient;

  const RIGHTS = encodeBytes32String("login");
  const indexed = () => indexedTo(t.app.db, "localhost", chain.provider);
  const entries = (claims: Record<string, unknown>) => claims.holdings as Entry[];
  const cursor = () => localhostCursor(t);

  const register = (name: string, holdings: unknown) => registerHoldingsClient(t, name, holdings);

  /** A signer of the node (it pays its own delegations), holding `ids` of alice. */
  async function coldWallet(index: number, ids: bigint[]): Promise<JsonRpcSigner> {
    const cold = await chain.provider.getSigner(index);
    if (ids.length > 0) await (await alice.mintBatch(cold.address, ids)).wait();
    return cold;
  }

  before(async function () {
    chain = await SuiteChain.ownNode();
    deployer = await chain.provider.getSigner(0);
    registry = await deployDelegateRegistry(deployer);
    alice = await new AliceNFT__factory(deployer).deploy(deployer.address);
    other = await new AliceNFT__factory(deployer).deploy(deployer.address);
    aliceAddress = await alice.getAddress();
    vault = await coldWallet(1, [1n, 2n, 3n]);
    t = chain.closesWith(await startLoginApp(chain.url, { listen: true, env: { INDEXER_POLL_MS: "50" } }));
    const condition = { network: "localhost", contract: aliceAddress };
    delegating = await register("Delegating RP", { collections: [condition], gate: condition, delegation: true });
    plain = await register("Plain RP", { collections: [condition], gate: condition });
    scoped = await register("Scoped RP", { gate: { ...condition, min_count: 2 }, delegation: { rights: RIGHTS } });
    await indexed();
  });
  after(async () => chain?.close());

  it("says on the hosted page, before the user signs, that delegated holdings count and that the client learns the vaults", async function () {
    const { url } = await relyingPartyRequest(t, delegating, oidc.ClientSecretPost(delegating.secret!));
    const authorize = await fetch(url, { redirect: "manual", headers: { "accept-language": "ja" } });
    const cookies = authorize.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
    const page = await fetch(new URL(authorize.headers.get("location")!, url), {
      headers: { cookie: cookies.join("; "), "accept-language": "ja" },
    });
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include(
      '<p id="delegation">delegate.xyz のレジストリで署名するアドレスに委任したウォレットのトークンも数えられ、Delegating RP はそのウォレットを知ることになります。</p>',
    );
  });

  it("indexes the registry's DelegateAll, DelegateContract and DelegateERC721 logs, and no other contract's", async function () {
    const hot = Wallet.createRandom().address;
    const impostor = await new TestDelegateRegistry__factory(deployer).deploy();
    await (await impostor.delegateAll(hot, ZeroHash, true)).wait();
    await (await registry.delegateAll(hot, ZeroHash, true)).wait();
    await (await registry.delegateContract(hot, aliceAddress, RIGHTS, true)).wait();
    await (await registry.delegateERC721(hot, aliceAddress, 7n, ZeroHash, false)).wait();
    expect(await registry.checkDelegateForERC721(hot, deployer.address, aliceAddress, 9n, ZeroHash)).to.equal(true);
    expect((await registry.getIncomingDelegations(hot)).map((d) => Number(d.type_))).to.deep.equal([1, 2]);
    await indexed();
    const { rows } = await t.app.db.query<{
      kind: number;
      vault: string;
      contract: string;
      token_id: string;
      rights: string;
      enable: boolean;
    }>(
      `SELECT kind, '0x' || encode(vault, 'hex') AS vault, '0x' || encode(contract, 'hex') AS contract, token_id::text AS token_id,
         '0x' || encode(rights, 'hex') AS rights, enable
       FROM nft_delegations WHERE delegate = decode(substr($1, 3), 'hex') ORDER BY block_number, log_index`,
      [hot.toLowerCase()],
    );
    const from = deployer.address.toLowerCase();
    expect(rows).to.deep.equal([
      { kind: 1, vault: from, contract: "0x", token_id: "0", rights: ZeroHash, enable: true },
      { kind: 2, vault: from, contract: aliceAddress.toLowerCase(), token_id: "0", rights: RIGHTS, enable: true },
      { kind: 3, vault: from, contract: aliceAddress.toLowerCase(), token_id: "7", rights: ZeroHash, enable: false },
    ]);
    expect(DELEGATE_REGISTRY).to.equal((await registry.getAddress()).toLowerCase());
  });

  it("admits a hot wallet a vault delegated to, and says which vault the holdings came from; a revoked delegation stops at the next refresh and login", async function () {
    const hot = Wallet.createRandom();
    await expectRefusal(await signedLogin(t, delegating, hot), 403, "access_denied");
    await (await registry.connect(vault).delegateAll(hot.address, ZeroHash, true)).wait();
    await indexed();
    const block = await cursor();
    const { claims, tokens, config } = await relyingPartyLogin(t, delegating, eoaSigner(hot));
    const expected = {
      network: "localhost",
      contract: aliceAddress,
      min_count: "1",
      count: "0",
      meets: true,
      ids: [],
      ids_complete: true,
      block,
      complete: true,
      total: "3",
      delegated: [{ vault: vault.address, via: "all", count: "3", ids: ["1", "2", "3"], ids_complete: true }],
      delegations_complete: true,
    };
    expect(claims.holdings).to.deep.equal([expected]);
    expect((await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)).holdings).to.deep.equal([expected]);
    // A client that does not count delegations refuses the same wallet, and reports no delegated member.
    await expectRefusal(await signedLogin(t, plain, hot), 403, "access_denied");

    // Revoked: the refresh of the login before is refused, and so is the next login.
    await (await registry.connect(vault).delegateAll(hot.address, ZeroHash, false)).wait();
    await indexed();
    const refusal = await oidc.refreshTokenGrant(config, tokens.refresh_token!).then(
      () => expect.fail("the refresh was granted"),
      (error: unknown) => error as oidc.ResponseBodyError,
    );
    expect(refusal.error).to.equal("invalid_grant");
    expect(refusal.error_description).to.match(/does not meet the holdings Delegating RP requires/);
    await expectRefusal(await signedLogin(t, delegating, hot), 403, "access_denied", {
      message: new RegExp(`^${hot.address} does not meet the holdings Delegating RP requires, as indexed at block \\d+ of localhost\\.`),
    });
  });

  it("counts a contract delegation for that contract only, and a token delegation for the tokens it names that the vault holds", async function () {
    const cold = await coldWallet(2, [10n, 11n]);
    await (await other.mint(cold.address, 1n)).wait();
    const byContract = Wallet.createRandom();
    const byOtherContract = Wallet.createRandom();
    const byToken = Wallet.createRandom();
    await (await registry.connect(cold).delegateContract(byContract.address, aliceAddress, ZeroHash, true)).wait();
    await (await registry.connect(cold).delegateContract(byOtherContract.address, await other.getAddress(), ZeroHash, true)).wait();
    // Token 12 is not the vault's: it counts nothing.
    for (const id of [11n, 12n])
      await (await registry.connect(cold).delegateERC721(byToken.address, aliceAddress, id, ZeroHash, true)).wait();
    await indexed();
    const contract = entries((await relyingPartyLogin(t, delegating, eoaSigner(byContract))).claims)[0];
    expect(contract).to.deep.include({ total: "2", meets: true });
    expect(contract.delegated).to.deep.equal([{ vault: cold.address, via: "contract", count: "2", ids: ["10", "11"], ids_complete: true }]);
    await expectRefusal(await signedLogin(t, delegating, byOtherContract), 403, "access_denied");
    const token = entries((await relyingPartyLogin(t, delegating, eoaSigner(byToken))).claims)[0];
    expect(token.delegated).to.deep.equal([{ vault: cold.address, via: "token", count: "1", ids: ["11"], ids_complete: true }]);
  });

  it("adds the signer's own holdings to its vaults' for a gate's count; rights other than full ones count only for a client that names them", async function () {
    const cold = await coldWallet(3, [20n]);
    const hot = Wallet.createRandom();
    await (await alice.mint(hot.address, 21n)).wait();
    // Rights "login": the scoped client counts them, the delegating one (full rights only) does not.
    await (await registry.connect(cold).delegateAll(hot.address, RIGHTS, true)).wait();
    await indexed();
    const { claims } = await relyingPartyLogin(t, scoped, eoaSigner(hot));
    expect(entries(claims)[0]).to.deep.include({ count: "1", total: "2", meets: true, ids: ["21"] });
    expect(entries(claims)[0].delegated).to.deep.equal([{ vault: cold.address, via: "all", count: "1", ids: ["20"], ids_complete: true }]);
    const full = entries((await relyingPartyLogin(t, delegating, eoaSigner(hot))).claims)[0];
    expect(full).to.deep.include({ count: "1", total: "1", delegated: [] });
    // Other rights count for neither.
    const elsewhere = Wallet.createRandom();
    await (await registry.connect(cold).delegateAll(elsewhere.address, encodeBytes32String("airdrop"), true)).wait();
    await indexed();
    await expectRefusal(await signedLogin(t, scoped, elsewhere), 403, "access_denied");
  });

  it("follows a reorg that undoes a delegation: the next login is answered as the chain now is", async function () {
    const cold = await coldWallet(4, [30n]);
    const hot = Wallet.createRandom();
    const snapshot = await chain.provider.send("evm_snapshot", []);
    await (await registry.connect(cold).delegateAll(hot.address, ZeroHash, true)).wait();
    await indexed();
    expect((await signedLogin(t, delegating, hot)).status).to.equal(200);
    await chain.provider.send("evm_revert", [snapshot]);
    for (let i = 0; i < 3; i++) await chain.provider.send("evm_mine", []);
    await indexed();
    await expectRefusal(await signedLogin(t, delegating, hot), 403, "access_denied");
  });

  it("refuses a refresh as the token endpoint answers it once the delegation is revoked", async function () {
    const cold = await coldWallet(5, [40n]);
    const hot = Wallet.createRandom();
    await (await registry.connect(cold).delegateContract(hot.address, aliceAddress, ZeroHash, true)).wait();
    await indexed();
    const { tokens } = await relyingPartyLogin(t, delegating, eoaSigner(hot));
    await (await registry.connect(cold).delegateContract(hot.address, aliceAddress, ZeroHash, false)).wait();
    await indexed();
    const answer = await refreshTokens(t, delegating, tokens.refresh_token!);
    await expectRefusal(answer, 400, "invalid_grant", { dialect: "oauth", message: /does not meet the holdings Delegating RP requires/ });
  });
});
