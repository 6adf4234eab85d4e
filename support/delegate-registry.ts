import type { JsonRpcProvider, Signer } from "ethers";
import { DELEGATE_REGISTRY } from "../server/indexer";
import { TestDelegateRegistry__factory, type TestDelegateRegistry } from "../typechain-types";

/**
 * The delegate.xyz v2 registry on a local chain: the test registry's code set at the registry's canonical address
 * (its storage starts empty there), connected to `signer`. Setting the code again leaves the delegations made.
 */
export async function deployDelegateRegistry(signer: Signer): Promise<TestDelegateRegistry> {
  const provider = signer.provider as JsonRpcProvider;
  const template = await new TestDelegateRegistry__factory(signer).deploy();
  await template.waitForDeployment();
  await provider.send("hardhat_setCode", [DELEGATE_REGISTRY, await provider.getCode(await template.getAddress())]);
  return TestDelegateRegistry__factory.connect(DELEGATE_REGISTRY, signer);
}
