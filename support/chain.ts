import { JsonRpcProvider } from "ethers";
import { startLocalNode, type LocalNode } from "../local/node";
import { jsonRpcRequest } from "../server/chain/ethers-transport";

let shared: Promise<LocalNode> | undefined;

/**
 * One Hardhat node shared by the suites of a test run that only read or add to the chain. A suite that
 * rewinds the chain (evm_revert), stops it or needs a clean one starts its own with `startLocalNode`.
 * The node dies with the test process.
 */
export function sharedNode(): Promise<LocalNode> {
  return (shared ??= startLocalNode());
}

/**
 * A provider for `url` that does not batch or guess the network (as the service's), that never answers from
 * ethers' 250 ms cache of identical requests (a test reads the chain as it is now), and that sends a call once more
 * when the node closed its kept-alive connection as the call was sent (as the service's).
 */
export function providerFor(url: string): JsonRpcProvider {
  return new JsonRpcProvider(jsonRpcRequest(url), 31337, { staticNetwork: true, batchMaxCount: 1, cacheTimeout: -1 });
}

export { startLocalNode };

/**
 * Mines the transactions `sends` sends in one block: automining stops while they are sent, one block is mined, then
 * automining resumes. Resolves once each is mined.
 */
export async function inOneBlock(provider: JsonRpcProvider, sends: Array<() => Promise<{ wait(): Promise<unknown> }>>): Promise<void> {
  await provider.send("evm_setAutomine", [false]);
  const sent = [];
  try {
    for (const send of sends) sent.push(await send());
    await provider.send("evm_mine", []);
  } finally {
    await provider.send("evm_setAutomine", [true]);
  }
  for (const tx of sent) await tx.wait();
}
