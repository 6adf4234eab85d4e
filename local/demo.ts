import fs from "node:fs";
import path from "node:path";
import { getAddress, id, JsonRpcProvider } from "ethers";
import { deployConverter } from "../scripts/lib/deploy";
import type { Deployment } from "../scripts/lib/deployment";
import {
  AliceNFT__factory,
  BobNFT__factory,
  CollectionNFT__factory,
  MetadataNFT__factory,
  NFTConverter__factory,
  SingleOwnerWallet__factory,
} from "../typechain-types";

/** What `npm start` deploys on its embedded chain for people to try things with. */
export interface Demo extends Deployment {
  /** Hardhat account #1: holds Alice 1–10 (paired with Bob 1–10, in the converter's stock) and owns the wallet. */
  user: string;
  /** An EIP-1271 wallet (SingleOwnerWallet) owned by the user. */
  wallet: string;
  /** An ERC-721 whose token 1 (held by the user) carries its metadata and SVG image in a data: tokenURI. */
  metadataNft: string;
  /** Hash of block 0 of the chain it was deployed on (a new Hardhat node is a new chain). */
  genesisHash: string;
  /** The block Alice 1–10 were minted in: the first block of Alice's holders (the examples' block). */
  aliceMinted: number;
  /** A spam airdrop (a lure in its name, minted to the user and 29 others in one transaction): the collections' spam flag to see. */
  spamAirdrop: string;
}

const DEMO_TOKENS = Array.from({ length: 10 }, (_, i) => BigInt(i + 1));
/** Who the demo's spam airdrop reaches besides the user: addresses nobody holds a key of. */
const SPAM_RECIPIENTS = Array.from({ length: 29 }, (_, i) => getAddress(id(`demo spam recipient ${i}`).slice(0, 42)));

const DEMO_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><rect width='100' height='100' fill='#f4b400'/><text x='50' y='58' font-size='20' text-anchor='middle'>Demo #1</text></svg>";
const DEMO_TOKEN_URI = `data:application/json;base64,${Buffer.from(
  JSON.stringify({
    name: "Demo #1",
    description: "Its metadata and image live in its tokenURI (a data: URI)",
    image: `data:image/svg+xml;base64,${Buffer.from(DEMO_SVG).toString("base64")}`,
    attributes: [{ trait_type: "colour", value: "amber" }],
  }),
).toString("base64")}`;

/**
 * Deploys the demo on the embedded chain, or reuses the one recorded in `dataDir` when that chain is still the
 * same: a Hardhat node keeps nothing across restarts, so a new start usually redeploys (account #0 deploys, so the
 * addresses come out the same every time).
 */
export async function prepareDemo(rpcUrl: string, dataDir: string, log: (line: string) => void = () => {}): Promise<Demo> {
  const file = path.join(dataDir, "demo.json");
  const provider = new JsonRpcProvider(rpcUrl, 31337, { staticNetwork: true });
  try {
    const genesisHash = (await provider.getBlock(0))!.hash!;
    if (fs.existsSync(file)) {
      const recorded = JSON.parse(fs.readFileSync(file, "utf8")) as Demo;
      if (
        recorded.genesisHash === genesisHash &&
        recorded.metadataNft &&
        recorded.aliceMinted &&
        (await provider.getCode(recorded.converter)) !== "0x"
      )
        return recorded;
      log("new chain: deploying the demo again");
    }
    const deployer = await provider.getSigner(0);
    const user = await (await provider.getSigner(1)).getAddress();
    const deployment = await deployConverter(deployer, { network: "localhost" });
    const alice = AliceNFT__factory.connect(deployment.alice, deployer);
    const bob = BobNFT__factory.connect(deployment.bob, deployer);
    const converter = NFTConverter__factory.connect(deployment.converter, deployer);
    const aliceMinted = (await (await alice.mintBatch(user, DEMO_TOKENS)).wait())!.blockNumber;
    await (await bob.mintBatch(deployment.converter, DEMO_TOKENS)).wait();
    await (await converter.registerPairs(DEMO_TOKENS, DEMO_TOKENS)).wait();
    const wallet = await new SingleOwnerWallet__factory(deployer).deploy(user);
    await wallet.waitForDeployment();
    const metadataNft = await new MetadataNFT__factory(deployer).deploy();
    await (await metadataNft.mint(user, 1n, DEMO_TOKEN_URI)).wait();
    const spamAirdrop = await new CollectionNFT__factory(deployer).deploy("Claim your reward at visit-airdrop.xyz", "CLAIM", "");
    await (await spamAirdrop.airdrop([user, ...SPAM_RECIPIENTS])).wait();
    const demo: Demo = {
      ...deployment,
      user,
      wallet: await wallet.getAddress(),
      metadataNft: await metadataNft.getAddress(),
      genesisHash,
      aliceMinted,
      spamAirdrop: await spamAirdrop.getAddress(),
    };
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`);
    return demo;
  } finally {
    provider.destroy();
  }
}
