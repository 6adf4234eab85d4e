import { expect } from "chai";
import { decodeJwt } from "jose";
import { Wallet } from "ethers";
import { rpcEnvName } from "../../../server/chain/registry";
import { fetchJson } from "../../helpers/app";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";
import { authorizeQuery, deploySigners, exchangeCode, postJson, registerClient, startLoginApp } from "./helpers";

/**
 * Contract wallets are asked on the chain the message names: two nodes, the shared one as `localhost` and a second one
 * standing in for sepolia (the providers do not check the chain id), with the wallets deployed on the second only.
 * `matic-mainnet` is in the registry but has no RPC URL here.
 */
describe("login: the chain a contract wallet's signature is checked on", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const second = chain.closesWith(await SuiteChain.ownNode());
    // Far from any nonce the shared node's deployer reaches, so no contract of the local chain shares these addresses.
    await second.provider.send("hardhat_setNonce", [(await second.signer(0)).address, "0xf4240"]);
    const signers = await deploySigners(second.url);
    const t = chain.closesWith(await startLoginApp(chain.url, { env: { [rpcEnvName("sepolia")]: second.url } }));
    return { t, signers, client: await registerClient(t, { name: "Example RP", redirectUris: ["https://rp.example/callback"] }) };
  });

  type Signer = { address: string; sign(message: string): Promise<string> };
  /** A SIWE login of `signer` on `network`: the message asked for and the login's answer. */
  async function siweLogin(signer: Signer, network: string) {
    const { t, client } = suite();
    const asked = await fetchJson(t, `/api/authorize?${authorizeQuery(client, signer.address, { message_format: "siwe", network })}`);
    expect(asked.status, JSON.stringify(asked.body)).to.equal(200);
    const message: string = asked.body.message;
    const answer = await postJson(t, "/api/login", {
      address: signer.address,
      signature: await signer.sign(message),
      client_id: client.id,
    });
    return { message, answer };
  }
  async function subOf(code: string): Promise<string> {
    const { t, client } = suite();
    const tokens = await exchangeCode(t, client, code);
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    return decodeJwt(tokens.body.id_token as string).sub!;
  }

  for (const kind of ["single", "counterfactual"] as const) {
    const label = kind === "single" ? "an EIP-1271 wallet" : "an EIP-6492 counterfactual wallet (its factory deployed there only)";
    it(`checks ${label} on the chain of the SIWE message's Chain ID, and refuses it on a chain where it does not exist`, async function () {
      const { signers } = suite();
      const signer = signers[kind];
      const there = await siweLogin(signer, "sepolia");
      expect(there.message).to.include("\nChain ID: 11155111\n");
      expect(there.answer.status, JSON.stringify(there.answer.body)).to.equal(200);
      expect(await subOf(there.answer.body.code)).to.equal(`eip155:11155111:${signer.address.toLowerCase()}`);

      const here = await siweLogin(signer, "localhost");
      expect(here.message).to.include("\nChain ID: 31337\n");
      await expectRefusal(here.answer, 401, "invalid_signature");
    });
  }

  it("checks a text message's contract wallet on the network the login names", async function () {
    const { t, client, signers } = suite();
    const signer = signers.single;
    const asked = await fetchJson(t, `/api/authorize?${authorizeQuery(client, signer.address)}`);
    const signature = await signer.sign(asked.body.message);
    const onLocal = await postJson(t, "/api/login", { address: signer.address, signature, client_id: client.id, network: "localhost" });
    await expectRefusal(onLocal, 401, "invalid_signature");
    const onSepolia = await postJson(t, "/api/login", { address: signer.address, signature, client_id: client.id, network: "sepolia" });
    expect(onSepolia.status, JSON.stringify(onSepolia.body)).to.equal(200);
  });

  it("refuses a contract wallet on a chain without RPC URL as a 400 unsupported_network naming the variable", async function () {
    const { signers } = suite();
    for (const kind of ["single", "counterfactual"] as const) {
      const { message, answer } = await siweLogin(signers[kind], "matic-mainnet");
      expect(message).to.include("\nChain ID: 137\n");
      await expectRefusal(answer, 400, "unsupported_network", {
        label: kind,
        message:
          /^Contract-wallet signatures are not checked on network matic-mainnet: .*\(RPC_URL_MATIC_MAINNET\)\. .*\(localhost, sepolia\)$/,
      });
    }
  });

  it("logs an EOA in on a chain without RPC URL (no node needed), also by the older of two open messages", async function () {
    const { t, client } = suite();
    const wallet = Wallet.createRandom();
    const ask = async () =>
      (await fetchJson(t, `/api/authorize?${authorizeQuery(client, wallet.address, { message_format: "siwe", network: "matic-mainnet" })}`))
        .body.message as string;
    const older = await ask();
    await ask(); // the newer one is tried first, and its check of this signature would need the node
    expect(older).to.include("\nChain ID: 137\n");
    const answer = await postJson(t, "/api/login", {
      address: wallet.address,
      signature: await wallet.signMessage(older),
      client_id: client.id,
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(await subOf(answer.body.code)).to.equal(wallet.address.toLowerCase());
  });

  it("still refuses a signature proving no open message on such a chain: unsupported_network, the node being needed to say", async function () {
    const { t, client } = suite();
    const wallet = Wallet.createRandom();
    await fetchJson(t, `/api/authorize?${authorizeQuery(client, wallet.address, { network: "matic-mainnet" })}`);
    const stranger = Wallet.createRandom();
    const answer = await postJson(t, "/api/login", {
      address: wallet.address,
      signature: await stranger.signMessage("something else"),
      client_id: client.id,
    });
    await expectRefusal(answer, 400, "unsupported_network");
  });

  it("the second node really is another chain's stand-in: the wallets have no code on the local one", async function () {
    const { signers, chain } = suite();
    expect(await chain.provider.getCode(signers.single.address)).to.equal("0x");
  });
});
