import pg from "pg";
import { openDatabase, type Database, type Queryable } from "../../server/db/database";
import { contractsPage, historyPage, holderCount, holdersPage, inventoryPage, tokenHolding } from "../../server/indexer";
import { writeRange, type IndexedRange } from "../../server/indexer/store/writes";
import { ZERO_ADDRESS, type Transfer, type Transfer1155 } from "../../server/indexer/transfers";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { withQueryHook } from "../../support/query-hook";
import { startLocalNode } from "../../local/node";
import { ServerCpu } from "../lib/cpu";
import { CONNECTIONS, load } from "../lib/load";
import { pageAgainstLatestBlock } from "../lib/page-budgets";
import { startService, type Service } from "../lib/service";
import type { Row, Suite } from "../lib/suite";

const NETWORK = "mainnet";
/** Tokens of each contract (ids 0–999) held by one owner, so the inventory's first page is full. */
const WHALE_TOKENS = 1000;

interface Size {
  name: string;
  tokens: number;
  owners: number;
  contracts: number;
}
// 3 transfers per token: a mint and two transfers.
const LARGE_TOKENS = Number(process.env.BENCH_SCALE_TOKENS ?? 10_000_000);
const size = (tokens: number): Size => ({
  name: fmtSize(tokens),
  tokens: Math.round(tokens),
  owners: Math.max(1, Math.round(tokens / 10)),
  contracts: Math.max(1, Math.round(tokens / 10_000)),
});
/** The smoke's large size: small enough to load in a second or two. */
const SMOKE_TOKENS = 10_000;
const sizesOf = (large: number): Size[] => [size(large / 100), size(large)];

/** A size's label: 10k, 1M, 33.3M (three significant digits). */
function fmtSize(n: number) {
  return n >= 1_000_000 ? `${Number((n / 1_000_000).toPrecision(3))}M` : `${Number((n / 1000).toPrecision(3))}k`;
}

