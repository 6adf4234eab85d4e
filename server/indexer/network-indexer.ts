import type { JsonRpcProvider } from "ethers";
import { bloomMayMatch } from "../chain/bloom";
import { ANSWER_TOO_LARGE, ChainError, upstreamError } from "../chain/errors";
import { rawRpc } from "../chain/raw-rpc";
import { poolOf } from "../chain/networks";
import { retryUpstream } from "../chain/retry";
import type { Connection, Database } from "../db/database";
import { isDatabaseFull } from "../db/errors";
import { Sleeper } from "../lib/sleeper";
import type { IndexerMetrics } from "../metrics/metrics";
import { DELEGATE_REGISTRY } from "./delegations";
import { malformedHeader, readHeader, type Header } from "./headers";
import { isRangeTooLarge, RANGE_MAX_ROWS, RangeSizer } from "./ranges";
import { readCursor, recentBlocks, REORG_WINDOW, type Cursor } from "./store/blocks";
import { resetNetwork, rollBack } from "./store/rollback";
import { writeRange } from "./store/writes";
import { consecutiveIds, decodeLogs, INDEXED_TOPICS, logWeight, malformedLogs, type DecodedLogs, type RawLog } from "./transfers";

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
  /**
   * Most ids the ConsecutiveTransfers of one block are expanded into, in log order (a range that would pass it is
   * skipped), and most a range of more than one block expands before it is asked again in fewer blocks.
   */
  maxConsecutivePerBlock: number;
  /** How far behind the head a provider's log index may trail: answers are proven complete for blocks this near it. */
  logLagBlocks: number;
  log: { debug(obj: object, msg: string): void; info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  metrics?: IndexerMetrics;
  /**
   * The pause after the database refused a range for a full disk (INDEXER_FULL_DISK_PAUSE_MS): space comes back when
   * an operator frees it, not in seconds, and each try fetches the range from the provider again.
   */
  fullDiskPauseMs: number;
}

/**
 * A fetched range, or why there is none: "retry" at once (the chain moved, the width was refused), "wait" a poll
 * (the node does not serve what the head announced yet).
 */
type Fetched = FetchedRange | "retry" | "wait";

interface FetchedRange {
  from: number;
  to: number;
  first: Header;
  last: Header;
  /** The hash of each block with logs, as the logs give it (the answer itself is let go once decoded). */
  blockHashes: Map<number, string>;
  /**
   * The logs decoded, each with its block's time: decoded as soon as they arrive, so that a prefetched range is
   * decoded while the one before it is being written (the indexer's CPU beside the database's).
   */
  decoded: DecodedLogs;
}

const LOCK_PREFIX = "nft-indexer:";
/** Blocks of the first eth_getLogs range (the sizer doubles it while answers stay small). */
const FIRST_RANGE_BLOCKS = 10;
/** How often a waiting instance tries to take the writer's lock (the takeover delay when a writer dies). */
export const LOCK_RETRY_MS = 2_000;
/**
 * Steps in a row that must find the node's chain parted from the index below the reorg window, and at least as long,
 * before the index rolls back that deep: a load balancer that sent one call to a backend left on an abandoned branch
 * sends the next ones elsewhere, and a real reorg that deep stays.
 */
export const DEEP_REORG_CHECKS = 5;

/**
 * Follows one network's NFT transfer logs (docs/reference/indexer.md) into the database. One writer per network across instances: it
 * writes only while it holds a PostgreSQL session advisory lock, and it writes through the connection that holds
 * it, so a writer whose connection (and lock) is gone cannot write at all; another instance waits and takes over.
 * Each range is written in one transaction with the cursor. Before every step the cursor block is checked against
 * the chain, and a new range must build on it (parent hash); on a mismatch the index rolls back to the common
 * ancestor, waits for a node left on an abandoned branch, or starts over when the chain it indexed is gone (a new
 * local chain).
 */
export class NetworkIndexer {
  private readonly sizer: RangeSizer;
  private stopping = false;
  /** The next range, fetched while the current one is written. */
  private prefetched?: { from: number; range: Promise<Fetched | "failed"> };
  /** At the head since the last range written (logged once per catch-up). */
  private idle = false;
  /** Steps in a row that waited for a block the head announced but the node does not serve yet. */
  private waits = 0;
  /**
   * Set while the node's chain parts from the index below the reorg window: the newest kept block it agrees with, and
   * how many steps in a row found it so (see {@link belowWindow}).
   */
  private diverged?: { agreed: number; checks: number };
  /** The URLs found on a branch the others left (their labels: at most the network's URLs). */
  private readonly reported = new Set<string>();
  private readonly sleeper = new Sleeper();
  private done?: Promise<void>;

