import { migrate } from "../../server/db/migrate";
import type { Queryable } from "../../server/db/database";
import { holderCountAt, holdersAt, holdersPage } from "../../server/indexer";
import { createTestDatabase } from "../../support/database";
import { ingestWithClassifier } from "../lib/classifier-ingest";
import { collectionRoutes } from "../lib/collection-routes";
import { deployCollections } from "../lib/collections-chain";
import { withLocalChain } from "../lib/local-chain";
import type { Row, Suite } from "../lib/suite";

const NETWORK = "bench";
const CONTRACT = `0x1${"0".repeat(39)}`;
/** Transfers of the one contract, per size: half mints, half moves between owners (ten tokens per owner). */
const SIZES = (process.env.BENCH_COLLECTIONS_TRANSFERS ?? "10000,1000000").split(",").map(Number);
const SMOKE_SIZES = [2_000];
const ROUNDS = 5;
const PAGE = 100;
/** The chain of the route and ingest measures: collections, mints per collection and tokens per mint; sync rounds. */
const FULL = { contracts: 40, mintsPerContract: 12, tokensPerMint: 200, rounds: 3 };
const SMOKE = { contracts: 4, mintsPerContract: 12, tokensPerMint: 10, rounds: 1 };

/**
 * The collection route, the contracts of an owner with details, the indexer's ingest with the spam classifier on and
 * off, and holders at a block at 10,000 and 1,000,000 transfers of one contract.
 */
const collections: Suite = {
  onlyWhenNamed: true,
  method: [
    "A local Hardhat node with 40 ERC-721 collections, each minted by its deployer in 12 transactions of 200 tokens (96,000 transfers): the first to one holder, the others to new addresses, nothing moved (airdrops the spam rules look at closely: the classifier asks the senders of their mints).",
    "Ingest: the service (in its own process, `INDEXER_MAX_RANGE=20` so that the sync goes in many steps between which the classifier runs) syncs the chain on a fresh database with `SPAM_CLASSIFIER=true` beside `false`, three rounds in turn; the time and the server CPU (the service's process and, on PostgreSQL, its client backends, from /proc) from its start-up line to its index at the head, medians; then, classifier on, the time until every collection has a verdict.",
    "The collection route through a JSON-RPC proxy that counts the service's calls to the node, once every verdict is in: each collection read once one after another (the first read finds the deployment), again after a block is mined (the chain facts are cached per block), again from the cache (medians), then the cached reads at 32 connections.",
    "The holder's contracts (`GET /inventory/:network/:owner`, all 40 on one page) with `details=true` beside the same page without, 32 connections each, in turn three times (the first of each round alternating), medians.",
    "Holders at a block: one contract's transfers are written by SQL into a fresh database (BENCH_COLLECTIONS_TRANSFERS, default 10,000 and 1,000,000): half of them mints of one token each to one of a tenth as many owners, half moves of those tokens to another owner, a hundred per block, with the holdings and the summary the indexer keeps.",
    "Each read runs 5 times at the last block and the median is kept: a page of 100 holders at a block and their count, beside a page of 100 of today's holders (the index-only read of `nft_holdings`).",
    "Peak memory is the largest sort or hash the database reports for the page's statement (`EXPLAIN (ANALYZE)`).",
  ],
  async run({ log, database, seconds, smoke }) {
    const shape = smoke ? SMOKE : FULL;
    const rows: Row[] = [];
    await withLocalChain(async ({ node, provider }) => {
      log(`collections: deploying ${shape.contracts} collections, ${shape.mintsPerContract} mints of ${shape.tokensPerMint} tokens each`);
      const chain = await deployCollections(provider, shape);
      const run = { nodeUrl: node.url, chain, log };
      rows.push(...(await ingestWithClassifier({ ...run, rounds: shape.rounds, database })));
      rows.push(...(await collectionRoutes({ ...run, provider, seconds })));
    });
    rows.push(...(await holdersSnapshots({ sizes: smoke ? SMOKE_SIZES : SIZES, database, log })));
    return rows;
  },
};