// The synthetic data's addresses, the same in SQL (bench_address) and here: a kind digit (1 ERC-721 contract, 2 owner, 3 ERC-1155 contract) and
// the number in hex. Cheap to make at 30 million rows; lookups by address cost the same whatever the digits.
const address = (kind: 1 | 2 | 3, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;
const random = (n: number) => Math.floor(Math.random() * n);
/**
 * Rounds of measurement per read and size, alternating sizes (the machine is shared: load from others varies), and
 * seconds of warm-up before each: the full run's, then the smoke's.
 */
const FULL = { rounds: 3, warmUpSeconds: 2 };
const SMOKE = { rounds: 1, warmUpSeconds: 0 };
/** Keys drawn per read (paths made before the load, so making them costs the load generator nothing). */
const KEYS = 20_000;
/**
 * BENCH_SCALE_REUSE=1: the databases are named by their number of tokens (bench_scale_100000, bench_scale_10000000) and kept after the run;
 * a later run reuses one that is present and complete (filled to the end by this version of fill()) instead of
 * loading it again. Without it, each run loads fresh databases and drops them.
 */
const REUSE = process.env.BENCH_SCALE_REUSE === "1";
/** Written with a kept database when its fill completes; a database filled by another version is loaded again. */
const FILL_VERSION = 5;
/**
 * Time to live of the synthetic metadata cache entries: longer than the service's default, so a kept database
 * stays fresh between runs; a reused one whose entries expire within a day is refreshed first.
 */
const CACHE_TTL_S = 30 * 86_400;

const scale: Suite = {
  method: [
    "The reads of the data service over a large index: synthetic transfers (not mined) at two sizes, the full size (`BENCH_SCALE_TOKENS` ERC-721 tokens over a tenth as many owners, three transfers per token, and ERC-1155 transfers a twentieth as many in contracts of their own, 150 an id at both sizes) and 1/100 of it.",
    "The index is written by the store's own writer (`writeRange`), one range of 1,000 blocks (100,000 ERC-721 and 5,000 ERC-1155 transfers) per transaction as a cold sync would, so the rows, address ids, owners, balances, holdings and holder counts are laid out by the code the service runs; the metadata cache is written by SQL beside it.",
    "The indexes the writer does not read (of the transfers, and the owners', holdings' and balances' by owner) are built after the load, once the tables are compacted (`VACUUM FULL`: the writer's moves of owners and holdings leave old row versions behind), then the tables are analyzed; the token route reads a small cached document per token.",
    "Both sizes are served at once by two service processes (the spam classifier off: it would read the contracts at the synthetic index's head, far ahead of the bench's node, and fail at every pass; the collections suite measures it) and each read is measured on them in alternation, 3 rounds at 32 connections after a warm-up, medians shown; every request draws its keys at random over the whole data set.",
    "The ERC-1155 reads (a holder's inventory in a contract, a contract's holders and their count, a token's history) are measured and budgeted as the ERC-721 ones; the owner history reads both standards.",
    "Then the owner history is measured once more, after `pg_prewarm` read the transfers, their sender and receiver indexes and the address dictionary of both databases through the page cache: no budget applies to it, it tells the layout's cost from the disk's.",
    "Beside each read, its server CPU per request at both sizes, read from /proc over its measured loads (medians of the rounds): the service process's and its PostgreSQL backends'; no budget applies to them, they tell whether a read that slows down at the full size spends more in the service or in the database.",
    "The data pages (an inventory's, a contract's holders', a token's and an owner's history's first pages) are also held at each size to the latest-block route measured on the same service before and after the reads (the mean of both; its head comes from a Hardhat node of the bench's own), as in the indexer suite: at least 0.25× its requests per second and at most 4× its p99.",
    "The full size must keep at least 0.7× the requests per second and at most 1.5× the p99 of the small one; the bench prints the plan (`EXPLAIN (ANALYZE, BUFFERS)`) of the statement each read of the store sends, recorded as the store's read functions send it, and the bytes per row of each table and index.",
    "Disk (`pg_relation_size`): the ERC-721 transfers with their indexes must take at most 300 bytes per transfer (also shown with the address dictionary's share, and beside the ERC-1155 transfers' bytes per transfer, the same layout with an amount), and the owners, holdings and holder counts with their indexes at most 150 bytes per token.",
  ],
  onlyWhenNamed: true,
  async run({ seconds, log, database, smoke }) {
    const SIZES = sizesOf(smoke ? SMOKE_TOKENS : LARGE_TOKENS);
    const { rounds: ROUNDS, warmUpSeconds: WARM_UP_SECONDS } = smoke ? SMOKE : FULL;
    if (database !== "PostgreSQL") {
      log("scale: needs PostgreSQL (DATABASE_URL); skipped");
      return [];
    }
    // The latest-block route asks the node for the head (one call a second, the head cache's time to live).
    const node = await startLocalNode();
    // Both sizes are loaded and served at once, and each read is measured on them in alternation.
    const services: Array<{ size: Size; app: Service; plans: string; disk: Disk; loadSeconds: number }> = [];
    // Each service's CPU and its backends', read around each measured load.
    const cpus: ServerCpu[] = [];
    try {
      for (const size of SIZES) {
        const entry = { size, plans: "", disk: undefined as Disk | undefined, loadSeconds: 0 };
        const { database, loadSeconds } = await databaseFor(size, !smoke && REUSE, log);
        const app = await startService(
          // The spam classifier reads its contracts at the index's head, which the synthetic index puts far ahead of the
          // bench's node: every pass failed and began again, about 25 ms of the service's CPU a second at 1M tokens
          // (110 contracts), charged to the reads. The collections suite measures it.
          { RPC_URL_MAINNET: node.url, INDEXER: "false", SPAM_CLASSIFIER: "false" },
          async (db, applied) => {
            if (loadSeconds !== undefined) {
              await refresh(db, size, applied.length > 0, log);
              entry.loadSeconds = loadSeconds;
            } else entry.loadSeconds = await fill(db, size, log);
            entry.plans = await explain(db, size);
            entry.disk = await diskUsage(db, size);
          },
          { database, countQueries: true },
        );
        const service = { ...entry, disk: entry.disk!, app };
        services.push(service);
        await checkCached(app, size);
        service.plans += await explainSeen(app, database, /\bFROM (token_metadata|metadata_posts)\b/);
      }
      for (const { size, plans, disk, loadSeconds } of services) {
        console.log(`\nscale ${size.name}: query plans\n${plans}`);
        console.log(
          `scale ${size.name}: loaded in ${loadSeconds} s (rows, compaction, indexes, vacuum); disk size of each table and index\n${disk.text}`,
        );
      }
      const measured = services.map(({ size }) => ({ size, results: new Map<string, Measured>() }));
      for (const { app } of services) cpus.push(await ServerCpu.forService(app));
      /** Measures read `r` on both sizes in alternation, ROUNDS rounds, and records its medians under `name`. */
      const measure = async (r: number, name: string) => {
        const samples = services.map(() => [] as Measured[]);
        for (let round = 0; round < ROUNDS; round++) {
          for (const [i, { size, app }] of services.entries()) {
            const paths = Array.from({ length: KEYS }, reads(size)[r].path);
            let n = 0;
            const next = () => ({ path: paths[n++ % paths.length] });
            log(`${size.name}: ${name}, round ${round + 1}/${ROUNDS}, ${CONNECTIONS} connections, ${WARM_UP_SECONDS} + ${seconds} s`);
            if (WARM_UP_SECONDS > 0)
              await load({ what: `${name}, warm-up`, url: app.url, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, next });
            const before = await cpus[i].sample();
            const result = await load({ what: name, url: app.url, connections: CONNECTIONS, seconds, next });
            const used = ServerCpu.between(before, await cpus[i].sample());
            const requests = result.requestsPerSecond * seconds;
            samples[i].push({
              rps: result.requestsPerSecond,
              p99: result.p99Ms,
              serviceMicros: (used.service * 1000) / requests,
              databaseMicros: (used.database * 1000) / requests,
            });
          }
        }
        for (const [i, m] of measured.entries()) {
          const of = (field: keyof Measured) => median(samples[i].map((x) => x[field]));
          m.results.set(name, { rps: of("rps"), p99: of("p99"), serviceMicros: of("serviceMicros"), databaseMicros: of("databaseMicros") });
        }
      };
      for (const [r, read] of reads(SIZES[0]).entries()) await measure(r, read.name);
      await measure(
        reads(SIZES[0]).findIndex((read) => read.name === LATEST_BLOCK),
        LATEST_BLOCK_AGAIN,
      );
      const floors = againstLatestBlock(measured);
      for (const m of measured) m.results.delete(LATEST_BLOCK_AGAIN);
      const budgeted = compare(measured);
      // The owner history again, once the relations it reads are in the page cache: whether it is the layout or the
      // disk that holds it back at the full size. For the record, with no budget.
      const ownerHistory = reads(SIZES[0]).findIndex((read) => read.name.startsWith("history of an owner"));
      const warmName = `${reads(SIZES[0])[ownerHistory].name}, its relations read into memory first (pg_prewarm)`;
      let warm: Row[] = [];
      if (
        await prewarm(
          services.map(({ app }) => (app.database.config as { url: string }).url),
          OWNER_HISTORY_RELATIONS,
          log,
        )
      ) {
        for (const m of measured) m.results.clear();
        await measure(ownerHistory, warmName);
        warm = compare(measured).map(({ budget: _, ...row }) => row);
      }
      return [...budgeted, ...floors, ...warm, ...diskRows(services)];
    } finally {
      for (const cpu of cpus) await cpu.close();
      for (const { app } of services) await app.stop();
      await node.stop();
    }
  },
};

/** What the owner history reads: the transfers, their sender and receiver indexes, and the address dictionary. */
const OWNER_HISTORY_RELATIONS = ["nft_transfers", "nft_transfers_from", "nft_transfers_to", "nft_addresses", "nft_addresses_pkey"];

/**
 * Reads `relations` of each database through the page cache (pg_prewarm's `read` mode), when the server has the
 * extension; false (and a log line) when it has not.
 */
async function prewarm(urls: string[], relations: string[], log: (message: string) => void): Promise<boolean> {
  const [available] = await query(urls[0], "SELECT 1 AS ok FROM pg_available_extensions WHERE name = 'pg_prewarm'");
  if (!available) {
    log("pg_prewarm is not available on this server: the warm owner history is not measured");
    return false;
  }
  for (const url of urls) {
    await query(url, "CREATE EXTENSION IF NOT EXISTS pg_prewarm");
    for (const relation of relations) {
      const started = performance.now();
      const [{ blocks }] = await query<{ blocks: string }>(url, "SELECT pg_prewarm($1::regclass, 'read')::text AS blocks", [relation]);
      log(
        `${new URL(url).pathname.slice(1)}: ${relation} read, ${blocks} blocks in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  }
  return true;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** What one read's load gave at one size: its rate, its p99 and its server CPU per request. */
interface Measured {
  rps: number;
  p99: number;
  /** The service process's CPU per request (µs). */
  serviceMicros: number;
  /** Its PostgreSQL backends' CPU per request (µs). */
  databaseMicros: number;
}

/**
 * The full size against the small one, per read: req/s ≥ 0.7×, p99 ≤ 1.5× (medians of the rounds), and with no
 * budget, where a request's CPU goes at each size.
 */
function compare(measured: Array<{ size: Size; results: Map<string, Measured> }>): Row[] {
  const [small, large] = measured;
  const rows: Row[] = [];
  for (const [name, big] of large.results) {
    const base = small.results.get(name)!;
    const rpsRatio = big.rps / base.rps;
    const p99Ratio = big.p99 / base.p99;
    rows.push({
      suite: "scale",
      metric: `${name}, ${large.size.name}, ${CONNECTIONS} conn`,
      value: big.rps,
      unit: "req/s",
      reference: { label: small.size.name, value: base.rps },
      ratio: rpsRatio,
      budget: { text: "≥ 0.7", met: rpsRatio >= 0.7 },
    });
    rows.push({
      suite: "scale",
      metric: `${name}, ${large.size.name}, p99`,
      value: big.p99,
      unit: "ms",
      reference: { label: small.size.name, value: base.p99 },
      ratio: p99Ratio,
      budget: { text: "≤ 1.5 (p99 at large / small)", met: p99Ratio <= 1.5 },
    });
    for (const [part, field] of [
      ["the service", "serviceMicros"],
      ["PostgreSQL backends", "databaseMicros"],
    ] as const) {
      rows.push({
        suite: "scale",
        metric: `${name}, ${large.size.name}, server CPU per request: ${part}`,
        value: big[field],
        unit: "µs",
        reference: { label: small.size.name, value: base[field] },
        ratio: big[field] / base[field],
      });
    }
  }
  return rows;
}

/** The floor the data pages are held to at each size (the first read, measured again after the others). */
const LATEST_BLOCK = "latest block";
const LATEST_BLOCK_AGAIN = "latest block, again";
/** The data pages held to it (lib/page-budgets.ts), as in the indexer suite. */
const PAGES = [
  "inventory, first page of 100",
  "holders, first page of 100",
  "history of a token, first page",
  "history of an owner, first page",
];

/** Each data page at each size against the latest-block route on the same service (the mean of its two loads). */
function againstLatestBlock(measured: Array<{ size: Size; results: Map<string, Measured> }>): Row[] {
  const rows: Row[] = [];
  for (const { size, results } of measured) {
    const floors = [results.get(LATEST_BLOCK)!, results.get(LATEST_BLOCK_AGAIN)!];
    const floor = { rps: (floors[0].rps + floors[1].rps) / 2, p99: (floors[0].p99 + floors[1].p99) / 2 };
    rows.push(
      { suite: "scale", metric: `latest block (mean of 2), ${size.name}, ${CONNECTIONS} conn`, value: floor.rps, unit: "req/s" },
      { suite: "scale", metric: `latest block (mean of 2), ${size.name}, p99`, value: floor.p99, unit: "ms" },
    );
    for (const name of PAGES) {
      rows.push(
        ...pageAgainstLatestBlock({
          suite: "scale",
          rateMetric: `${name}, ${size.name}, ${CONNECTIONS} conn, against the latest block`,
          p99Metric: `${name}, ${size.name}, p99 against the latest block`,
          page: results.get(name)!,
          floor,
          judged: true,
        }),
      );
    }
  }
  return rows;
}

/** The measured reads, each request with keys drawn at random over the data set; the first is the floor, the latest block. */
function reads(size: Size): Array<{ name: string; path: () => string }> {
  const contract = (c: number) => address(1, c);
  const owner = (o: number) => address(2, o);
  // Token i of the synthetic data: id ⌊i / contracts⌋ of contract i mod contracts.
  const token = () => {
    const i = random(size.tokens);
    return `${contract(i % size.contracts)}/${Math.floor(i / size.contracts)}`;
  };
  return [
    { name: LATEST_BLOCK, path: () => `/block/${NETWORK}/latest` },
    // Owner c holds ids 0–999 of contract c: a full first page.
    {
      name: "inventory, first page of 100",
      path: () => {
        const c = random(size.contracts);
        return `/inventory/${NETWORK}/${owner(c)}/${contract(c)}`;
      },
    },
    { name: "contracts of an owner", path: () => `/inventory/${NETWORK}/${owner(random(size.owners))}` },
    { name: "holders, first page of 100", path: () => `/holders/${NETWORK}/${contract(random(size.contracts))}` },
    { name: "holders count", path: () => `/holders/${NETWORK}/${contract(random(size.contracts))}/count` },
    { name: "history of a token, first page", path: () => `/transfers/${NETWORK}/${token()}` },
    { name: "history of an owner, first page", path: () => `/transfers/${NETWORK}/owner/${owner(random(size.owners))}` },
    // Its owner, its metadata from the cache (filled by fill(), fresh) and its signed metadata (none here).
    { name: "token route from cache", path: () => `/token/${NETWORK}/${token()}` },
    // ERC-1155, held to the same growth budgets: the same routes over nft_balances, nft_holdings and nft_1155_transfers.
    {
      name: "ERC-1155 inventory of a holder, first page of 100",
      path: () => {
        const { holder, contract } = erc1155Mint(size, random(erc1155Of(size).transfers / 2));
        return `/inventory/${NETWORK}/${owner(holder)}/${address(3, contract)}`;
      },
    },
    { name: "ERC-1155 holders, first page of 100", path: () => `/holders/${NETWORK}/${address(3, random(erc1155Of(size).contracts))}` },
    { name: "ERC-1155 holders count", path: () => `/holders/${NETWORK}/${address(3, random(erc1155Of(size).contracts))}/count` },
    {
      name: "ERC-1155 history of a token, first page",
      path: () => `/transfers/${NETWORK}/${address(3, random(erc1155Of(size).contracts))}/${random(erc1155Of(size).ids)}`,
    },
  ];
}

/** ERC-1155 transfers per ERC-721 transfer: a small share, in contracts of their own (one standard per contract). */
const ERC1155_SHARE = 0.05;
/** ERC-1155 transfers per block (after the block's 100 ERC-721 transfers). */
const ERC1155_PER_BLOCK = 5;
/**
 * Ids per ERC-1155 contract at most, and transfers per id: fewer ids at a small size, so that a token's history has
 * the same 150 transfers at both sizes and its first page the same 100 rows (with 100 ids, the 10k size's ids had 15
 * transfers each, and its pages were compared with pages of 100).
 */
const ERC1155_IDS = 100;
const ERC1155_TRANSFERS_PER_ID = 150;
/** Blocks per range handed to the store's writer: 100,000 ERC-721 transfers and 5,000 ERC-1155 ones. */
const RANGE_BLOCKS = 1000;

/** Owner of token i after its transfer k (0 mint, 1, 2); owner c holds ids 0–999 of contract c. */
function ownerOf({ owners: O, contracts: C }: Size, i: number, k: number): number {
  if (k === 0) return (i * 40503 + 17) % O;
  if (k === 1) return (i * 69069 + 1) % O;
  if (Math.floor(i / C) < WHALE_TOKENS) return i % C;
  // i × 2654435761 passes 2^53 from 3.4 million tokens.
  return Number((BigInt(i) * 2654435761n) % BigInt(O));
}

/**
 * Mint m of the ERC-1155 data (the first half of its transfers, rangeOf): id ⌊m / contracts⌋ mod ids (erc1155Of) of
 * contract m mod contracts (kind 3) to `holder`; the transfer m of the second half moves 4 of it to `receiver`.
 */
function erc1155Mint(size: Size, m: number): { contract: number; tokenId: number; holder: number; receiver: number } {
  const { contracts } = erc1155Of(size);
  return {
    contract: m % contracts,
    tokenId: Math.floor(m / contracts) % erc1155Of(size).ids,
    holder: (m * 40503 + 17) % size.owners,
    receiver: (m * 69069 + 1) % size.owners,
  };
}

/** The ERC-1155 transfers of the synthetic data, the contracts they are spread over and the ids of each contract. */
function erc1155Of(size: Size): { transfers: number; contracts: number; ids: number } {
  const transfers = 2 * Math.max(1, Math.round((3 * size.tokens * ERC1155_SHARE) / 2));
  const contracts = Math.max(1, Math.round(size.contracts / 10));
  return { transfers, contracts, ids: Math.min(ERC1155_IDS, Math.max(1, Math.round(transfers / contracts / ERC1155_TRANSFERS_PER_ID))) };
}

const blockHash = (block: number) => `0x1${block.toString(16).padStart(63, "0")}`;

/**
 * The range of blocks [first, last) as the indexer would read it. ERC-721: transfer s (block ⌊s / 100⌋, log s mod
 * 100) is transfer k = ⌊s / T⌋ of token i = s mod T, id ⌊i / contracts⌋ of contract i mod contracts, minted to owner
 * A(i), sent to B(i), then to its owner F(i) (ownerOf). ERC-1155: transfer j (block ⌊j / 5⌋, log 100 + j mod 5) of
 * the first half mints 10 of id ⌊j / contracts⌋ of contract j mod contracts (kind 3) to an owner; transfer j of the
 * second half sends 4 of the same to another.
 */
function rangeOf(size: Size, first: number, last: number): IndexedRange {
  const { tokens: T, contracts: C } = size;
  const e = erc1155Of(size);
  const half = e.transfers / 2;
  const base = (block: number, logIndex: number, n: number) => ({
    blockNumber: block,
    blockHash: blockHash(block),
    blockTime: 1600000000 + block * 12,
    logIndex,
    txHash: `0x2${n.toString(16).padStart(63, "0")}`,
  });
  const transfers: Transfer[] = [];
  for (let s = first * 100; s < Math.min(last * 100, 3 * T); s++) {
    const i = s % T;
    const k = Math.floor(s / T);
    transfers.push({
      ...base(Math.floor(s / 100), s % 100, s),
      contract: address(1, i % C),
      tokenId: BigInt(Math.floor(i / C)),
      from: k === 0 ? ZERO_ADDRESS : address(2, ownerOf(size, i, k - 1)),
      to: address(2, ownerOf(size, i, k)),
    });
  }
  const transfers1155: Transfer1155[] = [];
  for (let j = first * ERC1155_PER_BLOCK; j < Math.min(last * ERC1155_PER_BLOCK, e.transfers); j++) {
    const mint = erc1155Mint(size, j % half);
    transfers1155.push({
      ...base(Math.floor(j / ERC1155_PER_BLOCK), 100 + (j % ERC1155_PER_BLOCK), 3 * T + j),
      batchIndex: 0,
      contract: address(3, mint.contract),
      tokenId: BigInt(mint.tokenId),
      from: j < half ? ZERO_ADDRESS : address(2, mint.holder),
      to: address(2, j < half ? mint.holder : mint.receiver),
      amount: j < half ? 10n : 4n,
    });
  }
  const end = last - 1;
  return {
    network: NETWORK,
    transfers,
    transfers1155,
    last: { block: end, hash: blockHash(end) },
    hashes: [{ block: end, hash: blockHash(end) }],
  };
}

/**
 * Writes the synthetic index through the store's own writer (writeRange), one range of RANGE_BLOCKS blocks per
 * transaction, as a cold sync would: the store gives the address ids and keeps the owners, holdings, balances and
 * holder counts. The indexes that the writer does not read (of the transfer tables all but the one by contract, which
 * tells a contract's standard; of the owners, holdings and balances all but their keys) are dropped for the load; then the tables are compacted (VACUUM FULL: the writer's
 * moves of owners and holdings leave old row versions behind), those indexes built (as a restore would), and the
 * tables analyzed. The metadata cache is written by SQL beside it. Returns the seconds it took.
 */
async function fill(db: Database, size: Size, log: (message: string) => void): Promise<number> {
  const { tokens: T } = size;
  const e = erc1155Of(size);
  await db.exec(`
    CREATE FUNCTION bench_address(kind int, n bigint) RETURNS text IMMUTABLE LANGUAGE sql
      AS $$ SELECT '0x' || kind || lpad(to_hex(n), 39, '0') $$;
  `);
  const saved = [
    ...(await dropIndexes(db, ["nft_transfers", "nft_1155_transfers", "token_metadata"], /\(network_id, contract_id\b/)),
    // The writer reads owners, holdings and balances by their keys only: their inventory indexes wait for the end too.
    ...(await dropIndexes(db, ["nft_owners", "nft_holdings", "nft_balances"], /^PRIMARY KEY\b/)),
  ];
  const started = performance.now();
  // Each step's own time, then the time since the load started.
  let step = started;
  const elapsed = () => {
    const now = performance.now();
    const took = `${((now - step) / 1000).toFixed(1)} s, ${((now - started) / 1000).toFixed(1)} s in all`;
    step = now;
    return took;
  };
  const settings =
    "SET work_mem = '512MB'; SET maintenance_work_mem = '2GB'; SET max_parallel_maintenance_workers = 2; SET synchronous_commit = off;";

  log(`${size.name}: writing ${(3 * T).toLocaleString("en-US")} ERC-721 and ${e.transfers.toLocaleString("en-US")} ERC-1155 transfers`);
  // Each token's metadata as the resolver stores a good read (token-metadata/store.ts): the document's text, its image
  // through the IPFS gateway, fresh for CACHE_TTL_S. Beside the transfers: the machine has two cores.
  const cache = db.transaction(async (tx) => {
    await tx.exec(settings);
    await tx.query(
      `INSERT INTO token_metadata (network, contract, token_id, token_uri, metadata, image, error, fetched_at, expires_at)
       SELECT '${NETWORK}', bench_address(1, c), id, 'ipfs://bafybench' || c || '/' || id || '.json',
         '{"name":"Item #' || id || '","image":"ipfs://bafybench' || c || '/' || id || '.png","attributes":[{"trait_type":"power","value":' || id % 100 || '}]}',
         'https://ipfs.io/ipfs/bafybench' || c || '/' || id || '.png', NULL, now(), now() + make_interval(secs => ${CACHE_TTL_S})
       FROM generate_series(0::bigint, ${T - 1}::bigint) i, LATERAL (SELECT i % ${size.contracts} AS c, i / ${size.contracts} AS id) x`,
    );
  });
  const blocks = Math.max(Math.ceil((3 * T) / 100), Math.ceil(e.transfers / ERC1155_PER_BLOCK));
  const transfers = async () => {
    for (let first = 0; first < blocks; first += RANGE_BLOCKS) {
      const range = rangeOf(size, first, Math.min(first + RANGE_BLOCKS, blocks));
      await db.transaction(async (tx) => {
        await tx.exec("SET LOCAL synchronous_commit = off");
        await writeRange(tx, range);
      });
      if ((first / RANGE_BLOCKS) % 50 === 49)
        log(`${size.name}: ${(first + RANGE_BLOCKS).toLocaleString("en-US")} of ${blocks.toLocaleString("en-US")} blocks written`);
    }
  };
  await Promise.all([cache, transfers()]);
  await checkRows(db, size);
  log(`${size.name}: transfers, owners, balances and metadata cache written (${elapsed()}); compacting the tables`);
  const connection = await db.connect();
  try {
    await connection.query("SET maintenance_work_mem = '2GB'");
    // The writer moved each token's owner row and holding range after range: their old versions are rewritten away,
    // so the disk per row is the layout's, as a restore would leave it, not the load's history.
    await connection.query(`VACUUM (FULL) ${INDEX_TABLES.join(", ")}`);
    log(`${size.name}: tables compacted (${elapsed()}); building indexes`);
    await connection.transaction(async (tx) => {
      await tx.exec(settings);
      for (const statement of saved) await tx.exec(statement);
    });
    log(`${size.name}: indexes built (${elapsed()}); vacuum and analyze`);
    await connection.query(`VACUUM (ANALYZE) ${INDEX_TABLES.join(", ")}`);
  } finally {
    connection.release();
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  // Last: a kept database without this row was not filled to the end.
  await db.exec(`CREATE TABLE bench_scale_fill (version int NOT NULL, tokens bigint NOT NULL, owners bigint NOT NULL, contracts bigint NOT NULL,
    cache_expires_at timestamptz NOT NULL, load_seconds float8 NOT NULL, filled_at timestamptz NOT NULL DEFAULT now())`);
  await db.query("INSERT INTO bench_scale_fill VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6)", [
    FILL_VERSION,
    T,
    size.owners,
    size.contracts,
    CACHE_TTL_S,
    seconds,
  ]);
  log(`${size.name}: ready (${elapsed()})`);
  return seconds;
}

/** The tables the load writes, vacuumed after it. */
const INDEX_TABLES = [
  "nft_transfers",
  "nft_1155_transfers",
  "nft_owners",
  "nft_balances",
  "nft_holdings",
  "nft_holder_counts",
  "nft_addresses",
  "indexer_networks",
  "indexer_cursors",
  "indexer_blocks",
  "token_metadata",
];

/**
 * The loaded index has the rows the synthetic data makes: every transfer, one owner per token, one balance per
 * ERC-1155 (id, holder) and sender left with a balance, and the cursor at the last block. Throws otherwise.
 */
async function checkRows(db: Database, size: Size): Promise<void> {
  const e = erc1155Of(size);
  const { rows } = await db.query<{ transfers: string; transfers1155: string; owners: string; cursor: string }>(
    `SELECT (SELECT count(*) FROM nft_transfers)::text AS transfers, (SELECT count(*) FROM nft_1155_transfers)::text AS transfers1155,
       (SELECT count(*) FROM nft_owners)::text AS owners, (SELECT block_number FROM indexer_cursors WHERE network = $1)::text AS cursor`,
    [NETWORK],
  );
  const got = rows[0];
  const want = { transfers: 3 * size.tokens, transfers1155: e.transfers, owners: size.tokens };
  for (const [name, n] of Object.entries(want)) {
    if (Number(got[name as keyof typeof want]) !== n)
      throw new Error(`${size.name}: ${name}: ${got[name as keyof typeof want]} rows, not ${n}`);
  }
}

/**
 * The database of one size: a fresh one (dropped after the run), or with BENCH_SCALE_REUSE=1 the kept one named by
 * its size, reused when a fill of this version completed in it (else made again, empty).
 */
async function databaseFor(
  size: Size,
  reuse: boolean,
  log: (message: string) => void,
): Promise<{ database: TestDatabase; loadSeconds?: number }> {
  if (!reuse) return { database: await createTestDatabase() };
  const serverUrl = process.env.DATABASE_URL!;
  // Named by the exact number of tokens: two sizes with the same label are different data.
  const name = `bench_scale_${size.tokens}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const exists = (await query(serverUrl, "SELECT 1 FROM pg_database WHERE datname = $1", [name])).length > 0;
  let reused = false;
  let loadSeconds: number | undefined;
  if (exists) {
    const [done] = await query<{
      version: number;
      tokens: string;
      owners: string;
      contracts: string;
      filled_at: Date;
      load_seconds: number;
    }>(
      url.toString(),
      "SELECT f.* FROM (SELECT to_regclass('bench_scale_fill') AS t) r LEFT JOIN bench_scale_fill f ON r.t IS NOT NULL",
    ).catch(() => []);
    reused =
      done?.version === FILL_VERSION &&
      Number(done.tokens) === size.tokens &&
      Number(done.owners) === size.owners &&
      Number(done.contracts) === size.contracts;
    if (reused) {
      log(`${size.name}: reusing database ${name} (filled ${done!.filled_at.toISOString()}, load took ${done!.load_seconds} s)`);
      loadSeconds = done!.load_seconds;
    } else {
      log(`${size.name}: database ${name} is incomplete or of another fill: made again`);
      await query(serverUrl, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  }
  if (!reused) await query(serverUrl, `CREATE DATABASE ${name}`);
  const config = { kind: "postgres" as const, url: url.toString() };
  return {
    loadSeconds,
    database: {
      kind: "postgres",
      config,
      appOptions: async () => ({ database: config }),
      open: () => openDatabase(config),
      // Kept for the next run.
      drop: async () => {},
    },
  };
}

/**
 * The plans of the statements the service sent (seen on the wire, with the parameters of their last run) whose SQL
 * matches `which`: the token route's reads of its metadata cache and of signed statements, as the service sends them.
 */
async function explainSeen(app: Service, database: TestDatabase, which: RegExp): Promise<string> {
  if (database.config.kind !== "postgres") return "";
  let out = "";
  for (const [sql, params] of app.lastRuns()) {
    if (!which.test(sql)) continue;
    const rows = await query<{ "QUERY PLAN": string }>(database.config.url, `EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    out += `\n-- token route: ${sql.replace(/\s+/g, " ").slice(0, 80)}\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n`;
  }
  return out;
}

async function query<T extends object>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A reused database: metadata cache entries that expire within a day are made fresh again, and after migrations
 * applied just now the tables are vacuumed and analyzed again.
 */
async function refresh(db: Database, size: Size, migrated: boolean, log: (message: string) => void): Promise<void> {
  const { rows } = await db.query<{ stale: boolean }>("SELECT cache_expires_at < now() + interval '1 day' AS stale FROM bench_scale_fill");
  if (rows[0].stale) {
    log(`${size.name}: making the metadata cache fresh again`);
    await db.exec(`UPDATE token_metadata SET fetched_at = now(), expires_at = now() + make_interval(secs => ${CACHE_TTL_S});
      UPDATE bench_scale_fill SET cache_expires_at = now() + make_interval(secs => ${CACHE_TTL_S})`);
  }
  if (rows[0].stale || migrated) {
    log(`${size.name}: vacuum and analyze`);
    const connection = await db.connect();
    try {
      await connection.query("SET maintenance_work_mem = '2GB'");
      await connection.query(`VACUUM (ANALYZE) ${INDEX_TABLES.join(", ")}`);
    } finally {
      connection.release();
    }
  }
}

/** One token of the service is answered from its metadata cache (no read of its tokenURI). */
async function checkCached(app: Service, size: Size): Promise<void> {
  const i = size.tokens - 1;
  const path = `/token/${NETWORK}/${address(1, i % size.contracts)}/${Math.floor(i / size.contracts)}`;
  const response = await fetch(`${app.url}${path}`);
  const body = (await response.json()) as { metadata?: { name?: string } | null; metadataError?: string | null };
  if (response.status !== 200 || body.metadata?.name !== `Item #${Math.floor(i / size.contracts)}`) {
    throw new Error(`${size.name}: ${path} is not answered from the metadata cache: ${response.status} ${JSON.stringify(body)}`);
  }
}

/**
 * Drops the primary keys, unique constraints and indexes of `tables`, but for those whose definition matches `keep`;
 * returns the statements that build them again.
 */
async function dropIndexes(db: Database, tables: string[], keep: RegExp): Promise<string[]> {
  const { rows: keys } = await db.query<{ table: string; name: string; definition: string }>(
    `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
     FROM pg_constraint WHERE contype IN ('p', 'u') AND conrelid::regclass::text = ANY($1)`,
    [tables],
  );
  const { rows: indexes } = await db.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE schemaname = 'public' AND tablename = ANY($1) AND indexname <> ALL($2)`,
    [tables, keys.map((k) => k.name)],
  );
  const droppedKeys = keys.filter((k) => !keep.test(k.definition));
  const dropped = indexes.filter((i) => !keep.test(i.definition));
  for (const k of droppedKeys) await db.exec(`ALTER TABLE ${k.table} DROP CONSTRAINT ${k.name}`);
  for (const i of dropped) await db.exec(`DROP INDEX ${i.name}`);
  return [
    ...droppedKeys.map((k) => `ALTER TABLE ${k.table} ADD CONSTRAINT ${k.name} ${k.definition}`),
    ...dropped.map((i) => i.definition),
  ];
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statement each read of the store sends, with keys of the synthetic data: the
 * store's read functions are called through a Queryable that records what they send, then each statement is explained.
 */
async function explain(db: Database, size: Size): Promise<string> {
  // Contract c and owner c, who holds its ids 0–999 (contract 0 at the small sizes, which have one contract).
  const c = 1 % size.contracts;
  const owner = address(2, c);
  const contract = address(1, c);
  const someone = address(2, 12345 % size.owners);
  const mint = erc1155Mint(size, 12345 % (erc1155Of(size).transfers / 2));
  const contract1155 = address(3, mint.contract);
  const reads: Array<[string, (q: Queryable) => Promise<unknown>]> = [
    ["inventory, first page", (q) => inventoryPage(q, { network: NETWORK, owner, contract, limit: 100 })],
    ["contracts of an owner", (q) => contractsPage(q, { network: NETWORK, owner: someone, limit: 100 })],
    ["holders, first page", (q) => holdersPage(q, { network: NETWORK, contract, limit: 100 })],
    ["holders count", (q) => holderCount(q, NETWORK, contract)],
    ["history of a token", (q) => historyPage(q, { network: NETWORK, of: { contract, tokenId: "5" }, limit: 100 })],
    ["history of an owner", (q) => historyPage(q, { network: NETWORK, of: { owner: someone }, limit: 100 })],
    // The token route sends three statements side by side; the other two are explained as the service sent them.
    ["token route: owner", (q) => tokenHolding(q, NETWORK, contract, 5n)],
    [
      "ERC-1155 inventory of a holder",
      (q) => inventoryPage(q, { network: NETWORK, owner: address(2, mint.holder), contract: contract1155, limit: 100 }),
    ],
    ["ERC-1155 holders, first page", (q) => holdersPage(q, { network: NETWORK, contract: contract1155, limit: 100 })],
    ["ERC-1155 holders count", (q) => holderCount(q, NETWORK, contract1155)],
    [
      "ERC-1155 history of a token",
      (q) => historyPage(q, { network: NETWORK, of: { contract: contract1155, tokenId: String(mint.tokenId) }, limit: 100 }),
    ],
  ];
  let out = "";
  for (const [name, read] of reads) {
    const sent: Array<{ sql: string; params?: readonly unknown[] }> = [];
    await read(
      withQueryHook(db, (sql, params, run) => {
        sent.push({ sql, params });
        return run();
      }),
    );
    for (const { sql, params } of sent) {
      const { rows } = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      out += `\n-- ${name}\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n`;
    }
  }
  return out;
}

interface Disk {
  /** The table of each table and index, printed. */
  text: string;
  /** nft_transfers and all its indexes, per transfer. */
  perTransfer: number;
  /** nft_1155_transfers and all its indexes, per ERC-1155 transfer. */
  perTransfer1155: number;
  /** nft_addresses and its indexes (the address dictionary), per transfer. */
  dictionaryPerTransfer: number;
  /** nft_owners, nft_holdings and nft_holder_counts with their indexes, per token. */
  ownersPerToken: number;
}

/**
 * Disk size of each table of the index and of each of its indexes (pg_relation_size, the main fork), with bytes per
 * row (per its reltuples: entries for an index), and the totals the budgets are about.
 */
async function diskUsage(db: Database, size: Size): Promise<Disk> {
  const { rows } = await db.query<{ name: string; kind: string; table: string; rows: number; bytes: string }>(
    `SELECT c.relname AS name, CASE c.relkind WHEN 'i' THEN 'index' ELSE 'table' END AS kind, coalesce(t.relname, c.relname) AS table,
       c.reltuples::float8 AS rows, pg_relation_size(c.oid)::text AS bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_index i ON i.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = i.indrelid
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i') AND pg_relation_size(c.oid) > 0 AND c.relname NOT LIKE 'bench\\_%'
     ORDER BY pg_relation_size(c.oid) DESC`,
  );
  const of = (tables: string[]) => rows.filter((r) => tables.includes(r.table)).reduce((sum, r) => sum + Number(r.bytes), 0);
  const transfers = 3 * size.tokens;
  const disk = {
    perTransfer: of(["nft_transfers"]) / transfers,
    perTransfer1155: of(["nft_1155_transfers"]) / erc1155Of(size).transfers,
    dictionaryPerTransfer: of(["nft_addresses"]) / transfers,
    ownersPerToken: of(["nft_owners", "nft_holdings", "nft_holder_counts"]) / size.tokens,
  };
  // The share of holdings depends on how the tokens spread over owners: rows of nft_holdings per token, and their bytes.
  const holdings = rows.find((r) => r.name === "nft_holdings")?.rows ?? 0;
  const perHolding = holdings > 0 ? of(["nft_holdings"]) / holdings : 0;
  const mb = (bytes: string) => `${(Number(bytes) / 2 ** 20).toFixed(1)} MiB`;
  const perRow = (r: { rows: number; bytes: string }) => (r.rows > 0 ? (Number(r.bytes) / r.rows).toFixed(1) : "");
  const lines = [
    `  ${"".padEnd(5)} ${"".padEnd(40)} ${"size".padStart(11)}  ${"rows".padStart(12)}  ${"bytes/row".padStart(9)}`,
    ...rows.map(
      (r) =>
        `  ${r.kind.padEnd(5)} ${r.name.padEnd(40)} ${mb(r.bytes).padStart(11)}  ${Math.round(r.rows).toLocaleString("en-US").padStart(12)}  ${perRow(r).padStart(9)}`,
    ),
    `  bytes per ERC-721 transfer (nft_transfers and its indexes): ${disk.perTransfer.toFixed(1)}; with the address dictionary (nft_addresses and its indexes, ${disk.dictionaryPerTransfer.toFixed(1)}): ${(disk.perTransfer + disk.dictionaryPerTransfer).toFixed(1)}`,
    `  bytes per ERC-1155 transfer (nft_1155_transfers and its indexes, the same layout with an amount): ${disk.perTransfer1155.toFixed(1)}`,
    `  bytes per token for owners and holdings (nft_owners, nft_holdings, nft_holder_counts and their indexes): ${disk.ownersPerToken.toFixed(1)}` +
      ` (${(holdings / size.tokens).toFixed(2)} holdings per token, ${perHolding.toFixed(1)} bytes per holding with its indexes)`,
  ];
  return { ...disk, text: lines.join("\n") };
}

/** The disk per row and the load time of the full size, the small one as reference; the budgets of the issue. */
function diskRows(services: Array<{ size: Size; disk: Disk; loadSeconds: number }>): Row[] {
  const [small, large] = services;
  const row = (metric: string, value: (s: { disk: Disk; loadSeconds: number }) => number, unit: string, budget?: number): Row => ({
    suite: "scale",
    metric: `${metric}, ${large.size.name}`,
    value: value(large),
    unit,
    reference: { label: small.size.name, value: value(small) },
    ...(budget === undefined ? {} : { budget: { text: `≤ ${budget}`, met: value(large) <= budget } }),
  });
  return [
    row("disk per ERC-721 transfer (nft_transfers and its indexes)", (s) => s.disk.perTransfer, "bytes", 300),
    row("disk per ERC-1155 transfer (nft_1155_transfers and its indexes)", (s) => s.disk.perTransfer1155, "bytes"),
    row("disk per ERC-721 transfer with the address dictionary", (s) => s.disk.perTransfer + s.disk.dictionaryPerTransfer, "bytes"),
    row("disk per token of owners and holdings (with indexes and holder counts)", (s) => s.disk.ownersPerToken, "bytes", 150),
    row("load: rows written, tables compacted, indexes built, vacuum", (s) => s.loadSeconds, "s"),
  ];
}

export default scale;
