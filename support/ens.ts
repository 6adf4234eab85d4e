import { concat, id as keccakText, keccak256, ZeroHash, type JsonRpcProvider, type Signer, type Wallet } from "ethers";
import { ENS_REGISTRY } from "../server/chain/ens";
import {
  TestENSRegistry__factory,
  TestENSResolver__factory,
  TestReverseRegistrar__factory,
  type TestENSRegistry,
  type TestENSResolver,
  type TestReverseRegistrar,
} from "../typechain-types";

/**
 * EIP-137's namehash of the labels as written, without ethers' normalization: a test registers names a wallet
 * should not show (upper case, look-alikes) exactly as a registrar would store them.
 */
const namehash = (name: string): string =>
  name === "" ? ZeroHash : keccak256(concat([namehash(name.split(".").slice(1).join(".")), keccakText(name.split(".")[0])]));

export interface TestEns {
  registry: TestENSRegistry;
  resolver: TestENSResolver;
  reverse: TestReverseRegistrar;
  /** Registers `name` (owned by the deployer) with its forward address and text records. */
  register(name: string, records: { addr?: string; text?: Record<string, string> }): Promise<void>;
  /** Sets `addr`'s reverse record to `name` through the reverse registrar, sent by `sender` (the address, or its wallet's owner). */
  setPrimary(addr: string, name: string, sender: Wallet): Promise<void>;
}

/**
 * ENS on a Hardhat node, as the service reads it: our own minimal registry, with its code set at ENS's registry
 * address (its storage starts empty there, so the deployer takes the root), a public resolver and the reverse
 * registrar owning `addr.reverse`. Deploying again on the same node keeps the names already registered.
 */
export async function deployEns(deployer: Signer): Promise<TestEns> {
  const provider = deployer.provider as JsonRpcProvider;
  const template = await new TestENSRegistry__factory(deployer).deploy();
  await template.waitForDeployment();
  await provider.send("hardhat_setCode", [ENS_REGISTRY, await provider.getCode(await template.getAddress())]);
  const registry = TestENSRegistry__factory.connect(ENS_REGISTRY, deployer);
  const resolver = await new TestENSResolver__factory(deployer).deploy(ENS_REGISTRY);
  const reverse = await new TestReverseRegistrar__factory(deployer).deploy(ENS_REGISTRY, await resolver.getAddress());
  await Promise.all([resolver.waitForDeployment(), reverse.waitForDeployment()]);
  const me = await deployer.getAddress();
  if ((await registry.owner(namehash(""))) !== me) await (await registry.setOwner(namehash(""), me)).wait();
  await (await registry.setSubnodeOwner(namehash(""), keccakText("reverse"), me)).wait();
  await (await registry.setSubnodeOwner(namehash("reverse"), keccakText("addr"), await reverse.getAddress())).wait();

  const register: TestEns["register"] = async (name, records) => {
    const labels = name.split(".");
    for (let i = labels.length - 1; i >= 0; i--) {
      const parent = namehash(labels.slice(i + 1).join("."));
      await (await registry.setSubnodeOwner(parent, keccakText(labels[i]), me)).wait();
    }
    const node = namehash(name);
    await (await registry.setResolver(node, await resolver.getAddress())).wait();
    if (records.addr) await (await resolver.setAddr(node, records.addr)).wait();
    for (const [key, value] of Object.entries(records.text ?? {})) await (await resolver.setText(node, key, value)).wait();
  };

  const setPrimary: TestEns["setPrimary"] = async (addr, name, sender) => {
    await provider.send("hardhat_setBalance", [sender.address, "0xde0b6b3a7640000"]);
    await (await reverse.connect(sender.connect(provider)).setNameForAddr(addr, name)).wait();
  };

  return { registry, resolver, reverse, register, setPrimary };
}
