import type { JsonRpcProvider } from "ethers";
import { upstreamError } from "../chain/errors";
import { rpc } from "../chain/networks";
import { rawRpc } from "../chain/raw-rpc";
import type { Connection, Database } from "../db/database";
import type { IndexerMetrics } from "../metrics/metrics";
import { isRangeTooLarge, RangeSizer } from "./ranges";
import { readCursor, type Cursor } from "./store/reads";
import { recentBlocks, resetNetwork, rollBack, REORG_WINDOW, writeRange } from "./store/writes";
import { decodeLogs, logWeight, NFT_TOPICS, type RawLog } from "./transfers";

export interface IndexerOptions {
  network: string;
  provider: JsonRpcProvider;
  db: Database;
  /** First block to index when the network has no index yet. */
  startBlock: number;
  /** Only these contracts (lower case); all contracts when empty. */
  contracts: string[];
  /** How often the head is polled once the index has caught up. */
  pollMs: number;
  /** Largest eth_getLogs range, in blocks. */
  maxRange: number;
  /** Most ids of one ConsecutiveTransfer expanded into transfers; a longer range is recorded as skipped. */
  maxConsecutive: number;
  log: { debug(obj: object, msg: string): void; info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  metrics?: IndexerMetrics;
}

interface Header {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
}

interface FetchedRange {
  from: number;
  to: number;
  first: Header;
  last: Header;
  logs: RawLog[];
  /** Unix time of each block that has logs. */
  times: Map<number, number>;
}

const LOCK_PREFIX = "nft-indexer:";
/** How often a waiting instance tries to take the writer's lock (the takeover delay when a writer dies). */
const LOCK_RETRY_MS = 2_000;

/**
 * Follows one network's NFT transfer logs (docs/indexing.md) into the database. One writer per network across instances: it
 * writes only while it holds a PostgreSQL session advisory lock, and it writes through the connection that holds
 * it, so a writer whose connection (and lock) is gone cannot write at all; another instance waits and takes over.
 * Each range is written in one transaction with the cursor. Before every step the cursor block is checked against
 * the chain, and a new range must build on it (parent hash); on a mismatch the index rolls back to the common
 * ancestor, or starts over when the chain it indexed is gone (a new local chain).
 */
export class NetworkIndexer {
  private readonly sizer: RangeSizer;
  private stopping = false;
  /** The next range, fetched while the current one is written. */
  private prefetched?: { from: number; range: Promise<FetchedRange | "retry" | "failed"> };
  /** At the head since the last range written (logged once per catch-up). */
  private idle = false;
  private wake?: () => void;
  private done?: Promise<void>;
  /** Resolved each time a range is written (tests and benchmarks wait on it). */
  onProgress: (cursor: Cursor) => void = () => {};

  constructor(private readonly options: IndexerOptions) {
    // Start narrow (busy chains hold thousands of transfers per 100 blocks) and grow while answers stay small.
    this.sizer = new RangeSizer(Math.min(100, options.maxRange), options.maxRange);
  }

  start(): void {
    this.done ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.done;
  }

