import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Database, Queryable } from "../db/database";
import { openReadReplicas, primaryOnly, type ReadReplicas } from "../db/replicas";
import type { Clock } from "../lib/clock";
import { readCursor } from "./store/blocks";

declare module "fastify" {
  interface FastifyInstance {
    /** Reads of the index that read replicas may answer (the data routes, GET /token). */
    indexReads: IndexReads;
  }
}

/**
 * Reads of the index that a read replica may answer, when it is not too far behind. How far a replica is behind is
 * measured in blocks, by the index itself: the block its answer says it is complete to (the indexer's cursor, read in
 * the same statement as the rows, which is also the answer's X-Indexed-Block) against the primary's cursor. Replay
 * time (`pg_last_xact_replay_timestamp`) would say nothing on a quiet chain and mix the clocks of two servers; this
 * compares what the client is shown. The primary's cursor is read again at most every DATABASE_READ_LAG_CHECK_MS, so
 * an answer may be behind by DATABASE_READ_MAX_LAG_BLOCKS plus the blocks indexed within that time.
 */
export class IndexReads {
  private readonly primaryBlocks = new Map<string, { at: number; block: Promise<number | undefined> }>();

  constructor(
    private readonly primary: Database,
    private readonly replicas: ReadReplicas,
    private readonly clock: Clock,
    private readonly options: { maxLagBlocks: number; lagCheckMs: number },
  ) {}

  /**
   * Runs `run` on a replica, or on the primary when the replica is down or its `indexed` block (none: its index of
   * `network` has not started) is too far behind the primary's. Without replicas, on the primary at no extra cost.
   */
  read<T>(network: string, run: (db: Queryable) => Promise<T>, indexed: (result: T) => number | null | undefined): Promise<T> {
    if (this.replicas.size === 0) return run(this.primary);
    return this.replicas.read(run, async (result) => {
      const primary = await this.primaryBlock(network);
      if (primary === undefined) return true;
      const block = indexed(result);
      return block !== null && block !== undefined && block >= primary - this.options.maxLagBlocks;
    });
  }

  /** The primary's indexed block of `network` (undefined before its index started), reused for DATABASE_READ_LAG_CHECK_MS. */
  private primaryBlock(network: string): Promise<number | undefined> {
    const now = this.clock();
    const known = this.primaryBlocks.get(network);
    if (known && now - known.at < this.options.lagCheckMs) return known.block;
    // One read however many requests ask at once; a failed read is not kept. Networks are the configured ones (routes
    // refuse others before reading), so the map stays small.
    const block = readCursor(this.primary, network).then(
      (cursor) => cursor?.block,
      (error) => {
        this.primaryBlocks.delete(network);
        throw error;
      },
    );
    this.primaryBlocks.set(network, { at: now, block });
    return block;
  }
}

/**
 * Decorates `app.indexReads` (before the features whose routes use it), over the read replicas of DATABASE_READ_URLS,
 * which it opens and closes with the app: the index's reads are the only reads that may be a little behind.
 */
export default fp(
  async function indexReads(app: FastifyInstance) {
    const config = app.config.database;
    const replicas = config.kind === "postgres" ? config.replicas : undefined;
    const reads = replicas
      ? await openReadReplicas(app.db, replicas, {
          poolSize: config.kind === "postgres" ? config.poolSize : undefined,
          preparedStatements: config.kind === "postgres" ? config.preparedStatements : undefined,
          clock: app.clock,
          events: {
            skipped(replica, reason, detail, again) {
              app.metrics?.replicaSkipped(replica, reason);
              if (!again)
                app.log.warn({ replica, reason, detail, retryMs: replicas.retryMs }, "read replica skipped: its reads go to the primary");
            },
            served: (target) => app.metrics?.replicaRead(target),
            back: (replica) => app.log.info({ replica }, "read replica serves again"),
          },
        })
      : primaryOnly(app.db);
    app.addHook("onClose", () => reads.close());
    if (replicas) app.log.info({ replicas: replicas.urls.length }, "read replicas configured");
    app.decorate(
      "indexReads",
      new IndexReads(app.db, reads, app.clock, {
        maxLagBlocks: replicas?.maxLagBlocks ?? 0,
        lagCheckMs: replicas?.lagCheckMs ?? 1_000,
      }),
    );
  },
  { name: "index-reads", dependencies: ["db"] },
);