/** Holders at a block, and their count, beside today's holders of the same contract, at each size. */
async function holdersSnapshots({ sizes, database, log }: { sizes: number[]; database: string; log: (message: string) => void }) {
  const rows: Row[] = [];
  for (const transfers of sizes) {
    const created = await createTestDatabase();
    const db = await created.open();
    try {
      await migrate(db);
      log(`collections: writing ${transfers.toLocaleString("en-US")} transfers of one contract`);
      // Written as the indexer writes a range: under the long statement bound (a million rows at once).
      const block = await db.transaction((tx) => fill(tx, transfers), { long: true });
      const snapshot = await median(() => holdersAt(db, { network: NETWORK, contract: CONTRACT, block, limit: PAGE }));
      const count = await median(() => holderCountAt(db, { network: NETWORK, contract: CONTRACT, block }));
      const today = await median(() => holdersPage(db, { network: NETWORK, contract: CONTRACT, limit: PAGE }));
      const size = transfers >= 1_000_000 ? `${transfers / 1_000_000}M` : `${transfers / 1000}k`;
      const reference = { label: "today's holders, page of 100", value: today };
      rows.push(
        {
          suite: "collections",
          metric: `holders at a block, page of 100, ${size} transfers (${database})`,
          value: snapshot,
          unit: "ms",
          reference,
          ratio: snapshot / today,
        },
        {
          suite: "collections",
          metric: `holder count at a block, ${size} transfers (${database})`,
          value: count,
          unit: "ms",
          reference,
          ratio: count / today,
        },
        {
          suite: "collections",
          metric: `holders at a block, peak sort/hash memory, ${size} transfers (${database})`,
          value: await peakMemory(db, block),
          unit: "kB",
        },
      );
    } finally {
      await created.drop();
    }
  }
  return rows;
}

/** Writes the contract's transfers, holdings, summary and the network's cursor; the last block. */
async function fill(db: Queryable, transfers: number): Promise<number> {
  const tokens = Math.floor(transfers / 2);
  const owners = Math.max(1, Math.floor(tokens / 10));
  const last = Math.ceil(transfers / 100);
  await db.query("INSERT INTO indexer_networks (name) VALUES ($1)", [NETWORK]);
  await db.query("INSERT INTO indexer_cursors (network, block_number, block_hash, updated_at) VALUES ($1, $2, $3, now())", [
    NETWORK,
    last,
    `0x${"0".repeat(64)}`,
  ]);
  // Address 0: the zero address; 1: the contract; 2 + n: owner n.
  await db.query(
    `INSERT INTO nft_addresses (id, address) SELECT n, CASE WHEN n = 0 THEN decode(repeat('0', 40), 'hex')
       WHEN n = 1 THEN decode(substr($1, 3), 'hex') ELSE decode('2' || lpad(to_hex(n), 39, '0'), 'hex') END
     FROM generate_series(0, $2::int + 1) n`,
    [CONTRACT, owners],
  );
  // Transfer i: a mint of token i (i < tokens), else a move of token i - tokens from its first owner to the next one.
  await db.query(
    `INSERT INTO nft_transfers (block_number, block_time, log_index, batch_index, contract_id, from_id, to_id, network_id, tx_hash, token_id)
     SELECT i / 100 + 1, NULL, i % 100, 0, 1,
       CASE WHEN i < $1 THEN 0 ELSE 2 + (i - $1) % $2 END,
       CASE WHEN i < $1 THEN 2 + i % $2 ELSE 2 + (i - $1 + 1) % $2 END,
       (SELECT id FROM indexer_networks WHERE name = $3), decode(lpad(to_hex(i), 64, '0'), 'hex'),
       CASE WHEN i < $1 THEN i ELSE i - $1 END
     FROM generate_series(0, $4::int - 1) i`,
    [tokens, owners, NETWORK, transfers],
  );
  await db.query(
    `INSERT INTO nft_holdings (network_id, contract, owner, count)
     SELECT (SELECT id FROM indexer_networks WHERE name = $1), a.address, o.address, count(*)
     FROM (SELECT DISTINCT ON (token_id) to_id FROM nft_transfers ORDER BY token_id, block_number DESC, log_index DESC) last
     JOIN nft_addresses o ON o.id = last.to_id CROSS JOIN nft_addresses a WHERE a.id = 1 GROUP BY a.address, o.address`,
    [NETWORK],
  );
  await db.query(
    `INSERT INTO nft_contract_summaries (network_id, contract, standard, first_block, last_block, transfers, supply)
     SELECT (SELECT id FROM indexer_networks WHERE name = $1), decode(substr($2, 3), 'hex'), 'erc721', 1, $3, $4, $5`,
    [NETWORK, CONTRACT, last, transfers, tokens],
  );
  await db.query("ANALYZE");
  return last;
}

async function median(read: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await read();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

/** The largest sort or hash the page statement's plan reports, in kB. */
async function peakMemory(db: Queryable, block: number): Promise<number> {
  let peak = 0;
  const capture = {
    query: async (sql: string, params?: readonly unknown[]) => {
      const { rows } = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE) ${sql}`, params);
      for (const { "QUERY PLAN": line } of rows)
        for (const match of line.matchAll(/Memory(?: Usage)?: (\d+)kB/g)) peak = Math.max(peak, Number(match[1]));
      return { rows: [], rowCount: 0 };
    },
  } as unknown as Queryable;
  await holdersAt(capture, { network: NETWORK, contract: CONTRACT, block, limit: PAGE });
  return peak;
}

export default collections;
