import type { Database } from "../db/database";
import type { Clock } from "../lib/clock";
import { Repeating } from "../lib/repeating";
import { COLLECTION_TOKEN_ID, pruneMarks, staleCachedTokens, tokenHolding } from "../indexer";
import type { Standard } from "./resolver";
import type { TokenKey } from "./store";

export interface SweepOptions {
  /** Stale documents read again at once, at most; the next batch starts once this one is done. */
  batch: number;
  /** Pause between batches, and how often an idle sweep looks for new marks. */
  intervalMs: number;
  /** Marks older than this are forgotten (every document fetched before them has expired anyway). */
  retentionMs: number;
  /** How long a token the sweep could not read again is left alone (a failing host is not asked every batch). */
  backoffMs: number;
  /** The time the backoff is measured in. */
  clock: Clock;
}

interface Rereader {
  reread(key: TokenKey, standard: Standard): Promise<boolean>;
}

/**
 * Reads again, in the background, the cached metadata documents that a metadata-change mark (ERC-4906, ERC-1155 URI)
 * made stale, `batch` at a time: only documents the cache holds (an id never asked for is read when asked), so a
 * whole-collection update of millions of ids costs at most the cache's entries of that collection, at a bounded rate.
 */
export class MetadataSweeper {
  private readonly repeating: Repeating;
  private stopped = false;
  /** "network:contract:id" → until when it is left alone; at most `batch` entries per pass, each kept `backoffMs`. */
  private readonly backoff = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly resolver: Rereader,
    private readonly options: SweepOptions,
    private readonly report: { swept(outcome: "stored" | "kept"): void; failed(error: unknown): void },
  ) {
    this.repeating = new Repeating(
      options.intervalMs,
      () => this.pass(),
      (error) => report.failed(error),
    );
  }

  start(): void {
    this.repeating.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.repeating.stop();
  }

  /** One batch: prunes old marks, then reads again up to `batch` stale cached documents, all at once, and waits for them. */
  async pass(): Promise<number> {
    const now = this.options.clock();
    for (const [key, until] of this.backoff) if (until <= now) this.backoff.delete(key);
    await pruneMarks(this.db, this.options.retentionMs);
    const stale = await staleCachedTokens(this.db, this.options.batch, [...this.backoff.keys()]);
    await Promise.all(
      stale.map(async ({ network, contract, token_id }) => {
        const tokenId = BigInt(token_id);
        // A collection's document (contractURI) is read again whatever its tokens; a token's only while the index holds it.
        const standard =
          tokenId === COLLECTION_TOKEN_ID ? "erc721" : (await tokenHolding(this.db, network, contract, tokenId)).holding?.standard;
        const stored = standard !== undefined && !this.stopped && (await this.resolver.reread({ network, contract, tokenId }, standard));
        if (!stored) this.backoff.set(`${network}:${contract}:${token_id}`, this.options.clock() + this.options.backoffMs);
        this.report.swept(stored ? "stored" : "kept");
      }),
    );
    return stale.length;
  }
}
