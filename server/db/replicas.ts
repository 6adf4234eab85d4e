import type { ReplicaConfig } from "../config";
import type { Clock } from "../lib/clock";
import type { Database, Queryable } from "./database";
import { isConnectionLoss, isRecoveryConflict } from "./errors";
import { openPostgres } from "./postgres";

/** Why a replica was left out of a read: it did not answer, or what it answered was too old. */
export type SkipReason = "down" | "behind";

export interface ReplicaEvents {
  /**
   * A read went to the primary instead of replica `replica` (1-based, in DATABASE_READ_URLS order). `again`: reads
   * already in flight on it when it was first found so (one report, a log line, per rest is enough).
   */
  skipped(replica: number, reason: SkipReason, detail: string, again: boolean): void;
  /** A read was answered by `target`: the primary, or a replica's number. */
  served?(target: "primary" | number): void;
  /** A replica that was left out answered again. */
  back?(replica: number): void;
}

/**
 * Where reads that may be a little behind go: streaming replicas of the primary in turn, the primary when none is
 * configured or none can serve. Everything that writes, or must read what was just written, keeps using the primary.
 */
export interface ReadReplicas {
  /** Replicas configured (0: every read runs on the primary). */
  readonly size: number;
  /**
   * Runs `run` on the next replica that is not resting, and again on the primary when that replica fails to connect
   * (it then rests for DATABASE_READ_RETRY_MS), when its statement was cancelled by replay, or when `fresh` refuses
   * what it read (too far behind: it rests too). Everything `run` reads comes from one database, so that an answer
   * and the block it says it is complete to come from the same place.
   */
  read<T>(run: (db: Queryable) => Promise<T>, fresh?: (result: T) => boolean | Promise<boolean>): Promise<T>;
  close(): Promise<void>;
}

/** Reads on the primary only (PGlite, or no DATABASE_READ_URLS). */
export function primaryOnly(primary: Database): ReadReplicas {
  return { size: 0, read: (run) => run(primary), close: async () => {} };
}

/**
 * A pool per replica (DATABASE_POOL_SIZE connections each, at most DATABASE_READ_CONNECT_TIMEOUT_MS to get one, at
 * most DATABASE_READ_TIMEOUT_MS per statement), in front of `primary`. Connections are opened on first use: a replica that is down at start is skipped like one that
 * goes down later.
 */
export async function openReadReplicas(
  primary: Database,
  config: ReplicaConfig,
  options: { poolSize?: number; preparedStatements?: boolean; clock: Clock; events: ReplicaEvents },
): Promise<ReadReplicas> {
  const { clock, events } = options;
  const replicas = await Promise.all(
    config.urls.map(async (url, i) => ({
      number: i + 1,
      db: await openPostgres(url, {
        poolSize: options.poolSize,
        preparedStatements: options.preparedStatements,
        acquireTimeoutMs: config.connectTimeoutMs,
        // A replica that accepts connections and stalls its statements is down as much as one that refuses them.
        statementTimeoutMs: config.readTimeoutMs,
      }),
      /** Left out until then (the clock's milliseconds); 0: in turn. */
      restUntil: 0,
    })),
  );
  let turn = 0;

  const next = () => {
    const now = clock();
    for (let tried = 0; tried < replicas.length; tried++) {
      const replica = replicas[turn++ % replicas.length];
      if (replica.restUntil <= now) return replica;
    }
    return undefined;
  };

  const skip = (replica: (typeof replicas)[number], reason: SkipReason, detail: string) => {
    const now = clock();
    const again = replica.restUntil > now;
    replica.restUntil = now + config.retryMs;
    events.skipped(replica.number, reason, detail, again);
  };

  const onPrimary = async <T>(run: (db: Queryable) => Promise<T>) => {
    events.served?.("primary");
    return run(primary);
  };

  return {
    size: replicas.length,
    async read(run, fresh) {
      const replica = next();
      if (!replica) return onPrimary(run);
      let result;
      try {
        result = await run(replica.db);
      } catch (error) {
        // Unreachable, no connection within DATABASE_READ_CONNECT_TIMEOUT_MS, or no answer within
        // DATABASE_READ_TIMEOUT_MS (database_busy).
        if (isConnectionLoss(error)) {
          skip(replica, "down", reasonOf(error));
          return onPrimary(run);
        }
        // Replay removed rows the statement still needed: this read alone goes to the primary.
        if (isRecoveryConflict(error)) return onPrimary(run);
        throw error;
      }
      if (fresh && !(await fresh(result))) {
        skip(replica, "behind", `its index is more than ${config.maxLagBlocks} blocks behind the primary's`);
        return onPrimary(run);
      }
      if (replica.restUntil !== 0) {
        replica.restUntil = 0;
        events.back?.(replica.number);
      }
      events.served?.(replica.number);
      return result;
    },
    async close() {
      await Promise.all(replicas.map((replica) => replica.db.close()));
    },
  };
}

/** What the server said: the error under a database_unavailable, which says only that. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  return cause instanceof Error ? cause.message : String(cause);
}
