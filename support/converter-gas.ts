import type { ContractTransactionResponse, Signer } from "ethers";
import { AliceNFT__factory, BobNFT__factory, LegacyERC721Converter__factory, NFTConverter__factory } from "../typechain-types";

/** Gas of one measured transaction, with what it is compared against. */
export interface GasFigure {
  name: string;
  gas: number;
  /** The floor measured in the same run (what plain token transfers cost), when there is one. */
  floor?: number;
  budget?: number;
}

const gasOf = async (tx: Promise<ContractTransactionResponse>) => Number((await (await tx).wait())!.gasUsed);
const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => BigInt(first + i));

/**
 * Deploys Alice, Bob, the converter and the predecessor's logic, then measures the converter's gas budgets (docs/reference/benchmarks.md, "Converter gas") beside their
 * floors, measured the same way in the same run. The budget scenario is the typical migration: a user converts the
 * one Alice token they hold into a Bob token they do not have yet, and the converter already holds Alice tokens and
 * several Bob tokens. Its floor is what the two plain transfers would cost on their own (an Alice safeTransferFrom
 * by a one-token holder into an existing holder, plus a Bob transferFrom from a multi-token holder to a first-time
 * holder, minus one 21,000 base). A user who keeps other Alice tokens gets no refund for their emptied balance: that
 * case is shown too, beside the same floor without that refund. Needs eight funded signers.
 */
export async function measureConverterGas(signers: Signer[]): Promise<GasFigure[]> {
  const [deployer, user, keeper, holder, approver, legacyUser, firstTimer, otherFirstTimer] = signers;
  const address = (signer: Signer) => signer.getAddress();
  const deployerAddress = await address(deployer);
  const alice = await new AliceNFT__factory(deployer).deploy(deployerAddress);
  const bob = await new BobNFT__factory(deployer).deploy(deployerAddress);
  const converter = await new NFTConverter__factory(deployer).deploy(alice, bob, deployerAddress);
  await converter.grantRole(await converter.OPERATOR_ROLE(), deployerAddress);
  const converterAddress = await converter.getAddress();
  const safeTransfer = "safeTransferFrom(address,address,uint256)" as const;

  await alice.mintBatch(await address(user), [1n]); // the one token the user converts
  await alice.mintBatch(await address(keeper), [2n, 3n]); // converts one, keeps one
  await alice.mintBatch(await address(approver), [4n]);
  await alice.mintBatch(await address(holder), [100n, 101n, 102n]);
  await alice.mintBatch(converterAddress, [200n]); // the converter already holds Alice tokens
  await bob.mintBatch(converterAddress, range(1, 20));
  await bob.mintBatch(deployerAddress, range(300, 5));
  await converter.registerPairs(range(1, 20), range(1, 20));

  // Floors, each leg measured on its own.
  await alice.mintBatch(await address(holder), [103n]);
  const aliceLegEmptying = await gasOf(alice.connect(holder)[safeTransfer](await address(holder), await address(keeper), 103n));
  await alice.mintBatch(await address(firstTimer), [104n]);
  const aliceLegOneToken = await gasOf(alice.connect(firstTimer)[safeTransfer](await address(firstTimer), await address(holder), 104n));
  const bobLeg = await gasOf(bob.transferFrom(deployerAddress, await address(otherFirstTimer), 300n));
  const floor = aliceLegOneToken + bobLeg - 21_000;
  const floorKeeping = aliceLegEmptying + bobLeg - 21_000;

  const oneTransaction = await gasOf(alice.connect(user)[safeTransfer](await address(user), converterAddress, 1n));
  const keeping = await gasOf(alice.connect(keeper)[safeTransfer](await address(keeper), converterAddress, 2n));
  const reverse = await gasOf(bob.connect(user)[safeTransfer](await address(user), converterAddress, 1n));
  await alice.connect(approver).setApprovalForAll(converterAddress, true);
  const approvalPath = await gasOf(converter.connect(approver).convertFromAliceToBob(4n));

  const registration = await gasOf(converter.registerPairs(range(1000, 100), range(1000, 100)));
  const unregister = await gasOf(converter.unregisterPairs(range(1000, 1)));

  // The predecessor's logic: registration from the Bob side (it must hold the Bob token), conversion by approval.
  const legacy = await new LegacyERC721Converter__factory(deployer).deploy(alice, bob);
  const legacyAddress = await legacy.getAddress();
  await bob.mintBatch(legacyAddress, range(2000, 101));
  await alice.mintBatch(await address(legacyUser), [2000n]);
  const legacyRegistration = await gasOf(legacy.draftBobTokens(range(2000, 100), range(2000, 100)));
  const legacyApprove = await gasOf(alice.connect(legacyUser).setApprovalForAll(legacyAddress, true));
  const legacyConversion = await gasOf(legacy.connect(legacyUser).convertFromAliceToBob(2000n));

  return [
    { name: "convert Alice→Bob: safeTransferFrom into the converter (1 tx)", gas: oneTransaction, floor, budget: 92_000 },
    { name: "convert Alice→Bob: convertFromAliceToBob (approval path, conversion tx)", gas: approvalPath, floor, budget: 92_000 },
    { name: "convert Alice→Bob, user keeps other Alice tokens (no refund)", gas: keeping, floor: floorKeeping },
    { name: "convert Bob→Alice: safeTransferFrom into the converter", gas: reverse },
    { name: "registerPairs, per pair in a batch of 100", gas: Math.round(registration / 100), floor: 44_200, budget: 47_000 },
    { name: "registerPairs, batch of 100 (whole tx)", gas: registration },
    { name: "unregisterPairs, one pair", gas: unregister },
    { name: "floor leg: Alice safeTransferFrom by a one-token holder to a holder", gas: aliceLegOneToken },
    { name: "floor leg: Bob transferFrom to a first-time holder", gas: bobLeg },
    { name: "predecessor: draftBobTokens, per pair in a batch of 100", gas: Math.round(legacyRegistration / 100), floor: 44_200 },
    { name: "predecessor: convertFromAliceToBob (conversion tx)", gas: legacyConversion, floor },
    { name: "predecessor: conversion incl. its setApprovalForAll tx", gas: legacyConversion + legacyApprove, floor },
  ];
}
