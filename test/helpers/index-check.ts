import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";
import { IERC721__factory } from "../../typechain-types";
import type { Queryable } from "../../server/db/database";
import { hex } from "./index-sql";
import { CONSECUTIVE_TRANSFER_TOPIC, TRANSFER_TOPIC } from "../../server/indexer/transfers";

/**
 * The compact index tables as rows of names and lower-case hex (as the tables were before ids), for tests that
 * compare them with the chain: `SELECT ... FROM ${INDEXED_OWNERS} WHERE network = $1`.
 */
export const INDEXED_OWNERS = `(SELECT n.name AS network, ${hex("c.address")} AS contract, o.token_id, ${hex("w.address")} AS owner
  FROM nft_owners o JOIN indexer_networks n ON n.id = o.network_id
  JOIN nft_addresses c ON c.id = o.contract_id JOIN nft_addresses w ON w.id = o.owner_id) indexed_owners`;
export const INDEXED_TRANSFERS = `(SELECT n.name AS network, t.block_number, t.log_index, t.batch_index, ${hex("c.address")} AS contract,
    t.token_id, ${hex("f.address")} AS from_address, ${hex("r.address")} AS to_address
  FROM nft_transfers t JOIN indexer_networks n ON n.id = t.network_id
  JOIN nft_addresses c ON c.id = t.contract_id JOIN nft_addresses f ON f.id = t.from_id JOIN nft_addresses r ON r.id = t.to_id) indexed_transfers`;

/**
 * Resolves once the index of `network` is complete to `block` (default: the head now) on the chain `provider`
 * serves: the cursor must have reached it and name a block of this chain (an index of another chain does not count).
 */
export async function indexedTo(
  db: Queryable,
  network: string,
  provider: JsonRpcProvider,
  block?: number,
  timeoutMs = 30_000,
): Promise<void> {
  const target = block ?? (await provider.getBlockNumber());
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ block_number: string; block_hash: string }>(
      "SELECT block_number, block_hash FROM indexer_cursors WHERE network = $1",
      [network],
    );
    const at = rows[0] ? Number(rows[0].block_number) : -1;
    if (at >= target && (await provider.getBlock(at))?.hash === rows[0].block_hash) return;
    if (Date.now() > deadline)
      throw new Error(`the index of ${network} did not reach block ${target} of this chain (at ${rows[0]?.block_number ?? "nothing"})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Compares the index with `ownerOf` on chain for every token id given (a burned or unminted id has no row). */
export async function expectIndexMatchesChain(
  db: Queryable,
  provider: JsonRpcProvider,
  network: string,
  contract: string,
  ids: bigint[],
): Promise<void> {
  const token = IERC721__factory.connect(contract, provider);
  const { rows } = await db.query<{ token_id: string; owner: string }>(
    `SELECT token_id, owner FROM ${INDEXED_OWNERS} WHERE network = $1 AND contract = $2`,
    [network, contract.toLowerCase()],
  );
  const indexed = new Map(rows.map((r) => [r.token_id, r.owner]));
  const mismatches: string[] = [];
  await Promise.all(
    ids.map(async (id) => {
      const onChain = await token.ownerOf(id).then(
        (o) => o.toLowerCase(),
        () => undefined,
      );
      if (indexed.get(id.toString()) !== onChain) mismatches.push(`${id}: index ${indexed.get(id.toString())}, chain ${onChain}`);
    }),
  );
  expect(mismatches, mismatches.slice(0, 10).join("\n")).to.deep.equal([]);
  // No loss, no double counting: the same transfers as the chain's logs, up to the block the index is complete to
  // (each id of a ConsecutiveTransfer range is one, at its offset in the range).
  const cursor = await db.query<{ block_number: string }>("SELECT block_number FROM indexer_cursors WHERE network = $1", [network]);
  const to = Number(cursor.rows[0].block_number);
  const logs: Array<{ blockNumber: string; logIndex: string; topics: string[]; data: string }> = await provider.send("eth_getLogs", [
    { fromBlock: "0x0", toBlock: `0x${to.toString(16)}`, address: contract, topics: [[TRANSFER_TOPIC, CONSECUTIVE_TRANSFER_TOPIC]] },
  ]);
  const { rows: transfers } = await db.query<{ block_number: string; log_index: number; batch_index: number }>(
    `SELECT block_number, log_index, batch_index FROM ${INDEXED_TRANSFERS} WHERE network = $1 AND contract = $2
     ORDER BY block_number, log_index, batch_index`,
    [network, contract.toLowerCase()],
  );
  const expected = logs.flatMap((l) => {
    const at = `${Number(l.blockNumber)}:${Number(l.logIndex)}`;
    if (l.topics[0] === TRANSFER_TOPIC) return [`${at}:0`];
    const ids = Number(BigInt(l.data) - BigInt(l.topics[1]) + 1n);
    return Array.from({ length: ids }, (_, i) => `${at}:${i}`);
  });
  expect(transfers.map((t) => `${t.block_number}:${t.log_index}:${t.batch_index}`)).to.deep.equal(expected);
}
