import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Pool use as the database reports it (PGlite: one session, busy or idle, and the queries queued behind it). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** One indexed range: its bounds, the node's head when it was taken, and how long fetching and writing took. */
export interface IndexedRange {
  from: number;
  to: number;
  head: number;
  transfers: number;
  seconds: number;
  /** Timestamp (Unix seconds) of block `to`. */
  timestamp: number;
}

/** What the indexer reports; optional so the indexer runs the same without metrics (its own process). */
export interface IndexerMetrics {
  range(network: string, range: IndexedRange): void;
  atHead(network: string, head: number): void;
  /** ConsecutiveTransfer logs written as not expanded (past the bound): their contracts are not fully indexed. */
  skippedRanges(network: string, count: number): void;
  /**
   * Another instance holds the network's writer lock: this one drops its gauges of the network, so that only the
   * writer reports a lag and a block, and a former writer's last figures do not linger beside the new writer's.
   */
  standby(network: string): void;
  /** Metadata-change logs (ERC-4906, ERC-1155 URI) written as stale marks for the metadata cache. */
  metadataMarks(network: string, count: number): void;
  /**
   * The node's chain parted from the indexed one below the reorg window and the index waits (`true`: a node behind on
   * an abandoned branch, or a deeper reorg not yet confirmed), or it serves the indexed chain again (`false`).
   */
  diverged(network: string, waiting: boolean): void;
}

export type RpcOutcome = "ok" | "rpc_error" | "rate_limited" | "timeout" | "too_large" | "transport_error";

