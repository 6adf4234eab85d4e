import { expect } from "chai";
import { hashMessage, Wallet, type JsonRpcProvider } from "ethers";
import { isEoa, isErc6492Signature, verifySignature, type VerifyResult } from "../../../server/chain/signatures";
import { DomainError } from "../../../server/lib/domain-error";
import { providerFor, sharedNode } from "../../helpers/chain";
import { deployTestSigners, highS, ownerSignature, wrap6492, type TestSigner, type TestSignerKind } from "../../helpers/signers";
import { SuiteChain } from "../../helpers/suite-chain";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy";

describe("verifySignature", function () {
  const MESSAGE = "Wallet Login\nLog in to Demo via localhost.\n---\nq2mF1xYI3r8bTq0w2bVvJg";
  let chain: SuiteChain;
  let signers: Record<TestSignerKind, TestSigner>;
  let calls: string[] = [];

  before(async function () {
    chain = await SuiteChain.sharedNode();
    chain.provider.on("debug", (event: { action: string; payload?: { method: string } }) => {
      if (event.action === "sendRpcPayload" && event.payload) calls.push(event.payload.method);
    });
    signers = await deployTestSigners(await chain.provider.getSigner(0));
  });
  after(async () => chain?.close());

  const verify = (address: string, signature: string, message: string | Uint8Array = MESSAGE): Promise<VerifyResult> =>
    verifySignature({ provider: chain.provider, network: "localhost", address, message, signature });

  describe("valid signatures", function () {
    for (const [kind, expected] of [
      ["eoa", "eoa"],
      ["single", "erc1271"],
      ["multisig", "erc1271"],
      ["counterfactual", "erc6492"],
    ] as const) {
      it(`accepts the ${kind} signer as ${expected}`, async function () {
        const signer = signers[kind];
        expect(await verify(signer.address, await signer.sign(MESSAGE))).to.deep.equal({ ok: true, kind: expected });
      });
    }

    it("accepts an address written in lower case", async function () {
      const signer = signers.eoa;
      expect(await verify(signer.address.toLowerCase(), await signer.sign(MESSAGE))).to.deep.equal({ ok: true, kind: "eoa" });
    });

    it("accepts a recovery id given as 0/1 instead of 27/28", async function () {
      const signature = await signers.eoa.sign(MESSAGE);
      const v = parseInt(signature.slice(-2), 16) - 27;
      expect(await verify(signers.eoa.address, `${signature.slice(0, -2)}0${v}`)).to.deep.equal({ ok: true, kind: "eoa" });
    });

    it("verifies a counterfactual wallet with one eth_call and deploys nothing", async function () {
      const signer = signers.counterfactual;
      const signature = await signer.sign(MESSAGE);
      calls = [];
      expect(await verify(signer.address, signature)).to.deep.equal({ ok: true, kind: "erc6492" });
      expect(calls).to.deep.equal(["eth_call"]);
      expect(await chain.provider.getCode(signer.address)).to.equal("0x");
    });

    it("accepts an EIP-6492 signature of a wallet that is already deployed", async function () {
      const signer = signers.single;
      const inner = await signer.sign(MESSAGE);
      const wrapped = wrap6492(Wallet.createRandom().address, "0x", inner);
      expect(await verify(signer.address, wrapped)).to.deep.equal({ ok: true, kind: "erc6492" });
    });

    it("accepts the key of an EOA that delegates to code (EIP-7702)", async function () {
      const eoa = Wallet.createRandom();
      await chain.provider.send("hardhat_setCode", [eoa.address, `0xef0100${signers.single.address.slice(2)}`]);
      expect(await verify(eoa.address, await eoa.signMessage(MESSAGE))).to.deep.equal({ ok: true, kind: "eoa" });
    });
  });

  describe("what a signer is", function () {
    it("tells an EIP-6492 wrapper by its suffix, in any letter case", async function () {
      const wrapped = wrap6492(Wallet.createRandom().address, "0x", await signers.single.sign(MESSAGE));
      expect(isErc6492Signature(wrapped)).to.equal(true);
      expect(isErc6492Signature(wrapped.toUpperCase().replace(/^0X/, "0x"))).to.equal(true);
      expect(isErc6492Signature(await signers.eoa.sign(MESSAGE))).to.equal(false);
      expect(isErc6492Signature(wrapped.slice(0, -2))).to.equal(false);
    });

    it("counts an address without code and an EIP-7702 delegation as EOAs, a wallet contract not", async function () {
      const delegating = Wallet.createRandom();
      await chain.provider.send("hardhat_setCode", [delegating.address, `0xef0100${signers.single.address.slice(2)}`]);
      expect(await isEoa(chain.provider, "localhost", Wallet.createRandom().address)).to.equal(true);
      expect(await isEoa(chain.provider, "localhost", delegating.address)).to.equal(true);
      expect(await isEoa(chain.provider, "localhost", signers.single.address)).to.equal(false);
    });
  });

  describe("refusals", function () {
    it("refuses a signature over another message", async function () {
      for (const kind of ["eoa", "single", "multisig", "counterfactual"] as const) {
        const signer = signers[kind];
        const result = await verify(signer.address, await signer.sign(`${MESSAGE}x`));
        expect(result, kind).to.deep.include({ ok: false, reason: "invalid_signature" });
      }
    });

    it("refuses a signature by another key", async function () {
      const other = Wallet.createRandom();
      expect(await verify(signers.eoa.address, await other.signMessage(MESSAGE))).to.deep.include({ reason: "invalid_signature" });
      expect(await verify(signers.single.address, ownerSignature(other, MESSAGE))).to.deep.include({ reason: "invalid_signature" });
    });

    it("refuses a multisig signature with one owner short", async function () {
      const signer = signers.multisig;
      expect(await verify(signer.address, ownerSignature(signer.owners[0], MESSAGE))).to.deep.include({ reason: "invalid_signature" });
    });

    it("refuses cleanly a wallet that reverts on a bad signature", async function () {
      const signer = signers.reverting;
      expect(await verify(signer.address, await signer.sign(MESSAGE))).to.deep.equal({ ok: true, kind: "erc1271" });
      const result = await verify(signer.address, ownerSignature(Wallet.createRandom(), MESSAGE));
      expect(result).to.deep.equal({
        ok: false,
        reason: "invalid_signature",
        message: "the wallet refused the signature (isValidSignature reverted)",
      });
    });

    it("refuses a wallet that answers a wrong value, even for its owner's signature", async function () {
      const signer = signers.wrongValue;
      const result = await verify(signer.address, await signer.sign(MESSAGE));
      expect(result).to.deep.equal({
        ok: false,
        reason: "invalid_signature",
        message: "the wallet did not answer the EIP-1271 magic value",
      });
    });

    it("refuses a high-s signature as malformed", async function () {
      const signature = await signers.eoa.sign(MESSAGE);
      expect(await verify(signers.eoa.address, highS(signature))).to.deep.include({ ok: false, reason: "malformed_signature" });
    });

    it("refuses wrong lengths, non-hex and a bad v as malformed", async function () {
      const signature = await signers.eoa.sign(MESSAGE);
      for (const bad of [
        signature.slice(0, -2),
        `${signature}00`,
        "0x",
        "",
        "0xzz",
        signature.slice(2),
        `${signature.slice(0, -2)}05`,
        `0x${"0".repeat(130)}`,
      ]) {
        expect(await verify(signers.eoa.address, bad), bad).to.deep.include({ ok: false, reason: "malformed_signature" });
      }
    });

    it("refuses an EIP-6492 wrapper that does not decode", async function () {
      const result = await verify(signers.counterfactual.address, `0x1234${"6492".repeat(16)}`);
      expect(result).to.deep.include({ ok: false, reason: "malformed_signature" });
    });

    it("refuses an EIP-6492 signature whose factory deploys nothing", async function () {
      const owner = Wallet.createRandom();
      const wrapped = wrap6492(Wallet.createRandom().address, "0x", ownerSignature(owner, MESSAGE));
      expect(await verify(Wallet.createRandom().address, wrapped)).to.deep.include({ ok: false, reason: "invalid_signature" });
    });

    it("verifies over the exact bytes of the message", async function () {
      const signature = await signers.eoa.sign(MESSAGE);
      expect(await verify(signers.eoa.address, signature, MESSAGE.replace("\n", "\r\n"))).to.deep.include({ ok: false });
      expect(hashMessage(MESSAGE)).to.not.equal(hashMessage(MESSAGE.trim() + " "));
    });
  });

  describe("node failures", function () {
    let proxy: TcpProxy;
    let proxied: JsonRpcProvider;

    before(async function () {
      const url = new URL((await sharedNode()).url);
      proxy = await startTcpProxy(url.hostname, Number(url.port));
      proxied = providerFor(proxy.url(url.toString()));
    });
    after(async function () {
      proxied?.destroy();
      await proxy?.close();
    });

    it("throws the chain's upstream error when the node is down, instead of calling the signature invalid", async function () {
      const signer = signers.single;
      const signature = await signer.sign(MESSAGE);
      proxy.cut();
      let caught: unknown;
      await verifySignature({ provider: proxied, network: "localhost", address: signer.address, message: MESSAGE, signature }).catch(
        (e) => (caught = e),
      );
      expect(caught).to.be.instanceOf(DomainError);
      expect([(caught as DomainError).kind, (caught as DomainError).code]).to.deep.equal(["upstream", "upstream_error"]);
      proxy.restore();
      // The failure is not kept: the same call asks the node again.
      const again = await verifySignature({
        provider: proxied,
        network: "localhost",
        address: signer.address,
        message: MESSAGE,
        signature,
      });
      expect(again).to.deep.equal({ ok: true, kind: "erc1271" });
    });
  });
});
