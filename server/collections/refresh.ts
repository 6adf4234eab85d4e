import { tokenIdsAfter } from "../indexer";
import type { Database } from "../db/database";
import { DomainError } from "../lib/domain-error";
import type { Clock } from "../lib/clock";
import type { Standard, TokenMetadataResolver } from "../token-metadata";

/** A contract-wide refresh as its status answers it. */
export interface RefreshStatus {
  state: "running" | "done" | "failed";
  startedAt: string;
  finishedAt: string | null;
  /** Tokens whose tokenURI and document were read again so far. */
  read: number;
  /** Of those, the reads that stored an answer (a document or the reason there is none). */
  stored: number;
}

/** Token ids read from the index per statement. */
const PAGE = 1_000;
/** Refreshes remembered per instance (running ones always are): the oldest finished one is forgotten first. */
const REMEMBERED = 1_000;

/**
 * Contract-wide metadata refreshes, run in the background on this instance: every token the index holds is read again
 * through the token metadata resolver (its queue, its limits per address and per contract), `batch` at a time. A
 * refresh asked during one in progress joins it; one asked within `cooldownMs` of the last one's end is refused
 * (`refresh_cooldown`, with Retry-After); at most `maxRunning` run at once (`refresh_busy`).
 */
export class CollectionRefreshes {
  private readonly refreshes = new Map<string, RefreshStatus>();

  constructor(
    private readonly deps: { db: Database; tokenMetadata: TokenMetadataResolver; clock: Clock },
    private readonly options: { cooldownMs: number; maxRunning: number; batch: number },
  ) {}

  /** Starts a refresh of `contract` (lower case), or joins the one in progress; its status and whether it joined. */
  start(network: string, contract: string, standard: Standard): { status: RefreshStatus; joined: boolean } {
    const key = `${network}:${contract}`;
    const known = this.refreshes.get(key);
    if (known?.state === "running") return { status: known, joined: true };
    const now = this.deps.clock();
    if (known?.finishedAt) {
      const wait = Date.parse(known.finishedAt) + this.options.cooldownMs - now;
      if (wait > 0)
        throw new DomainError(
          "too_many",
          "refresh_cooldown",
          `${contract} on ${network} was refreshed at ${known.finishedAt}; a new refresh may start in ${Math.ceil(wait / 1000)} s`,
          Math.ceil(wait / 1000),
        );
    }
    const running = [...this.refreshes.values()].filter((r) => r.state === "running").length;
    if (running >= this.options.maxRunning)
      throw new DomainError(
        "unavailable",
        "refresh_busy",
        `${running} collection refreshes are under way on this instance; try again later`,
        60,
      );
    const status: RefreshStatus = { state: "running", startedAt: new Date(now).toISOString(), finishedAt: null, read: 0, stored: 0 };
    this.refreshes.delete(key);
    this.refreshes.set(key, status);
    this.forgetOldest();
    void this.run(network, contract, standard, status).then(
      () => this.finish(status, "done"),
      () => this.finish(status, "failed"),
    );
    return { status, joined: false };
  }

  /** The last refresh of `contract` (lower case) on this instance, if any is remembered. */
  status(network: string, contract: string): RefreshStatus | undefined {
    return this.refreshes.get(`${network}:${contract}`);
  }

  private async run(network: string, contract: string, standard: Standard, status: RefreshStatus): Promise<void> {
    let after = -1n;
    for (;;) {
      const ids = await tokenIdsAfter(this.deps.db, { network, contract, after, limit: PAGE });
      for (let at = 0; at < ids.length; at += this.options.batch) {
        const batch = ids.slice(at, at + this.options.batch);
        const stored = await Promise.all(batch.map((tokenId) => this.deps.tokenMetadata.reread({ network, contract, tokenId }, standard)));
        status.read += batch.length;
        status.stored += stored.filter(Boolean).length;
      }
      if (ids.length < PAGE) return;
      after = ids[ids.length - 1];
    }
  }

  private finish(status: RefreshStatus, state: "done" | "failed"): void {
    status.state = state;
    status.finishedAt = new Date(this.deps.clock()).toISOString();
  }

  private forgetOldest(): void {
    for (const [key, status] of this.refreshes) {
      if (this.refreshes.size <= REMEMBERED) return;
      if (status.state !== "running") this.refreshes.delete(key);
    }
  }
}
