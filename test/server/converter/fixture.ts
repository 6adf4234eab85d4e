import type { JsonRpcProvider, JsonRpcSigner } from "ethers";
import { deployConverter } from "../../../scripts/lib/deploy";
import {
  AliceNFT__factory,
  BobNFT__factory,
  NFTConverter__factory,
  type AliceNFT,
  type BobNFT,
  type NFTConverter,
} from "../../../typechain-types";

export interface ConverterFixture {
  deployer: JsonRpcSigner;
  holder: string;
  alice: AliceNFT;
  bob: BobNFT;
  converter: NFTConverter;
  addresses: { alice: string; bob: string; converter: string };
}

/** A big id: not representable as a double, so it must travel with all its digits. */
export const BIG_ID = 2n ** 64n + 3n;

/**
 * A converter on the node: the holder (account `holderIndex`) has Alice 1–5 and BIG_ID; pairs Alice 1–4 ↔ Bob 1–4
 * and BIG_ID ↔ BIG_ID; the converter holds Bob 1–3 and BIG_ID (Bob 4 is out of stock); Alice 5 is not paired.
 */
export async function converterFixture(provider: JsonRpcProvider, holderIndex: number): Promise<ConverterFixture> {
  const deployer = await provider.getSigner(0);
  const holder = await (await provider.getSigner(holderIndex)).getAddress();
  const deployment = await deployConverter(deployer, { network: "localhost" });
  const alice = AliceNFT__factory.connect(deployment.alice, deployer);
  const bob = BobNFT__factory.connect(deployment.bob, deployer);
  const converter = NFTConverter__factory.connect(deployment.converter, deployer);
  await (await alice.mintBatch(holder, [1n, 2n, 3n, 4n, 5n, BIG_ID])).wait();
  await (await bob.mintBatch(deployment.converter, [1n, 2n, 3n, BIG_ID])).wait();
  await (await converter.registerPairs([1n, 2n, 3n, 4n, BIG_ID], [1n, 2n, 3n, 4n, BIG_ID])).wait();
  return {
    deployer,
    holder,
    alice,
    bob,
    converter,
    addresses: { alice: deployment.alice, bob: deployment.bob, converter: deployment.converter },
  };
}
