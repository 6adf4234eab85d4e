import type { ContractTransactionResponse, Signer } from "ethers";
import { AliceNFT__factory, BobNFT__factory, NFTConverter__factory } from "../../typechain-types";
import type { Deployment } from "./deployment";

export interface DeployOptions {
  /** Network name recorded in the deployment. */
  network: string;
  /** Existing Alice token; a test AliceNFT is deployed when absent. */
  alice?: string;
  /** Existing Bob token; a test BobNFT is deployed when absent. */
  bob?: string;
  /** Admin of the converter (default: the deployer, who is then also made an operator). */
  admin?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

/**
 * Deploys the converter, and the Alice and Bob test tokens when no existing ones are given. Works with any ethers
 * Signer (Hardhat scripts, and `npm start` from plain Node).
 */
export async function deployConverter(signer: Signer, options: DeployOptions): Promise<Deployment> {
  const log = options.log ?? (() => {});
  const provider = signer.provider;
  if (!provider) throw new Error("the signer has no provider");
  const deployer = await signer.getAddress();
  const admin = options.admin ?? deployer;
  if ((options.alice === undefined) !== (options.bob === undefined)) throw new Error("give both --alice and --bob, or neither");
  for (const [name, address] of [
    ["alice", options.alice],
    ["bob", options.bob],
  ] as const) {
    if (address !== undefined && (await provider.getCode(address)) === "0x")
      throw new Error(`--${name} ${address} has no code on this network`);
  }

  let firstBlock: number | undefined;
  const mined = async (tx: ContractTransactionResponse | null) => {
    const receipt = await tx!.wait();
    firstBlock ??= receipt!.blockNumber;
    return receipt!;
  };

  let alice = options.alice;
  let bob = options.bob;
  if (alice === undefined || bob === undefined) {
    const aliceToken = await new AliceNFT__factory(signer).deploy(deployer);
    await mined(aliceToken.deploymentTransaction());
    const bobToken = await new BobNFT__factory(signer).deploy(deployer);
    await mined(bobToken.deploymentTransaction());
    alice = await aliceToken.getAddress();
    bob = await bobToken.getAddress();
    log(`AliceNFT (test token) ${alice}`);
    log(`BobNFT (test token)   ${bob}`);
  }
  const converter = await new NFTConverter__factory(signer).deploy(alice, bob, admin);
  await mined(converter.deploymentTransaction());
  log(`NFTConverter          ${await converter.getAddress()}`);
  if (admin.toLowerCase() === deployer.toLowerCase()) {
    await mined(await converter.grantRole(await converter.OPERATOR_ROLE(), deployer));
    log(`operator role granted to the deployer ${deployer}`);
  }
  return {
    network: options.network,
    chainId: Number((await provider.getNetwork()).chainId),
    alice,
    bob,
    converter: await converter.getAddress(),
    admin,
    deployer,
    deployBlock: firstBlock!,
    deployedAt: new Date().toISOString(),
    testTokens: options.alice === undefined,
  };
}