  private async run(): Promise<void> {
    const { log, network } = this.options;
    while (!this.stopping) {
      let connection: Connection | undefined;
      try {
        connection = await this.options.db.connect();
        let lost = false;
        connection.onLost(() => {
          lost = true;
          this.wake?.();
        });
        const { rows } = await connection.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked", [
          LOCK_PREFIX + network,
        ]);
        if (!rows[0].locked) {
          this.options.metrics?.standby(network);
          connection.release();
          connection = undefined;
          await this.sleep(LOCK_RETRY_MS);
          continue;
        }
        log.info({ network }, "indexer: writing");
        while (!this.stopping && !lost) {
          const worked = await this.step(connection);
          if (!worked) await this.sleep(this.options.pollMs);
        }
        if (lost) log.warn({ network }, "indexer: lost the database connection (and the writer's lock)");
      } catch (error) {
        log.warn({ network, err: error }, "indexer: step failed; retrying");
        await this.sleep(Math.min(this.options.pollMs * 2, 5_000));
      } finally {
        this.prefetched = undefined;
        if (connection) {
          // Closing the session releases the advisory lock with it.
          await connection.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [LOCK_PREFIX + network]).catch(() => {});
          connection.release(true);
        }
      }
    }
  }

  /**
   * One step: check the cursor, index the next range. Returns false when there was nothing to do. While a range is
   * written, the next one is already fetched (the node and the database work at the same time); the fetched range
   * is used only if it still builds on the cursor.
   */
  private async step(connection: Connection): Promise<boolean> {
    const { network, provider } = this.options;
    const started = performance.now();
    const cursor = await readCursor(connection, network);
    const head = await rpc(network, provider.getBlockNumber());
    if (cursor) {
      const onChain = await this.header(cursor.block);
      if (!onChain || onChain.hash !== cursor.hash) {
        this.prefetched = undefined;
        await this.recover(connection);
        return true;
      }
    }
    const from = cursor ? cursor.block + 1 : this.options.startBlock;
    if (from > head) {
      if (!this.idle) this.options.log.debug({ network, block: head }, "indexer: at the head");
      this.idle = true;
      this.options.metrics?.atHead(network, head);
      return false;
    }
    this.idle = false;

    const ahead = this.prefetched?.from === from ? await this.prefetched.range : undefined;
    this.prefetched = undefined;
    const range = ahead && ahead !== "failed" ? ahead : await this.fetch(from, Math.min(head, from + this.sizer.size - 1));
    if (range === "retry") return true;
    if (cursor && range.first.parentHash !== cursor.hash) {
      await this.recover(connection);
      return true;
    }
    const { to, first, last, logs } = range;
    if (to < head) {
      const next = to + 1;
      this.prefetched = { from: next, range: this.fetch(next, Math.min(head, next + this.sizer.size - 1)).catch(() => "failed" as const) };
    }

    const { transfers, transfers1155, skipped } = decodeLogs(logs, this.options.maxConsecutive);
    for (const r of skipped)
      this.options.log.warn(
        {
          network,
          contract: r.contract,
          block: r.blockNumber,
          logIndex: r.logIndex,
          fromTokenId: r.fromTokenId.toString(),
          toTokenId: r.toTokenId.toString(),
          max: this.options.maxConsecutive,
        },
        "indexer: ConsecutiveTransfer range not expanded (longer than INDEXER_MAX_CONSECUTIVE, or reversed); the contract is not fully indexed",
      );
    for (const t of [...transfers, ...transfers1155]) t.blockTime = range.times.get(t.blockNumber);
    const hashes = new Map<number, string>([
      [from, first.hash],
      [to, last.hash],
    ]);
    for (const l of logs) hashes.set(Number(l.blockNumber), l.blockHash);
    const end = { block: to, hash: last.hash };
    // Near the head the range is news for live subscribers; older ranges (a cold sync) are history only.
    const live = to + REORG_WINDOW >= head;
    await connection.transaction((tx) =>
      writeRange(
        tx,
        network,
        transfers,
        end,
        [...hashes].map(([block, hash]) => ({ block, hash })),
        transfers1155,
        live,
        skipped,
      ),
    );
    if (skipped.length > 0) this.options.metrics?.skippedRanges(network, skipped.length);
    this.options.log.debug({ network, from, to, transfers: transfers.length + transfers1155.length }, "indexer: range written");
    this.options.metrics?.range(network, {
      from,
      to,
      head,
      transfers: transfers.length + transfers1155.length,
      seconds: (performance.now() - started) / 1000,
      timestamp: last.timestamp,
    });
    this.onProgress(end);
    return true;
  }

  /**
   * The logs of blocks `from`–`to` with the headers of both ends, consistent with each other: "retry" when the
   * chain moved under the calls (a reorg shows as a changed hash) or the provider refused the width (then smaller).
   */
  private async fetch(from: number, to: number): Promise<FetchedRange | "retry"> {
    const { network, provider } = this.options;
    const last = await this.header(to);
    const first = from === to ? last : await this.header(from);
    if (!last || !first) return "retry";
    const started = Date.now();
    let logs: RawLog[];
    try {
      logs = await rawRpc<RawLog[]>(provider, "eth_getLogs", [this.filter(from, to)]);
    } catch (error) {
      if (isRangeTooLarge(error) && to > from) {
        this.sizer.shrink();
        return "retry";
      }
      throw upstreamError(error, network) ?? error;
    }
    // The logs must come from the blocks we checked: a reorg between the calls shows here, and the range is retried.
    const again = await this.header(to);
    if (!again || again.hash !== last.hash) return "retry";
    if (
      logs.some(
        (l) =>
          (Number(l.blockNumber) === to && l.blockHash !== last.hash) || (Number(l.blockNumber) === from && l.blockHash !== first.hash),
      )
    )
      return "retry";
    this.sizer.succeeded(to - from + 1, logWeight(logs, this.options.maxConsecutive), Date.now() - started);
    const times = await this.blockTimes(logs, [first, last]);
    if (!times) return "retry";
    return { from, to, first, last, logs, times };
  }

  /**
   * The time of each block with logs: from the logs when the node includes `blockTimestamp`, else from the
   * headers (a few at a time). A header whose hash is not the logs' block hash means a reorg: undefined (retry).
   */
  private async blockTimes(logs: RawLog[], known: Header[]): Promise<Map<number, number> | undefined> {
    const times = new Map(known.map((h) => [h.number, h.timestamp]));
    const hashes = new Map<number, string>();
    for (const l of logs) {
      const number = Number(l.blockNumber);
      if (l.blockTimestamp !== undefined) times.set(number, Number(l.blockTimestamp));
      else if (!times.has(number)) hashes.set(number, l.blockHash);
    }
    const missing = [...hashes];
    for (let i = 0; i < missing.length; i += 8) {
      const headers = await Promise.all(missing.slice(i, i + 8).map(([number]) => this.header(number)));
      for (const [j, header] of headers.entries()) {
        if (!header || header.hash !== missing[i + j][1]) return undefined;
        times.set(header.number, header.timestamp);
      }
    }
    return times;
  }

  /** After a mismatch: roll back to the newest block the index and the chain agree on, or start over. */
  private async recover(connection: Connection): Promise<void> {
    const { network, log } = this.options;
    for (const known of await recentBlocks(connection, network)) {
      const onChain = await this.header(known.block);
      if (onChain?.hash === known.hash) {
        log.warn({ network, ancestor: known.block }, "indexer: reorg; rolling back to the common ancestor");
        await connection.transaction((tx) => rollBack(tx, network, known));
        return;
      }
    }
    log.warn(
      { network },
      "indexer: the indexed chain is gone (new chain, or a reorg deeper than the window); indexing again from the start",
    );
    await connection.transaction((tx) => resetNetwork(tx, network));
  }

  private filter(from: number, to: number) {
    const { contracts } = this.options;
    return {
      fromBlock: `0x${from.toString(16)}`,
      toBlock: `0x${to.toString(16)}`,
      topics: [NFT_TOPICS],
      ...(contracts.length > 0 ? { address: contracts } : {}),
    };
  }

  private async header(number: number): Promise<Header | undefined> {
    const block = await rpc(this.options.network, this.options.provider.send("eth_getBlockByNumber", [`0x${number.toString(16)}`, false]));
    return block ? { number, hash: block.hash, parentHash: block.parentHash, timestamp: Number(block.timestamp) } : undefined;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
