import type { JsonRpcProvider } from "ethers";
import { startLocalNode, type LocalNode } from "../../local/node";
import { providerFor } from "../../support/chain";

/**
 * A Hardhat node of the suite's own and a provider for it, for as long as `fn` runs: both are closed when it returns or
 * throws, so that a failed suite leaves no node behind for the next one.
 */
export async function withLocalChain<T>(fn: (chain: { node: LocalNode; provider: JsonRpcProvider }) => Promise<T>): Promise<T> {
  const node = await startLocalNode();
  const provider = providerFor(node.url);
  try {
    return await fn({ node, provider });
  } finally {
    provider.destroy();
    await node.stop();
  }
}
