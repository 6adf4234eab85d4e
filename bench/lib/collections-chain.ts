import { Wallet, type JsonRpcProvider } from "ethers";
import { AliceNFT__factory } from "../../typechain-types";
import type { BenchContext } from "./suite";

/** The collections of the collections suite's chain: how many, and each one's mints. */
export interface CollectionsShape {
  contracts: number;
  /** Mint transactions per contract: the first to the holder, the others each to a new address. */
  mintsPerContract: number;
  /** Tokens per mint transaction. */
  tokensPerMint: number;
}

export interface CollectionsChain {
  /** The contracts, lower case, in the order they were deployed. */
  contracts: string[];
  /** The address that holds tokens of every contract (its inventory lists them all). */
  holder: string;
  transfers: number;
  head: number;
}

/** What each measure of the collections suite starts from: the chain deployed, the node that serves it, the suite's log. */
export interface CollectionsRun {
  nodeUrl: string;
  chain: CollectionsChain;
  log: BenchContext["log"];
}

/**
 * Deploys `contracts` ERC-721 contracts and mints each in `mintsPerContract` transactions of `tokensPerMint` tokens
 * sent by the deployer: the first to one holder, the others to new addresses. Nobody moves a token: each is an
 * airdrop the spam rules look at closely (holders ≥ 10 and nothing moved: the classifier asks the senders).
 */
export async function deployCollections(provider: JsonRpcProvider, shape: CollectionsShape): Promise<CollectionsChain> {
  const deployer = await provider.getSigner(0);
  const holder = (await (await provider.getSigner(1)).getAddress()).toLowerCase();
  const contracts: string[] = [];
  for (let c = 0; c < shape.contracts; c++) {
    const token = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
    for (let m = 0; m < shape.mintsPerContract; m++) {
      const to = m === 0 ? holder : Wallet.createRandom().address;
      await (await token.mintRange(to, m * shape.tokensPerMint, shape.tokensPerMint, { gasLimit: 16_000_000 })).wait();
    }
    contracts.push((await token.getAddress()).toLowerCase());
  }
  return {
    contracts,
    holder,
    transfers: shape.contracts * shape.mintsPerContract * shape.tokensPerMint,
    head: await provider.getBlockNumber(),
  };
}