  constructor(private readonly options: IndexerOptions) {
    // Start narrow and grow while answers stay small: busy chains hold thousands of transfers per 100 blocks, and the
    // first range is fetched and decoded with nothing to overlap (later ones are fetched while the last is written).
    this.sizer = new RangeSizer(Math.min(FIRST_RANGE_BLOCKS, options.maxRange), options.maxRange);
  }

  start(): void {
    this.done ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.sleeper.wake();
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
          this.sleeper.wake();
        });
        const { rows } = await connection.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked", [
          LOCK_PREFIX + network,
        ]);
        if (!rows[0].locked) {
          this.options.metrics?.standby(network);
          connection.release();
          connection = undefined;
          await this.sleeper.sleep(LOCK_RETRY_MS);
          continue;
        }
        log.info({ network }, "indexer: writing");
        while (!this.stopping && !lost) {
          const worked = await this.step(connection);
          if (worked === "wait") this.waits++;
          else this.waits = 0;
          if (worked !== true) await this.sleeper.sleep(this.pause());
        }
        if (lost) log.warn({ network }, "indexer: lost the database connection (and the writer's lock)");
      } catch (error) {
        if (isDatabaseFull(error)) {
          const pauseMs = this.options.fullDiskPauseMs;
          log.warn(
            { network, err: error, pauseMs },
            "indexer: the database has no disk space left; nothing of the range was written, retrying after a pause",
          );
          await this.sleeper.sleep(pauseMs);
        } else {
          log.warn({ network, err: error }, "indexer: step failed; retrying");
          await this.sleeper.sleep(Math.min(this.options.pollMs * 2, 5_000));
        }
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
   * The pause before the next step when there was nothing to do: the poll interval, doubled for each step in a row
   * that waited for an announced block (up to 5 s, or the poll interval when that is longer).
   */
  private pause(): number {
    const { pollMs } = this.options;
    return Math.min(pollMs * 2 ** Math.min(this.waits, 10), Math.max(pollMs, 5_000));
  }

  /**
   * One step: check the cursor, index the next range. Returns false when there was nothing to do, "wait" when the
   * node does not serve yet a block its head announced (a null header is that, not a reorg). While a range is
   * written, the next one is already fetched (the node and the database work at the same time); the fetched range
   * is used only if it still builds on the cursor.
   */
  private async step(connection: Connection): Promise<boolean | "wait"> {
    const { network, provider } = this.options;
    const started = performance.now();
    // The cursor and the head at once: neither needs the other, and this is every poll's and the start's first wait.
    const [cursor, head] = await Promise.all([readCursor(connection, network), retryUpstream(network, () => provider.getBlockNumber())]);
    if (cursor) {
      if (head < cursor.block) return (await this.headBelowCursor(connection, head, cursor)) ? true : "wait";
      const onChain = await this.header(cursor.block);
      // Null at or below the head: not served yet (a backend behind the one that answered the head), not a reorg.
      if (!onChain) return "wait";
      if (onChain.hash !== cursor.hash) {
        this.prefetched = undefined;
        return (await this.recover(connection, head, cursor)) ? true : "wait";
      }
      this.converged();
    }
    const checked = performance.now();
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
    const range = ahead && ahead !== "failed" ? ahead : await this.fetch(from, Math.min(head, from + this.sizer.size - 1), head);
    if (range === "retry") return true;
    if (range === "wait") return "wait";
    if (cursor && range.first.parentHash !== cursor.hash) {
      return (await this.recover(connection, head, cursor)) ? true : "wait";
    }
    const fetched = performance.now();
    const { to, first, last, blockHashes } = range;
    if (to < head) {
      const next = to + 1;
      this.prefetched = {
        from: next,
        range: this.fetch(next, Math.min(head, next + this.sizer.size - 1), head).catch(() => "failed" as const),
      };
    }

    const { transfers, transfers1155, skipped, marks, delegations } = range.decoded;
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
          maxPerBlock: this.options.maxConsecutivePerBlock,
        },
        "indexer: ConsecutiveTransfer range not expanded (longer than INDEXER_MAX_CONSECUTIVE, past its block's INDEXER_MAX_CONSECUTIVE_PER_BLOCK, or reversed); the contract is not fully indexed",
      );
    const hashes = new Map<number, string>([
      [from, first.hash],
      [to, last.hash],
    ]);
    for (const [block, hash] of blockHashes) hashes.set(block, hash);
    const end = { block: to, hash: last.hash };
    // Near the head the range is news for live subscribers; older ranges (a cold sync) are history only.
    const live = to + REORG_WINDOW >= head;
    await connection.transaction(
      (tx) =>
        writeRange(tx, {
          network,
          transfers,
          transfers1155,
          last: end,
          hashes: [...hashes].map(([block, hash]) => ({ block, hash })),
          live,
          skipped,
          marks,
          delegations,
        }),
      // A range of a cold sync is thousands of rows through COPY and the owners' updates: the long bound.
      { long: true },
    );
    if (skipped.length > 0) this.options.metrics?.skippedRanges(network, skipped.length);
    if (marks.length > 0) this.options.metrics?.metadataMarks(network, marks.length);
    const written = performance.now();
    // Where the step's time went (the bench reads the first range's to time the start to the first write): the cursor
    // and the head checked, the range fetched and decoded (or awaited, when it was prefetched), written.
    const ms = { check: checked - started, fetch: fetched - checked, write: written - fetched };
    this.options.log.debug({ network, from, to, transfers: transfers.length + transfers1155.length, ms }, "indexer: range written");
    this.options.metrics?.range(network, {
      from,
      to,
      head,
      transfers: transfers.length + transfers1155.length,
      seconds: (performance.now() - started) / 1000,
      timestamp: last.timestamp,
    });
    return true;
  }

  /**
   * The logs of blocks `from`–`to` with the headers of both ends, consistent with each other: "retry" when the
   * chain moved under the calls (a reorg shows as a changed hash) or the provider refused the width (then smaller).
   * The range may end before `to`: where the logs answer is proven complete ({@link provenEnd}).
   */
  private async fetch(from: number, to: number, head: number): Promise<Fetched> {
    const { network, provider } = this.options;
    // Both ends before the logs (they chain to the end block, whose hash is asked again after them), at once.
    const [last, start] = await Promise.all([this.header(to), from === to ? undefined : this.header(from)]);
    const first = from === to ? last : start;
    if (!last || !first) return "wait";
    const started = Date.now();
    let logs: RawLog[];
    try {
      logs = await retryUpstream(network, () => rawRpc<RawLog[]>(provider, "eth_getLogs", [this.filter(from, to)], malformedLogs), {
        giveUp: isRangeTooLarge,
      });
    } catch (error) {
      if (isRangeTooLarge(error) && to > from) {
        this.sizer.shrink();
        return "retry";
      }
      // One block's logs past the bound: the network's index stops there, and says why, until the bound is raised.
      if (error instanceof ChainError && error.code === ANSWER_TOO_LARGE)
        throw new ChainError(`block ${from}: ${error.message}; raise it to index this network past this block`, ANSWER_TOO_LARGE);
      throw upstreamError(error, network) ?? error;
    }
    // The logs must come from the blocks we checked: a reorg between the calls shows here, and the range is retried.
    const again = await this.header(to);
    if (!again) return "wait";
    if (again.hash !== last.hash) return "retry";
    let blocks = blockRuns(logs);
    if (blocks.some((b) => (b.number === to && b.hash !== last.hash) || (b.number === from && b.hash !== first.hash))) return "retry";
    const { maxConsecutive, maxConsecutivePerBlock } = this.options;
    // Expanded ids are rows in memory and in the range's transaction: a range of several blocks that would write more
    // rows than a range may, or expand more ids than one block may, is asked again in fewer blocks, before anything
    // is expanded (and before the sizer could widen it again).
    const weight = logWeight(logs, maxConsecutive);
    if (to > from && (weight > RANGE_MAX_ROWS || consecutiveIds(logs, maxConsecutive) > maxConsecutivePerBlock)) {
      this.sizer.shrink();
      return "retry";
    }
    this.sizer.succeeded(to - from + 1, weight, Date.now() - started);
    const proven = await this.provenEnd(from, to, head, blocks, last);
    if (!proven) return "wait";
    const { end } = proven;
    if (proven.logs.length > 0) {
      logs = logs.concat(proven.logs);
      blocks = blocks.concat(blockRuns(proven.logs));
    }
    const endHeader = end === to ? last : await this.header(end);
    if (!endHeader) return "wait";
    if (blocks.some((b) => b.number === end && b.hash !== endHeader.hash)) return "retry";
    const times = await this.blockTimes(logs, [first, endHeader]);
    if (typeof times === "string") return times;
    const decoded = decodeLogs(logs, maxConsecutive, maxConsecutivePerBlock);
    for (const list of [decoded.transfers, decoded.transfers1155, decoded.marks])
      for (const t of list) t.blockTime = times.get(t.blockNumber);
    const blockHashes = new Map<number, string>();
    for (const b of blocks) blockHashes.set(b.number, b.hash);
    return { from, to: end, first, last: endHeader, blockHashes, decoded };
  }

  /**
   * The newest block of `from`–`to` up to which the logs are complete, with the logs read block by block on the way;
   * undefined when not even `from` is proven. Load-balanced providers answer eth_getLogs from backends whose log
   * index may trail their head, and such an answer leaves out the newest blocks' logs without an error. A block is
   * proven when the answer holds a log of it or of a later block (a backend indexes blocks in order), when it is more
   * than `logLagBlocks` behind the head, when its logsBloom cannot hold a log the filter matches, or by an
   * eth_getLogs of that block by its hash, which a node that does not have the block refuses (EIP-234).
   */
  private async provenEnd(
    from: number,
    to: number,
    head: number,
    blocks: BlockRun[],
    last: Header,
  ): Promise<{ end: number; logs: RawLog[] } | undefined> {
    let end = Math.max(
      blocks.reduce((newest, b) => Math.max(newest, b.number), from - 1),
      Math.min(to, head - this.options.logLagBlocks),
    );
    const read: RawLog[] = [];
    while (end < to) {
      const header = end + 1 === to ? last : await this.header(end + 1);
      const own = header && (await this.blockLogs(header));
      if (!own) break;
      read.push(...own);
      end++;
    }
    return end >= from ? { end, logs: read } : undefined;
  }

  /** The logs of block `header` the indexer's filter matches, when they can be proven; undefined otherwise. */
  private async blockLogs(header: Header): Promise<RawLog[] | undefined> {
    const { network, provider } = this.options;
    if (!bloomMayMatch(header.logsBloom, INDEXED_TOPICS, this.addresses())) return [];
    try {
      const { fromBlock: _from, toBlock: _to, ...filter } = this.filter(header.number, header.number);
      const logs = await retryUpstream(
        network,
        () => rawRpc<RawLog[]>(provider, "eth_getLogs", [{ ...filter, blockHash: header.hash }], malformedLogs),
        {
          attempts: 2,
        },
      );
      return logs.every((l) => l.blockHash === header.hash) ? logs : undefined;
    } catch (error) {
      if (upstreamError(error, network)) return undefined;
      throw error;
    }
  }

  /**
   * The time of each block with logs: from the logs when the node includes `blockTimestamp`, else from the
   * headers (a few at a time). A header whose hash is not the logs' block hash means a reorg ("retry"), a null one a
   * block not served yet ("wait").
   */
  private async blockTimes(logs: RawLog[], known: Header[]): Promise<Map<number, number> | "retry" | "wait"> {
    const times = new Map(known.map((h) => [h.number, h.timestamp]));
    const hashes = new Map<number, string>();
    // The logs of a block are in a row: its number is read once.
    let text: string | undefined;
    let number = 0;
    for (const l of logs) {
      if (l.blockNumber !== text) number = Number((text = l.blockNumber));
      if (l.blockTimestamp !== undefined) times.set(number, Number(l.blockTimestamp));
      else if (!times.has(number)) hashes.set(number, l.blockHash);
    }
    const missing = [...hashes];
    for (let i = 0; i < missing.length; i += 8) {
      const headers = await Promise.all(missing.slice(i, i + 8).map(([number]) => this.header(number)));
      for (const [j, header] of headers.entries()) {
        if (!header) return "wait";
        if (header.hash !== missing[i + j][1]) return "retry";
        times.set(header.number, header.timestamp);
      }
    }
    return times;
  }

  /**
   * A head below the cursor: a node behind the one the index was read from (a load-balanced backend, a node restarted
   * from an older state) or a chain that became shorter. Only another hash for a kept block at or below that head
   * tells the second: then it is a reorg ({@link recover}); a matching one, or none kept that low, is a node behind,
   * and the index waits. Rolling back on it would drop blocks the chain still has, and one further behind than the
   * window would start the index over. Returns whether it rolled back.
   */
  private async headBelowCursor(connection: Connection, head: number, cursor: Cursor): Promise<boolean> {
    const newest = (await recentBlocks(connection, this.options.network)).find((known) => known.block <= head);
    if (!newest) return false;
    const onChain = await this.header(newest.block);
    if (!onChain) return false;
    if (onChain.hash === newest.hash) {
      this.converged();
      return false;
    }
    return this.recover(connection, head, cursor);
  }

  /**
   * After a mismatch: roll back to the newest block of the window the index and the chain agree on; when none of the
   * window's blocks at or below `head` agrees, the chain parted below the window ({@link belowWindow}). Returns
   * false, changing nothing, when a block it compares has no header yet (the comparison waits for it) or none is kept
   * at or below `head` (nothing to compare: a node behind).
   */
  private async recover(connection: Connection, head: number, cursor: Cursor): Promise<boolean> {
    const { network, log } = this.options;
    const kept = (await recentBlocks(connection, network)).filter((known) => known.block <= head);
    const edge = cursor.block - REORG_WINDOW;
    const window = kept.filter((known) => known.block >= edge);
    const anchors = kept.filter((known) => known.block < edge);
    // Two chains agree below the block where they part and nowhere above it: when the window's oldest block here
    // has another hash, no newer one agrees, and the window is not read block by block for nothing.
    const oldest = window.at(-1);
    if (oldest) {
      const onOldest = await this.header(oldest.block);
      if (!onOldest) return false;
      if (onOldest.hash === oldest.hash) {
        for (const known of window) {
          const onChain = known === oldest ? onOldest : await this.header(known.block);
          if (!onChain) return false;
          if (onChain.hash !== known.hash) continue;
          // The chain serves the cursor's block as indexed now: the mismatch came from an answer it no longer gives
          // (another URL's, a load balancer's backend behind on a branch, a chain that moved and moved back), and
          // there is nothing above the cursor to undo.
          const atCursor = known.block === cursor.block ? onChain : await this.header(cursor.block);
          if (atCursor?.hash === cursor.hash) return false;
          log.warn({ network, ancestor: known.block }, "indexer: reorg; rolling back to the common ancestor");
          await connection.transaction((tx) => rollBack(tx, network, known), { long: true });
          this.converged();
          return true;
        }
      }
    } else if (anchors.length === 0) return false;
    if (await this.passOverDiverging(kept[0])) return false;
    return this.belowWindow(connection, { head, cursor, anchors });
  }

  /**
   * No block of the window at or below `head` agrees with the node's chain: it parted from the index below the window,
   * or it is another chain. The anchors kept below the window tell which ({@link recordBlocks}):
   * - none agrees (down to the first block the index read): another chain, a devnet started again from its genesis;
   *   the index starts over;
   * - one agrees, and the node's head is below the cursor: a node behind on a branch the chain abandoned (a backend
   *   left on a fork); the index waits, as for any node behind, since rolling back would index a branch the chain
   *   no longer has;
   * - one agrees, and the node's chain is as long as the index: a reorg deeper than the window, or a backend on a
   *   branch that went on growing (with several URLs, {@link passOverDiverging} told the second already). The index
   *   rolls back to that anchor once {@link DEEP_REORG_CHECKS} steps in a row found the same.
   * Returns whether it rolled back or started over.
   */
  private async belowWindow(connection: Connection, found: { head: number; cursor: Cursor; anchors: Cursor[] }): Promise<boolean> {
    const { network, log } = this.options;
    const { head, cursor, anchors } = found;
    let agreed: Cursor | undefined;
    for (const known of anchors) {
      const onChain = await this.header(known.block);
      if (!onChain) return false;
      if (onChain.hash === known.hash) {
        agreed = known;
        break;
      }
    }
    if (!agreed) {
      log.warn(
        { network, oldest: anchors.at(-1)?.block },
        "indexer: the indexed chain is gone (a new chain: no block the index kept agrees, down to the oldest); indexing again from the start",
      );
      await connection.transaction((tx) => resetNetwork(tx, network), { long: true });
      this.converged();
      return true;
    }
    const checks = this.diverged?.agreed === agreed.block ? this.diverged.checks + 1 : 1;
    const rollBackNow = head >= cursor.block && checks >= DEEP_REORG_CHECKS;
    if (!this.diverged && !rollBackNow) {
      log.warn(
        { network, head, cursor: cursor.block, agreesTo: agreed.block },
        head < cursor.block
          ? "indexer: the node is behind on a branch that left the indexed chain below the reorg window; waiting for it to serve the chain again"
          : "indexer: the node's chain left the indexed one below the reorg window; rolling back if it stays so",
      );
      this.options.metrics?.diverged(network, true);
    }
    this.diverged = { agreed: agreed.block, checks };
    if (!rollBackNow) return false;
    log.warn(
      { network, ancestor: agreed.block, depth: cursor.block - agreed.block, checks },
      "indexer: reorg deeper than the window; rolling back to an older block the index and the chain agree on",
    );
    await connection.transaction((tx) => rollBack(tx, network, agreed), { long: true });
    this.converged();
    return true;
  }

  /**
   * With several URLs, when some serve `known` (a kept block at or below the node's head) with the index's hash and
   * others with another, the others are alone on their branch (or on another chain): the pool passes them over for
   * their cool-down, and the next steps read the indexed chain through the rest. Returns whether it did. Each URL is
   * asked once; one that fails, or has no such block yet, is neither.
   */
  private async passOverDiverging(known: Cursor): Promise<boolean> {
    const { network, provider, log } = this.options;
    const pool = poolOf(provider);
    if (!pool || pool.members.length < 2) return false;
    const answers = await Promise.all(
      pool.members.map(async (member) => {
        const header = await rawRpc<{ hash: string } | null>(
          member.provider,
          "eth_getBlockByNumber",
          [`0x${known.block.toString(16)}`, false],
          malformedHeader,
        ).catch(() => null);
        return { member, hash: header?.hash };
      }),
    );
    const serving = answers.filter(({ hash }) => hash === known.hash).map(({ member }) => member.label);
    const diverging = answers.filter(({ hash }) => hash !== undefined && hash !== known.hash).map(({ member }) => member);
    if (serving.length === 0 || diverging.length === 0) return false;
    for (const member of diverging) pool.passOver(member, "diverged");
    const labels = diverging.map((member) => member.label);
    const fields = { network, block: known.block, diverging: labels, serving };
    const message =
      "indexer: a URL serves a branch that left the indexed chain below the reorg window while another serves the indexed chain; passed over";
    // Once per URL at warn: it comes back after each cool-down and is passed over again.
    if (labels.some((label) => !this.reported.has(label))) log.warn(fields, message);
    else log.debug(fields, message);
    for (const label of labels) this.reported.add(label);
    return true;
  }

  /** The node's chain is the indexed one again: a divergence below the window, if one was seen, is over. */
  private converged(): void {
    if (!this.diverged) return;
    this.diverged = undefined;
    this.options.log.info({ network: this.options.network }, "indexer: the node serves the indexed chain again");
    this.options.metrics?.diverged(this.options.network, false);
  }

  private filter(from: number, to: number) {
    const addresses = this.addresses();
    return {
      fromBlock: `0x${from.toString(16)}`,
      toBlock: `0x${to.toString(16)}`,
      topics: [INDEXED_TOPICS],
      ...(addresses.length > 0 ? { address: addresses } : {}),
    };
  }

  /** The contracts whose logs are asked for (none: every contract's); the delegate registry's with named contracts. */
  private addresses(): string[] {
    const { contracts } = this.options;
    return contracts.length > 0 ? [...contracts, DELEGATE_REGISTRY] : contracts;
  }

  private header(number: number): Promise<Header | undefined> {
    return readHeader(this.options.network, this.options.provider, number);
  }
}

/** A run of logs of one block (its number and the hash they give), in the order of the logs. */
interface BlockRun {
  number: number;
  hash: string;
}

/**
 * The blocks of `logs`, one entry per run of logs with the same block number and hash: the checks of a range read
 * each block's number once, not each log's (thousands of logs a range, a few hundred blocks).
 */
function blockRuns(logs: RawLog[]): BlockRun[] {
  const runs: BlockRun[] = [];
  let text: string | undefined;
  let hash: string | undefined;
  for (const l of logs) {
    if (l.blockNumber === text && l.blockHash === hash) continue;
    text = l.blockNumber;
    hash = l.blockHash;
    runs.push({ number: Number(text), hash });
  }
  return runs;
}
