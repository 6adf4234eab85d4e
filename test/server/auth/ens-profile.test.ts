import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "chai";
import { Wallet } from "ethers";
import { ENS_REGISTRY } from "../../../server/chain/ens";
import { MetadataERC1155__factory, MetadataNFT__factory } from "../../../typechain-types";
import { fetchJson, type TestApp } from "../../helpers/app";
import { providerFor, sharedNode } from "../../helpers/chain";
import { deployEns, type TestEns } from "../../helpers/ens";
import { startRpcProxy } from "../../helpers/rpc-proxy";
import { deployTestSigners, type TestSigner } from "../../helpers/signers";
import { exchangeCode, registerClient, signedLogin, startLoginApp, type RegisteredClient } from "./helpers";

type Claims = Record<string, unknown>;
const idTokenClaims = (idToken: string): Claims => JSON.parse(Buffer.from(idToken.split(".")[1], "base64url").toString("utf8"));
const json = (value: unknown) => `data:application/json;base64,${Buffer.from(JSON.stringify(value)).toString("base64")}`;

describe("the profile scope: ENS name and avatar (preferred_username, picture)", function () {
  let nodeUrl: string;
  let ens: TestEns;
  let t: TestApp;
  let client: RegisteredClient;
  let n = 0;
  /** A fresh name, so that the suites sharing the node never meet. */
  const fresh = (label: string) => `${label}${Date.now().toString(36)}${n++}.eth`;

  before(async function () {
    nodeUrl = (await sharedNode()).url;
    const provider = providerFor(nodeUrl);
    ens = await deployEns(await provider.getSigner(0));
    // Sepolia is the local node too: a contract wallet proven "on sepolia" is one of another chain than ENS's.
    t = await startLoginApp(nodeUrl, { env: { LOGIN_ENS_NETWORK: "localhost", RPC_URL_SEPOLIA: nodeUrl, INDEXER: "false" } });
    client = await registerClient(t);
  });
  after(async () => t?.close());

  /** A login through the JSON API and the code exchange: the ID token's claims and the access token. */
  async function login(
    app: TestApp,
    wallet: { address: string; signMessage(m: string): Promise<string> },
    scope = "openid profile",
    network = "localhost",
  ) {
    const answer = await signedLogin(app, client, wallet, { scope, network });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const token = await exchangeCode(app, client, answer.body.code);
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    return { id: idTokenClaims(token.body.id_token), accessToken: token.body.access_token };
  }

  const userinfo = async (app: TestApp, accessToken: string) => {
    const answer = await fetchJson(app, "/userinfo", { headers: { authorization: `Bearer ${accessToken}` } });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return answer.body as Claims;
  };

  /** Userinfo, asked again while the background lookup has not given what `done` waits for. */
  async function userinfoOnceLookedUp(app: TestApp, accessToken: string, done: (claims: Claims) => boolean): Promise<Claims> {
    for (let i = 0; i < 400; i++) {
      const claims = await userinfo(app, accessToken);
      if (done(claims)) return claims;
      await sleep(25);
    }
    throw new Error("the ENS lookup did not finish");
  }
  const named = (claims: Claims) => claims.preferred_username !== undefined;

  /** A wallet whose primary name is `name` (registered with `records`, its forward address the wallet's unless given). */
  async function namedWallet(name: string, text: Record<string, string> = {}, addr?: string): Promise<Wallet> {
    const wallet = Wallet.createRandom() as unknown as Wallet;
    await ens.register(name, { addr: addr ?? wallet.address, text });
    await ens.setPrimary(wallet.address, name, wallet);
    return wallet;
  }

  /** Logs in once to start the lookup, waits for it, and logs in again: that login's ID token and userinfo. */
  async function profileOf(wallet: Wallet, done = named) {
    const first = await login(t, wallet);
    await userinfoOnceLookedUp(t, first.accessToken, done);
    const second = await login(t, wallet);
    return { id: second.id, userinfo: await userinfo(t, second.accessToken) };
  }

  it("gives the primary name whose forward address is the wallet's, in the ID token and userinfo", async function () {
    const name = fresh("alice");
    const wallet = await namedWallet(name);
    const { id, userinfo: info } = await profileOf(wallet);
    expect(id.preferred_username).to.equal(name);
    expect(info.preferred_username).to.equal(name);
    expect(id).not.to.have.property("picture");
    expect(info).not.to.have.property("picture");
    expect(id.address).to.equal(wallet.address);
  });

  it("leaves the name out when its forward address is another's, and when the scope is not asked for", async function () {
    const name = fresh("mallory");
    const wallet = await namedWallet(name);
    expect((await profileOf(wallet)).id.preferred_username).to.equal(name);

    // Without the scope, the known name is not given.
    const plain = await login(t, wallet, "openid");
    expect(plain.id).not.to.have.property("preferred_username");
    expect(await userinfo(t, plain.accessToken)).not.to.have.property("preferred_username");

    // The name now resolves to someone else: the next lookup (after the TTL) drops it.
    await ens.register(name, { addr: Wallet.createRandom().address });
    t.clock.advance(t.config.login.ensTtlMs + 1);
    const first = await login(t, wallet);
    const info = await userinfoOnceLookedUp(t, first.accessToken, (claims) => !named(claims));
    expect(info).not.to.have.property("preferred_username");
    expect((await login(t, wallet)).id).not.to.have.property("preferred_username");
  });

  it("leaves out a name that is not ENS-normalized (a look-alike of another)", async function () {
    const name = fresh("bob");
    const wallet = await namedWallet(name);
    expect((await profileOf(wallet)).id.preferred_username).to.equal(name);
    // The same wallet's reverse record now holds an upper-case spelling (registered as written, resolving to it).
    const unnormalized = `B${name.slice(1)}`;
    await ens.register(unnormalized, { addr: wallet.address });
    await ens.setPrimary(wallet.address, unnormalized, wallet);
    t.clock.advance(t.config.login.ensTtlMs + 1);
    const first = await login(t, wallet);
    await userinfoOnceLookedUp(t, first.accessToken, (claims) => !named(claims));
    expect((await login(t, wallet)).id).not.to.have.property("preferred_username");
  });

  describe("avatars", function () {
    it("gives an https avatar as it is", async function () {
      const wallet = await namedWallet(fresh("https"), { avatar: "https://img.example/a.png" });
      const { id, userinfo: info } = await profileOf(wallet);
      expect(id.picture).to.equal("https://img.example/a.png");
      expect(info.picture).to.equal("https://img.example/a.png");
    });

    it("gives an ipfs avatar through the IPFS gateway", async function () {
      const cid = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi";
      const wallet = await namedWallet(fresh("ipfs"), { avatar: `ipfs://${cid}/a.png` });
      const { id } = await profileOf(wallet);
      expect(id.picture).to.equal(`${t.config.tokenMetadata.ipfsGateway}${cid}/a.png`);
    });

    it("gives a small data: image as it is, and leaves out a large one, an http one and a non-image", async function () {
      const small = `data:image/svg+xml;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}`;
      expect((await profileOf(await namedWallet(fresh("data"), { avatar: small }))).id.picture).to.equal(small);
      const large = `data:image/png;base64,${"A".repeat(9000)}`;
      for (const avatar of [large, "http://img.example/a.png", "data:text/html,<b>x</b>", "javascript:alert(1)"]) {
        const { id } = await profileOf(await namedWallet(fresh("refused"), { avatar }));
        expect(id, avatar.slice(0, 40)).to.have.property("preferred_username");
        expect(id, avatar.slice(0, 40)).not.to.have.property("picture");
      }
    });

    it("gives an NFT avatar (ERC-721, ERC-1155) the wallet holds as its metadata's image, and none of a token it does not hold", async function () {
      const provider = providerFor(nodeUrl);
      const deployer = await provider.getSigner(0);
      const nft = await new MetadataNFT__factory(deployer).deploy();
      const multi = await new MetadataERC1155__factory(deployer).deploy(json({ image: "ipfs://bafy1155/one.png" }));
      await Promise.all([nft.waitForDeployment(), multi.waitForDeployment()]);
      const contract = (await nft.getAddress()).toLowerCase();
      const held = await namedWallet(fresh("nft"), { avatar: `eip155:31337/erc721:${contract}/7` });
      await (await nft.mint(held.address, 7, json({ name: "Seven", image: "https://img.example/7.png" }))).wait();
      await (await nft.mint(Wallet.createRandom().address, 8, json({ image: "https://img.example/8.png" }))).wait();
      expect((await profileOf(held)).id.picture).to.equal("https://img.example/7.png");

      const notHeld = await namedWallet(fresh("notheld"), { avatar: `eip155:31337/erc721:${contract}/8` });
      const { id } = await profileOf(notHeld);
      expect(id).to.have.property("preferred_username");
      expect(id).not.to.have.property("picture");

      const wallet1155 = await namedWallet(fresh("multi"), { avatar: `eip155:31337/erc1155:${await multi.getAddress()}/1` });
      await (await multi.mint(wallet1155.address, 1, 1)).wait();
      expect((await profileOf(wallet1155)).id.picture).to.equal(`${t.config.tokenMetadata.ipfsGateway}bafy1155/one.png`);
      provider.destroy();
    });
  });

  it("works for a contract wallet: its primary name, set by its owner, by its address", async function () {
    const provider = providerFor(nodeUrl);
    const signers = await deployTestSigners(await provider.getSigner(0));
    provider.destroy();
    const wallet: TestSigner = signers.single;
    const name = fresh("vault");
    await ens.register(name, { addr: wallet.address });
    await ens.setPrimary(wallet.address, name, wallet.owners[0]);
    const signer = { address: wallet.address, signMessage: (m: string) => wallet.sign(m) };
    const first = await login(t, signer);
    await userinfoOnceLookedUp(t, first.accessToken, named);
    expect((await login(t, signer)).id.preferred_username).to.equal(name);

    // Proven on another chain, the same address may be someone else's wallet on ENS's chain: no claims.
    const elsewhere = await login(t, signer, "openid profile", "sepolia");
    expect(elsewhere.id.sub).to.equal(`eip155:11155111:${wallet.address.toLowerCase()}`);
    expect(elsewhere.id).not.to.have.property("preferred_username");
    expect(await userinfo(t, elsewhere.accessToken)).not.to.have.property("preferred_username");
  });

  describe("a slow or failing node", function () {
    let gate: { open(): void; wait: Promise<void> };
    let mode: "hold" | "refuse" | "pass" = "pass";
    let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
    let slow: TestApp;

    const newGate = () => {
      let open!: () => void;
      const wait = new Promise<void>((resolve) => (open = resolve));
      return { open, wait };
    };

    before(async function () {
      gate = newGate();
      proxy = await startRpcProxy(nodeUrl, async (call) => {
        const to = (call.params[0] as { to?: string } | undefined)?.to?.toLowerCase();
        if (call.method !== "eth_call" || to !== ENS_REGISTRY.toLowerCase()) return undefined;
        if (mode === "refuse") return { httpStatus: 500, body: "node down" };
        if (mode === "hold") await gate.wait;
        return undefined;
      });
      slow = await startLoginApp(proxy.url, { env: { LOGIN_ENS_NETWORK: "localhost" } });
      client = await registerClient(slow);
    });
    after(async function () {
      gate.open();
      await slow?.close();
      await proxy?.close();
      client = await registerClient(t);
    });

    it("a node that does not answer delays no login: the claims come with a later login", async function () {
      const name = fresh("slow");
      const wallet = await namedWallet(name);
      mode = "hold";
      const first = await login(slow, wallet);
      expect(first.id).not.to.have.property("preferred_username");
      expect(await userinfo(slow, first.accessToken)).not.to.have.property("preferred_username");
      // The lookup runs beside the login, so its first call may reach the node only after the login answered.
      for (let i = 0; i < 400 && !proxy.calls.some((call) => call.method === "eth_call"); i++) await sleep(25);
      expect(
        proxy.calls.some((call) => call.method === "eth_call"),
        "the lookup's eth_call, held at the node",
      ).to.equal(true);
      expect((await userinfo(slow, first.accessToken)).preferred_username, "no name while the node holds the lookup").to.equal(undefined);
      gate.open();
      await userinfoOnceLookedUp(slow, first.accessToken, named);
      expect((await login(slow, wallet)).id.preferred_username).to.equal(name);
      mode = "pass";
    });

    it("a node that fails fails no login: the claims come with a later login", async function () {
      const name = fresh("down");
      const wallet = await namedWallet(name);
      mode = "refuse";
      const before = proxy.calls.length;
      const first = await login(slow, wallet);
      expect(first.id).not.to.have.property("preferred_username");
      // The failed lookup has asked the node.
      for (let i = 0; i < 400 && !proxy.calls.slice(before).some((call) => call.method === "eth_call"); i++) await sleep(25);
      mode = "pass";
      const second = await login(slow, wallet);
      await userinfoOnceLookedUp(slow, second.accessToken, named);
      expect((await login(slow, wallet)).id.preferred_username).to.equal(name);
    });
  });
});
