import { getCreateAddress, type JsonRpcProvider } from "ethers";
import { rpc } from "../chain/networks";

/**
 * Where a contract was deployed, as the node can tell: the block (the first whose state holds its code) and, when a
 * transaction of that block created it directly, the account that sent it. A contract created by another contract (a
 * factory, CREATE2) has no transaction naming it as created: only the node's traces would say which account started
 * it, and they are not asked (most providers do not serve them).
 */
export type Deployment =
  { found: true; block: number; deployer: string | null; tx: string | null; reason: string | null } | { found: false; reason: string };

/**
 * Finds a contract's deployment by bisection of `eth_getCode` over blocks 0 to `hasCodeAt` (a block at which it has
 * code: its first indexed transfer), then one `eth_getBlockByNumber` with its transactions. Costs at most
 * ⌈log2(hasCodeAt + 1)⌉ + 2 calls, once per contract (the answer is stored). A node that keeps no state that old (not
 * an archive node) fails the bisection: that is the reason given.
 */
export async function findDeployment(network: string, provider: JsonRpcProvider, contract: string, hasCodeAt: number): Promise<Deployment> {
  const hasCode = async (block: number) => (await rpc(network, provider.getCode(contract, block))) !== "0x";
  let low = 0;
  let high = hasCodeAt;
  try {
    if (!(await hasCode(high))) return { found: false, reason: `the node shows no code at block ${high}, where the index saw it` };
    // The first block with code: code at `high`, none below `low`.
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (await hasCode(middle)) high = middle;
      else low = middle + 1;
    }
  } catch (error) {
    return { found: false, reason: `the node does not answer for the code at old blocks (not an archive node?): ${messageOf(error)}` };
  }
  const block = await rpc(network, provider.getBlock(high, true));
  if (!block) return { found: false, reason: `the node does not serve block ${high}` };
  const target = contract.toLowerCase();
  for (const tx of block.prefetchedTransactions) {
    if (tx.to === null && getCreateAddress({ from: tx.from, nonce: tx.nonce }).toLowerCase() === target)
      return { found: true, block: high, deployer: tx.from.toLowerCase(), tx: tx.hash, reason: null };
  }
  return {
    found: true,
    block: high,
    deployer: null,
    tx: null,
    reason: "created by another contract (a factory or CREATE2): no transaction of its block names it, and the node's traces are not read",
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);
