import { Interface, type JsonRpcProvider } from "ethers";
import type { Queryable } from "../../server/db/database";

const TRANSFER = new Interface(["event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)"]);

/**
 * Waits until the index of `localhost` is complete to the chain's head (its cursor at the head's number and hash),
 * then compares it with the chain: every Transfer log of `contract` indexed once at its place, and every token's
 * owner the one the logs leave. Resolves with the differences (none when the index equals the chain).
 */
export async function compareIndexWithChain(
  db: Queryable,
  provider: JsonRpcProvider,
  contract: string,
  timeoutMs = 180_000,
): Promise<string[]> {
  const head = await provider.getBlock("latest");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ block_number: string; block_hash: string }>(
      "SELECT block_number::text, block_hash FROM indexer_cursors WHERE network = 'localhost'",
    );
    if (rows[0] && Number(rows[0].block_number) >= head!.number) {
      const at = await provider.getBlock(Number(rows[0].block_number));
      if (at?.hash === rows[0].block_hash) break;
    }
    if (Date.now() > deadline) return [`the index did not reach the head ${head!.number} (cursor ${JSON.stringify(rows[0])})`];
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const logs = await provider.getLogs({
    address: contract,
    fromBlock: 0,
    toBlock: head!.number,
    topics: [TRANSFER.getEvent("Transfer")!.topicHash],
  });
  const owners = new Map<string, string>();
  for (const log of logs) {
    const { to, tokenId } = TRANSFER.parseLog(log)!.args;
    owners.set(tokenId.toString(), (to as string).toLowerCase());
  }
  const { rows: transfers } = await db.query<{ at: string }>(
    `SELECT t.block_number || ':' || t.log_index AS at FROM nft_transfers t
     JOIN indexer_networks n ON n.id = t.network_id JOIN nft_addresses c ON c.id = t.contract_id
     WHERE n.name = 'localhost' AND c.address = decode(substr($1, 3), 'hex') AND t.block_number <= $2
     ORDER BY t.block_number, t.log_index, t.batch_index`,
    [contract.toLowerCase(), head!.number],
  );
  const { rows: indexed } = await db.query<{ token_id: string; owner: string }>(
    `SELECT o.token_id::text, '0x' || encode(w.address, 'hex') AS owner FROM nft_owners o
     JOIN indexer_networks n ON n.id = o.network_id JOIN nft_addresses c ON c.id = o.contract_id JOIN nft_addresses w ON w.id = o.owner_id
     WHERE n.name = 'localhost' AND c.address = decode(substr($1, 3), 'hex')`,
    [contract.toLowerCase()],
  );
  const differences: string[] = [];
  const expected = logs.map((log) => `${log.blockNumber}:${log.index}`);
  const got = transfers.map((row) => row.at);
  if (expected.join() !== got.join()) {
    const missing = expected.filter((at) => !got.includes(at));
    const extra = got.filter((at) => !expected.includes(at));
    differences.push(
      `transfers: ${expected.length} on chain, ${got.length} indexed; missing ${missing.slice(0, 5)}; extra ${extra.slice(0, 5)}`,
    );
  }
  const indexedOwners = new Map(indexed.map((row) => [row.token_id, row.owner]));
  for (const [id, owner] of owners)
    if (indexedOwners.get(id) !== owner) differences.push(`token ${id}: chain ${owner}, index ${indexedOwners.get(id)}`);
  for (const id of indexedOwners.keys()) if (!owners.has(id)) differences.push(`token ${id}: indexed, not on chain`);
  return differences;
}
