import { AbiCoder, concat, hashMessage, randomBytes, Signature, Wallet, type BaseWallet, type Signer } from "ethers";
import { ERC6492_MAGIC } from "../../server/chain/signatures";
import {
  MultisigWallet__factory,
  RevertingWallet__factory,
  SingleOwnerWallet__factory,
  WalletFactory__factory,
  WrongValueWallet__factory,
} from "../../typechain-types";

export type TestSignerKind = "eoa" | "single" | "multisig" | "reverting" | "wrongValue" | "counterfactual";

/** Something that can sign a message for an address: an EOA or a contract wallet of the foundation. */
export interface TestSigner {
  kind: TestSignerKind;
  /** The address that claims to have signed (checksummed). */
  address: string;
  /** Signs `message` the way this kind of signer does (EIP-191 personal_sign for an EOA). */
  sign(message: string | Uint8Array): Promise<string>;
  /** The keys behind it. */
  owners: Wallet[];
}

/** What an owner key signs for a contract wallet: the EIP-191 hash of the message, raw (no second prefix). */
export function ownerSignature(owner: BaseWallet, message: string | Uint8Array): string {
  return owner.signingKey.sign(hashMessage(message)).serialized;
}

/**
 * Deploys one wallet of each kind (through ethers and the TypeChain factories, on any JSON-RPC node) and returns
 * a signer for each, with fresh random keys: an EOA, a single-owner EIP-1271 wallet, a 2-of-3 multisig, a wallet
 * that reverts on bad signatures, one that answers a wrong value, and an EIP-6492 counterfactual wallet that is
 * NOT deployed (its factory is).
 */
export async function deployTestSigners(deployer: Signer): Promise<Record<TestSignerKind, TestSigner>> {
  const key = () => new Wallet(Wallet.createRandom().privateKey);
  const eoa = key();
  const singleOwner = key();
  const multisigOwners = [key(), key(), key()].sort((a, b) => a.address.toLowerCase().localeCompare(b.address.toLowerCase()));
  const revertingOwner = key();
  const wrongOwner = key();
  const counterfactualOwner = key();

  const single = await new SingleOwnerWallet__factory(deployer).deploy(singleOwner.address);
  const multisig = await new MultisigWallet__factory(deployer).deploy(
    multisigOwners.map((o) => o.address),
    2,
  );
  const reverting = await new RevertingWallet__factory(deployer).deploy(revertingOwner.address);
  const wrong = await new WrongValueWallet__factory(deployer).deploy(wrongOwner.address);
  const factory = await new WalletFactory__factory(deployer).deploy();
  await Promise.all([single, multisig, reverting, wrong, factory].map((c) => c.waitForDeployment()));
  const salt = `0x${Buffer.from(randomBytes(32)).toString("hex")}`;
  const counterfactualAddress = await factory.computeAddress(counterfactualOwner.address, salt);
  const factoryAddress = await factory.getAddress();
  const deployCalldata = factory.interface.encodeFunctionData("deployWallet", [counterfactualOwner.address, salt]);

  const wallet = (kind: TestSignerKind, address: string, owners: Wallet[]): TestSigner => ({
    kind,
    address,
    owners,
    sign: async (message) => ownerSignature(owners[0], message),
  });
  return {
    eoa: { kind: "eoa", address: eoa.address, owners: [eoa], sign: (message) => eoa.signMessage(message) },
    single: wallet("single", await single.getAddress(), [singleOwner]),
    multisig: {
      kind: "multisig",
      address: await multisig.getAddress(),
      owners: multisigOwners,
      // Two of three, in ascending owner order.
      sign: async (message) => concat(multisigOwners.slice(0, 2).map((owner) => ownerSignature(owner, message))),
    },
    reverting: wallet("reverting", await reverting.getAddress(), [revertingOwner]),
    wrongValue: wallet("wrongValue", await wrong.getAddress(), [wrongOwner]),
    counterfactual: {
      kind: "counterfactual",
      address: counterfactualAddress,
      owners: [counterfactualOwner],
      sign: async (message) => wrap6492(factoryAddress, deployCalldata, ownerSignature(counterfactualOwner, message)),
    },
  };
}

/** An EIP-6492 signature: `abi.encode(factory, factoryCalldata, innerSignature) ++ magic`. */
export function wrap6492(factory: string, factoryCalldata: string, innerSignature: string): string {
  return concat([
    AbiCoder.defaultAbiCoder().encode(["address", "bytes", "bytes"], [factory, factoryCalldata, innerSignature]),
    ERC6492_MAGIC,
  ]);
}

/** The same ECDSA signature in its malleable twin form: s' = n - s, v flipped. It recovers the same address. */
export function highS(signature: string): string {
  const parsed = Signature.from(signature);
  const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const s = (n - BigInt(parsed.s)).toString(16).padStart(64, "0");
  return `${parsed.r}${s}${parsed.v === 27 ? "1c" : "1b"}`;
}