/** Latency buckets in seconds: RPC answers and HTTP requests range from a millisecond to the RPC timeout. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Every figure the service exports, on a registry of its own (several apps in one process do not share one).
 * Label values are bounded: route patterns (never raw URLs), status codes, configured network names, the
 * service's own error codes and RPC methods.
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly httpRequests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status code",
    labelNames: ["method", "route", "status_code"] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from receiving an HTTP request to the end of its answer, by method, route pattern and status code",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });
  private readonly rpcCalls = new Counter({
    name: "rpc_calls_total",
    help: "JSON-RPC calls to the nodes, by network, method and outcome (ok, rpc_error, rate_limited, timeout, too_large, transport_error)",
    labelNames: ["network", "method", "outcome"] as const,
    registers: [this.registry],
  });
  private readonly rpcDuration = new Histogram({
    name: "rpc_call_duration_seconds",
    help: "Time a JSON-RPC call to a node took, by network and method",
    labelNames: ["network", "method"] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });
  private readonly lagBlocks = this.perNetwork(
    Gauge,
    "indexer_head_lag_blocks",
    "Blocks between the node's head and the newest indexed block (0 at the head)",
  );
  private readonly lagSeconds = this.perNetwork(
    Gauge,
    "indexer_head_lag_seconds",
    "Age of the newest indexed block while the index is behind the head (0 at the head)",
  );
  private readonly indexedBlock = this.perNetwork(Gauge, "indexer_block", "Newest indexed block");
  private readonly lastRangeBlocks = this.perNetwork(Gauge, "indexer_last_range_blocks", "Blocks in the last range written");
  private readonly lastRangeSeconds = this.perNetwork(
    Gauge,
    "indexer_last_range_seconds",
    "Time the last range took, from its step's start to its commit",
  );
  private readonly blocksIndexed = this.perNetwork(Counter, "indexer_blocks_total", "Blocks indexed");
  private readonly transfersIndexed = this.perNetwork(Counter, "indexer_transfers_total", "NFT transfers indexed (ERC-721 and ERC-1155)");
  private readonly rangesSkipped = this.perNetwork(
    Counter,
    "indexer_ranges_skipped_total",
    "ERC-2309 ConsecutiveTransfer logs not expanded (more ids than INDEXER_MAX_CONSECUTIVE, or a reversed range)",
  );
  private readonly divergedBelowWindow = this.perNetwork(
    Gauge,
    "indexer_diverged",
    "1 while the node serves a chain that left the indexed one below the reorg window and the index waits instead of rolling back, 0 otherwise",
  );
  private readonly metadataMarksWritten = this.perNetwork(
    Counter,
    "indexer_metadata_marks_total",
    "Metadata-change logs (ERC-4906 MetadataUpdate and BatchMetadataUpdate, ERC-1155 URI) written as stale marks, one per log whatever its range",
  );
  private readonly metadataSweepReads = new Counter({
    name: "token_metadata_sweep_reads_total",
    help: "Cached token metadata documents a metadata-change mark made stale that the background sweep read again, by outcome (stored, kept)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly replicaSkips = new Counter({
    name: "db_replica_skipped_total",
    help: "Reads a read replica was left out of and the primary served, by replica (its place in DATABASE_READ_URLS) and reason (down, behind)",
    labelNames: ["replica", "reason"] as const,
    registers: [this.registry],
  });
  private readonly routedReads = new Counter({
    name: "db_routed_reads_total",
    help: "Index reads of the data routes by where they were answered: primary, or a replica's place in DATABASE_READ_URLS",
    labelNames: ["target"] as const,
    registers: [this.registry],
  });
  private readonly logins = new Counter({
    name: "login_attempts_total",
    help: "POST /api/login answers, by result: success, or the error code of the refusal",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });

  private readonly slowReadersClosed = new Counter({
    name: "http_slow_readers_closed_total",
    help: "Connections closed because their client took none of what was written to it for HTTP_SEND_TIMEOUT_MS",
    registers: [this.registry],
  });

  private readonly rateLimitFallbacks = new Counter({
    name: "rate_limit_local_counts_total",
    help: "Rate-limited requests counted in this instance's memory because the shared count in the database failed or was slow",
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  private perNetwork<M extends typeof Gauge | typeof Counter>(kind: M, name: string, help: string): InstanceType<M> {
    return new kind({ name, help, labelNames: ["network"] as const, registers: [this.registry] }) as InstanceType<M>;
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status_code: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  private readonly providerUp = new Gauge({
    name: "rpc_provider_up",
    help: "1 while an RPC URL of a network is healthy, 0 while it is passed over after a failure (cooling down), by network and provider host",
    labelNames: ["network", "provider"] as const,
    registers: [this.registry],
  });
  private readonly providerLatency = new Gauge({
    name: "rpc_provider_latency_seconds",
    help: "Average time an RPC URL takes to answer, as of its last answer (exponentially weighted; the choice between URLs reads it aged), by network and provider host",
    labelNames: ["network", "provider"] as const,
    registers: [this.registry],
  });
  private readonly providerFailures = new Counter({
    name: "rpc_provider_failures_total",
    help: "Calls an RPC URL failed by its fault (rate_limited, timeout, transport_error), or times the indexer passed it over for serving a branch the other URLs left (diverged), by network, provider host, fault and whether the call went on to another URL",
    labelNames: ["network", "provider", "fault", "failed_over"] as const,
    registers: [this.registry],
  });

  /** A provider (redacted host) of a network answered; its latency average is now `latencySeconds`. */
  providerAnswered(network: string, provider: string, latencySeconds: number): void {
    this.providerLatency.set({ network, provider }, latencySeconds);
    this.providerUp.set({ network, provider }, 1);
  }

  providerFailed(network: string, provider: string, fault: string, failedOver: boolean): void {
    this.providerFailures.inc({ network, provider, fault, failed_over: String(failedOver) });
  }

  providerHealth(network: string, provider: string, up: boolean): void {
    this.providerUp.set({ network, provider }, up ? 1 : 0);
  }

  rpcCall(network: string, method: string, outcome: RpcOutcome, seconds: number): void {
    this.rpcCalls.inc({ network, method, outcome });
    this.rpcDuration.observe({ network, method }, seconds);
  }

  /** A read replica left out of a read (it rests for DATABASE_READ_RETRY_MS). */
  replicaSkipped(replica: number, reason: "down" | "behind"): void {
    this.replicaSkips.inc({ replica: String(replica), reason });
  }

  /** Where a read that may go to a replica was answered. */
  replicaRead(target: "primary" | number): void {
    this.routedReads.inc({ target: String(target) });
  }

  rateLimitFallback(): void {
    this.rateLimitFallbacks.inc();
  }

  slowReaderClosed(): void {
    this.slowReadersClosed.inc();
  }

  login(result: string): void {
    this.logins.inc({ result });
  }

  readonly indexer: IndexerMetrics = {
    range: (network, { from, to, head, transfers, seconds, timestamp }) => {
      const behind = Math.max(0, head - to);
      this.lagBlocks.set({ network }, behind);
      this.lagSeconds.set({ network }, behind === 0 ? 0 : Math.max(0, Date.now() / 1000 - timestamp));
      this.indexedBlock.set({ network }, to);
      this.lastRangeBlocks.set({ network }, to - from + 1);
      this.lastRangeSeconds.set({ network }, seconds);
      this.blocksIndexed.inc({ network }, to - from + 1);
      this.transfersIndexed.inc({ network }, transfers);
    },
    atHead: (network, head) => {
      this.lagBlocks.set({ network }, 0);
      this.lagSeconds.set({ network }, 0);
      this.indexedBlock.set({ network }, head);
    },
    skippedRanges: (network, count) => {
      this.rangesSkipped.inc({ network }, count);
    },
    standby: (network) => {
      for (const gauge of [
        this.lagBlocks,
        this.lagSeconds,
        this.indexedBlock,
        this.lastRangeBlocks,
        this.lastRangeSeconds,
        this.divergedBelowWindow,
      ])
        gauge.remove({ network });
    },
    metadataMarks: (network, count) => {
      this.metadataMarksWritten.inc({ network }, count);
    },
    diverged: (network, waiting) => {
      this.divergedBelowWindow.set({ network }, waiting ? 1 : 0);
    },
  };

  /** A stale cached document the background sweep read again, by outcome: `stored`, or `kept` (the read stored nothing). */
  metadataSweep(outcome: "stored" | "kept"): void {
    this.metadataSweepReads.inc({ outcome });
  }

  private readonly webhookDeliveries = new Counter({
    name: "webhook_deliveries_total",
    help: "Webhook delivery attempts, by result: delivered, or the failure's class (status, rate_limited, gone, redirect, timeout, connection, refused_address, dns, secret)",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });
  private readonly webhookDuration = new Histogram({
    name: "webhook_delivery_duration_seconds",
    help: "Time from sending a webhook delivery to its receiver's answer (or its failure)",
    buckets: BUCKETS,
    registers: [this.registry],
  });
  /** What the webhooks report at each scrape: set by `webhookState` (absent where webhooks are off). */
  private webhookReader?: () => Promise<{ disabled: number; oldest: Array<{ subscription: string; seconds: number }> }>;
  private readonly webhookOldest = new Gauge({
    name: "webhook_oldest_undelivered_seconds",
    help: "Per enabled webhook subscription, how long ago the oldest change it has not delivered was logged (0: nothing waits)",
    labelNames: ["subscription"] as const,
    registers: [this.registry],
    collect: async () => {
      const state = await this.readWebhooks();
      this.webhookOldest.reset();
      for (const { subscription, seconds } of state?.oldest ?? []) this.webhookOldest.set({ subscription }, seconds);
    },
  });
  private readonly webhookDisabled = new Gauge({
    name: "webhook_subscriptions_disabled",
    help: "Webhook subscriptions disabled (by their owner, a 410, or sustained failure)",
    registers: [this.registry],
    collect: async () => {
      const state = await this.readWebhooks();
      if (state) this.webhookDisabled.set(state.disabled);
    },
  });
  private webhookRead?: Promise<{ disabled: number; oldest: Array<{ subscription: string; seconds: number }> } | undefined>;

  /** One delivery attempt: `delivered`, or the class of its failure. */
  webhookDelivery(result: string, seconds: number): void {
    this.webhookDeliveries.inc({ result });
    this.webhookDuration.observe(seconds);
  }

  /** Where the webhook gauges read their figures at each scrape (one read for both). */
  webhookState(read: () => Promise<{ disabled: number; oldest: Array<{ subscription: string; seconds: number }> }>): void {
    this.webhookReader = read;
  }

  private readWebhooks() {
    if (!this.webhookReader) return Promise.resolve(undefined);
    // Both gauges collect in one scrape: they share one read.
    this.webhookRead ??= this.webhookReader()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (this.webhookRead = undefined)));
    return this.webhookRead;
  }

  /** Pool gauges read at each scrape from `stats` (the database is opened after the metrics exist). */
  databasePool(kind: () => string | undefined, stats: () => PoolStats | undefined): void {
    const registers = [this.registry];
    const gauge = (name: string, help: string, pick: (s: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ["database"] as const,
        registers,
        collect() {
          const current = stats();
          const database = kind();
          if (current && database) this.set({ database }, pick(current));
        },
      });
    gauge("db_pool_connections", "Connections open (PGlite: its one session)", (s) => s.total);
    gauge("db_pool_idle", "Connections open and idle", (s) => s.idle);
    gauge("db_pool_waiting", "Queries or checkouts waiting for a connection", (s) => s.waiting);
    gauge("db_pool_max", "Most connections the pool opens", (s) => s.max);
  }
}
