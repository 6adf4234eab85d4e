import { expect } from "chai";
import { Wallet, type JsonRpcSigner } from "ethers";
import * as oidc from "openid-client";
import { updateClient } from "../../../server/auth/clients";
import { parseHoldingsConfig } from "../../../server/auth/holdings";
import { AliceNFT__factory, TestERC1155__factory, type AliceNFT, type TestERC1155 } from "../../../typechain-types";
import { fetchJson, type TestApp } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { expectRefusal } from "../../helpers/refusal";
import type { TestSigner, TestSignerKind } from "../../helpers/signers";
import {
  authorizeQuery,
  deploySigners,
  eoaSigner,
  localhostCursor,
  postJson,
  refreshTokens,
  relyingPartyLogin,
  registerHoldingsClient,
  signedLogin,
  startLoginApp,
  type RegisteredClient,
} from "./helpers";

/** Holdings as claims and gates (docs/reference/login.md#holdings-and-gates), with openid-client as the relying party. */
describe("holdings claims and gates", function () {
  this.timeout(120_000);
  let chain: SuiteChain;
  let t: TestApp;
  let alice: AliceNFT;
  let multi: TestERC1155;
  let aliceAddress: string;
  let multiAddress: string;
  let holder: JsonRpcSigner;
  let other: JsonRpcSigner;
  let signers: Record<TestSignerKind, TestSigner>;
  /** Claims alice and multi's id 7; admits holders of alice, or of 5 units of multi's id 7. */
  let gated: RegisteredClient;
  /** Claims alice; no gate. */
  let claiming: RegisteredClient;

  const register = (name: string, holdings: unknown) => registerHoldingsClient(t, name, holdings);
  const entries = (claims: Record<string, unknown>) => claims.holdings as Array<{ count: string; meets: boolean; ids: string[] }>;
  const indexed = () => indexedTo(t.app.db, "localhost", chain.provider);
  const cursor = () => localhostCursor(t);

  before(async function () {
    chain = await SuiteChain.ownNode();
    const deployer = await chain.provider.getSigner(0);
    [holder, other] = await Promise.all([1, 2].map((i) => chain.provider.getSigner(i)));
    alice = await new AliceNFT__factory(deployer).deploy(deployer.address);
    multi = await new TestERC1155__factory(deployer).deploy();
    [aliceAddress, multiAddress] = await Promise.all([alice.getAddress(), multi.getAddress()]);
    signers = await deploySigners(chain.url);
    await (await alice.mintBatch(holder.address, [1n, 2n, 3n])).wait();
    await (await multi.mint(other.address, 7n, 5n)).wait();
    await (await alice.mint(signers.single.address, 10n)).wait();
    t = chain.closesWith(await startLoginApp(chain.url, { listen: true, env: { INDEXER_POLL_MS: "50" } }));
    const aliceCondition = { network: "localhost", contract: aliceAddress };
    const multiCondition = { network: "localhost", contract: multiAddress, token_ids: ["7"], min_count: "5" };
    gated = await register("Gated RP", { collections: [aliceCondition], gate: { any: [aliceCondition, multiCondition] } });
    claiming = await register("Claiming RP", { collections: [aliceCondition] });
    await indexed();
  });
  after(async () => chain?.close());

  it("is advertised in discovery: the holdings scope and claim", async function () {
    const { body } = await fetchJson(t, "/.well-known/openid-configuration");
    expect(body.scopes_supported).to.include("holdings");
    expect(body.claims_supported).to.include("holdings");
  });

  it("gives a holder the holdings claim in the ID token, userinfo and a refreshed ID token: count, ids, block, completeness", async function () {
    const block = await cursor();
    const { claims, tokens, config } = await relyingPartyLogin(t, gated, eoaSigner(holder));
    expect(tokens.scope?.split(" ")).to.include("holdings");
    const aliceEntry = {
      network: "localhost",
      contract: aliceAddress,
      min_count: "1",
      count: "3",
      meets: true,
      ids: ["1", "2", "3"],
      ids_complete: true,
      block,
      complete: true,
    };
    const multiEntry = {
      network: "localhost",
      contract: multiAddress,
      token_ids: ["7"],
      min_count: "5",
      count: "0",
      meets: false,
      ids: [],
      ids_complete: true,
      block,
      complete: true,
    };
    expect(claims.holdings).to.deep.equal([aliceEntry, multiEntry]);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info.holdings).to.deep.equal([aliceEntry, multiEntry]);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()!.holdings).to.deep.equal([aliceEntry, multiEntry]);
  });

  it("admits through the other branch of an any: 5 units of the ERC-1155 id", async function () {
    const { claims } = await relyingPartyLogin(t, gated, eoaSigner(other));
    expect(entries(claims).map((e) => [e.count, e.meets])).to.deep.equal([
      ["0", false],
      ["5", true],
    ]);
  });

  it("refuses a non-holder with access_denied, naming the block checked, in English or Japanese; the message stays open", async function () {
    const wallet = Wallet.createRandom();
    const { body } = await fetchJson(t, `/api/authorize?${authorizeQuery(gated, wallet.address)}`);
    const signature = await wallet.signMessage(body.message);
    const block = await cursor();
    const refused = await postJson(t, "/api/login", { address: wallet.address, signature, client_id: gated.id });
    await expectRefusal(refused, 403, "access_denied", {
      message: new RegExp(
        `^${wallet.address} does not meet the holdings Gated RP requires, as indexed at block ${block} of localhost\\. It requires at least 1 of ${aliceAddress} on localhost or at least 5 of token 7 of ${multiAddress} on localhost\\.$`,
      ),
    });
    const ja = await postJson(t, "/api/login", { address: wallet.address, signature, client_id: gated.id, lang: "ja" });
    await expectRefusal(ja, 403, "access_denied", {
      message: new RegExp(`保有条件を満たしていません（localhost のブロック ${block} 時点`),
    });

    // The signature stays good for its message: once the wallet holds a token and the index has it, it logs in.
    await (await alice.mint(wallet.address, 20n)).wait();
    await indexed();
    const admitted = await postJson(t, "/api/login", { address: wallet.address, signature, client_id: gated.id });
    expect(admitted.status, JSON.stringify(admitted.body)).to.equal(200);
  });

  it("gives a client without a gate the claim for anyone, holder or not", async function () {
    const { claims } = await relyingPartyLogin(t, claiming, eoaSigner(Wallet.createRandom()));
    expect(entries(claims)).to.have.length(1);
    expect(entries(claims)[0]).to.include({ count: "0", meets: false });
  });

  it("stops renewing the tokens of a holder who sells after signing in: the refresh is refused with invalid_grant", async function () {
    const seller = await chain.provider.getSigner(3);
    await (await alice.mint(seller.address, 30n)).wait();
    await indexed();
    const { tokens, config } = await relyingPartyLogin(t, gated, eoaSigner(seller));
    await (await alice.connect(seller).transferFrom(seller.address, other.address, 30n)).wait();
    await indexed();
    const block = await cursor();
    const refusal = await oidc.refreshTokenGrant(config, tokens.refresh_token!).then(
      () => expect.fail("the refresh was granted"),
      (error: unknown) => error as oidc.ResponseBodyError,
    );
    expect(refusal).to.be.instanceOf(oidc.ResponseBodyError);
    expect(refusal.error).to.equal("invalid_grant");
    expect(refusal.error_description).to.include(`as indexed at block ${block} of localhost`);
    // The same, as the token endpoint answers it.
    const answer = await refreshTokens(t, gated, tokens.refresh_token!);
    await expectRefusal(answer, 400, "invalid_grant", { dialect: "oauth", message: /does not meet the holdings Gated RP requires/ });
  });

  it("answers the next login after a reorg that undoes the transfer as the chain now is", async function () {
    const seller = await chain.provider.getSigner(4);
    await (await alice.mint(seller.address, 40n)).wait();
    await indexed();
    const snapshot = await chain.provider.send("evm_snapshot", []);
    await (await alice.connect(seller).transferFrom(seller.address, other.address, 40n)).wait();
    await indexed();
    await expectRefusal(await signedLogin(t, gated, seller), 403, "access_denied");
    await chain.provider.send("evm_revert", [snapshot]);
    // Another branch, longer than the one undone: the indexer replaces the transfer's block.
    for (let i = 0; i < 3; i++) await chain.provider.send("evm_mine", []);
    await indexed();
    const { claims } = await relyingPartyLogin(t, gated, eoaSigner(seller));
    expect(entries(claims)[0]).to.deep.include({ count: "1", ids: ["40"] });
  });

  it("reads a contract wallet's holdings as its own address's, not its owner's", async function () {
    const { claims } = await relyingPartyLogin(t, gated, signers.single);
    expect(claims.address).to.equal(signers.single.address);
    expect(entries(claims)[0]).to.deep.include({ count: "1", ids: ["10"] });
  });

  it("reads the holdings on their own network whatever chain the login's message names", async function () {
    // mainnet has no RPC URL here: an EOA still signs its message, and the holdings are read from localhost's index.
    const signed = await signedLogin(t, gated, holder, { network: "mainnet", message_format: "siwe" });
    expect(signed.status, JSON.stringify(signed.body)).to.equal(200);
    const refused = await signedLogin(t, gated, Wallet.createRandom(), { network: "mainnet", message_format: "siwe" });
    await expectRefusal(refused, 403, "access_denied");
  });

  it("reports the collections a login names in the claims parameter, for that login and its refreshes, beside the client's", async function () {
    const claims = JSON.stringify({
      id_token: { holdings: { collections: [{ network: "localhost", contract: multiAddress, token_ids: ["7"] }] } },
    });
    const wallet = Wallet.createRandom();
    const { claims: idToken, tokens, config } = await relyingPartyLogin(t, claiming, eoaSigner(wallet), { extra: { claims } });
    expect(entries(idToken).map((e) => [e.count, e.meets])).to.deep.equal([
      ["0", false],
      ["0", false],
    ]);
    expect((idToken.holdings as Array<{ contract: string; token_ids?: string[] }>)[1]).to.deep.include({
      contract: multiAddress,
      token_ids: ["7"],
    });
    await (await multi.mint(wallet.address, 7n, 2n)).wait();
    await indexed();
    // A refresh reads again what the login reported, its own collection too.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(entries(refreshed.claims()!).map((e) => e.count)).to.deep.equal(["0", "2"]);
    // The claim alone, without collections, asks for the client's.
    const { claims: plain } = await relyingPartyLogin(t, claiming, eoaSigner(wallet), {
      extra: { claims: JSON.stringify({ userinfo: { holdings: null } }) },
    });
    expect(entries(plain)).to.have.length(1);
  });

  it("refuses a claims parameter that is not JSON of the claim, or names a network not indexed, before anyone signs", async function () {
    const address = Wallet.createRandom().address;
    const ask = (claims: string) => fetchJson(t, `/api/authorize?${authorizeQuery(claiming, address, { claims })}`);
    await expectRefusal(await ask("{"), 400, "invalid_request", { message: "claims must be a JSON object (OpenID Connect Core 5.5)" });
    await expectRefusal(await ask(JSON.stringify({ id_token: { holdings: { collections: {} } } })), 400, "invalid_request", {
      message: "claims.id_token.holdings.collections must be an array",
    });
    await expectRefusal(
      await ask(JSON.stringify({ id_token: { holdings: { collections: [{ network: "localhost", contract: "0x12" }] } } })),
      400,
      "invalid_request",
      { message: "holdings.collections[0]: contract must be an address (0x and 40 hex digits)" },
    );
    const sixteen = Array.from({ length: 16 }, (_, i) => ({ network: "localhost", contract: aliceAddress, token_ids: [String(i)] }));
    await expectRefusal(await ask(JSON.stringify({ id_token: { holdings: { collections: sixteen } } })), 400, "invalid_request", {
      message: "claims: at most 16 collections in all, the client's included",
    });
    await expectRefusal(
      await ask(JSON.stringify({ id_token: { holdings: { collections: [{ network: "mainnet", contract: aliceAddress }] } } })),
      400,
      "unindexed_network",
      { message: "This client asks for holdings on network mainnet, which this service does not index (indexed: localhost)" },
    );
  });

  it("refuses at authorization a client whose holdings name a network this service does not index", async function () {
    const client = await register("Elsewhere RP", { collections: [{ network: "localhost", contract: aliceAddress }] });
    await updateClient(t.app.db, client.id, {
      holdings: parseHoldingsConfig({ collections: [{ network: "sepolia", contract: aliceAddress }] }, null),
    });
    // The client cache keeps the client a second: the change shows through a client read afresh.
    t.clock.advance(2_000);
    const answer = await fetchJson(t, `/api/authorize?${authorizeQuery(client, Wallet.createRandom().address)}`);
    await expectRefusal(answer, 400, "unindexed_network", {
      message: "This client asks for holdings on network sepolia, which this service does not index (indexed: localhost)",
    });
  });
});
