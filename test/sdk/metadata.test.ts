import { expect } from "chai";
import { hashMessage, Wallet, verifyMessage } from "ethers";
import { createDataClient, signMetadata, verifySignedMetadata, type MessageVerifier, type MetadataTarget } from "../../sdk/src/index";
import { SingleOwnerWallet__factory } from "../../typechain-types";
import { startTestApp } from "../helpers/app";
import { expectRefusal } from "../helpers/refusal";
import { rejection, sdkRefusal } from "../helpers/sdk";
import { deployTestSigners } from "../helpers/signers";
import { SuiteChain } from "../helpers/suite-chain";
import { eoaProvider } from "../helpers/test-wallet";

describe("SDK signed metadata against the service", function () {
  const CONTRACT = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
  const BIG_ID = 2n ** 200n + 3n;

  /** An EOA's check, as ethers' verifyMessage makes it. */
  const eoaVerifier: MessageVerifier = ({ address, message, signature }) => verifyMessage(message, signature) === address;

  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const { single } = await deployTestSigners(await chain.signer(0));
    const t = chain.closesWith(await startTestApp({ listen: true, env: { RPC_URL_LOCALHOST: chain.url, INDEXER: "false" } }));
    return { single, client: createDataClient({ baseUrl: t.url, network: "localhost" }) };
  });

  it("signs a token's metadata with an EIP-1193 wallet, posts it, reads it back and verifies it", async function () {
    const { client } = suite();
    const wallet = Wallet.createRandom();
    const target: MetadataTarget = { network: "localhost", contract: CONTRACT, id: BIG_ID };
    const about = { contract: CONTRACT, id: BIG_ID };
    const metadata = { name: "Sword", level: 3 };
    const body = await signMetadata({ signer: eoaProvider(wallet), target, metadata });
    expect(body.iss).to.equal(wallet.address);
    await client.postSignedMetadata(about, body);

    expect(await client.signedMetadata(about)).to.deep.equal({ [wallet.address]: metadata });
    const records = await client.signedMetadata(about, { records: true, issuers: [wallet.address] });
    const record = records[wallet.address];
    expect(record).to.include({ iss: wallet.address, sig: body.sig, metadata: body.metadata, binding: "target", signer: "eoa" });
    expect(record.data).to.deep.equal(metadata);
    expect(await verifySignedMetadata({ record, target, verifyMessage: eoaVerifier })).to.equal(true);
    // The same record is no statement about another token, another network, or by another key.
    expect(await verifySignedMetadata({ record, target: { ...target, id: 1 }, verifyMessage: eoaVerifier })).to.equal(false);
    expect(await verifySignedMetadata({ record, target: { ...target, network: "mainnet" }, verifyMessage: eoaVerifier })).to.equal(false);
    const forged = { ...record, iss: Wallet.createRandom().address };
    expect(await verifySignedMetadata({ record: forged, target, verifyMessage: eoaVerifier })).to.equal(false);

    // Posted for another token, the body's signature is not over that token's text: the service's 401.
    const moved = await rejection(client.postSignedMetadata({ contract: CONTRACT, id: 1 }, body));
    await expectRefusal(sdkRefusal(moved), 401, "invalid_signature");
  });

  it("signs account metadata with a signing function (as ethers' and viem's signMessage are), text kept as written", async function () {
    const { client } = suite();
    const wallet = Wallet.createRandom();
    const account = Wallet.createRandom().address;
    const target: MetadataTarget = { network: "localhost", account };
    const text = '{"bio":"gm",  "big":123456789012345678901234567890}';
    const body = await signMetadata({ signer: (message) => wallet.signMessage(message), issuer: wallet.address, target, metadata: text });
    await client.postSignedMetadata({ account }, body);
    const [record] = Object.values(await client.signedMetadata({ account }, { records: true }));
    expect(Buffer.from(record.metadata, "base64").toString("utf8")).to.equal(text);
    expect(await verifySignedMetadata({ record, target, verifyMessage: eoaVerifier })).to.equal(true);
    await expectRefusal(sdkRefusal(await rejection(client.signedMetadata({ account: wallet.address }))), 404, "not_found");
    const unnamed = await rejection(signMetadata({ signer: (message) => wallet.signMessage(message), target, metadata: {} }));
    expect(unnamed).to.have.property("message", "give the issuer's address with a signing function");
  });

  it("posts a contract wallet's statement (EIP-1271) and verifies it with a verifier that asks the wallet", async function () {
    const { single, client, chain } = suite();
    const target: MetadataTarget = { network: "localhost", contract: CONTRACT, id: 7 };
    const walletProvider = eoaProvider({ address: single.address, signMessage: (message) => single.sign(message) });
    const body = await signMetadata({ signer: walletProvider, target, metadata: { note: "from a wallet" } });
    await client.postSignedMetadata({ contract: CONTRACT, id: 7 }, body);
    const record = (await client.signedMetadata({ contract: CONTRACT, id: 7 }, { records: true }))[single.address];
    expect(record).to.include({ signer: "erc1271", binding: "target" });
    const wallet = SingleOwnerWallet__factory.connect(single.address, chain.provider);
    const asksTheWallet: MessageVerifier = async ({ address, message, signature }) =>
      address === single.address && (await wallet.isValidSignature(hashMessage(message), signature)) === "0x1626ba7e";
    expect(await verifySignedMetadata({ record, target, verifyMessage: asksTheWallet })).to.equal(true);
    expect(await verifySignedMetadata({ record, target, verifyMessage: eoaVerifier })).to.equal(false);
  });
});
