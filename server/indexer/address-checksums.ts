import type { Queryable } from "../db/database";
import { Sleeper } from "../lib/sleeper";
import type { IndexerOptions } from "./network-indexer";
import { checksumStoredAddresses } from "./store/ids";

export interface AddressChecksumsOptions {
  db: Queryable;
  /** Addresses one batch reads and updates: two short statements whatever the dictionary holds. */
  batch: number;
  /** Pause between two batches, leaving the database to the indexers and the reads. */
  pauseMs: number;
  /** Pause before trying again after a batch failed. */
  retryMs: number;
  log: IndexerOptions["log"];
}

/** The indexer's: 5,000 addresses a batch, 50 ms apart: a million old addresses take under a minute on 2 cores. */
export const ADDRESS_CHECKSUMS: Omit<AddressChecksumsOptions, "db" | "log"> = { batch: 5_000, pauseMs: 50, retryMs: 30_000 };

/**
 * Gives the addresses an index held before 0266_address_checksums their EIP-55 form, in the background and a batch at a
 * time, then ends: until it does, the service hashes those addresses on every page that names them. Every address
 * written since has its form from the writer, so on an index started after 0266 one empty read ends it. Several
 * instances may run it at once: each batch sets only forms still missing.
 */
export class AddressChecksums {
  private stopping = false;
  private readonly sleeper = new Sleeper();
  private running?: Promise<void>;

  constructor(private readonly options: AddressChecksumsOptions) {}

  start(): void {
    this.running = this.run();
  }

  /** No batch starts after this; resolves once the batch in progress, if any, has ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.sleeper.wake();
    await this.running;
  }

  private async run(): Promise<void> {
    const { db, batch, pauseMs, retryMs, log } = this.options;
    let given = 0;
    while (!this.stopping) {
      try {
        const read = await checksumStoredAddresses(db, batch);
        given += read;
        if (read < batch) break;
        await this.sleeper.sleep(pauseMs);
      } catch (error) {
        log.warn({ err: error, given }, "indexer: giving EIP-55 forms to stored addresses failed; retrying");
        await this.sleeper.sleep(retryMs);
      }
    }
    if (given > 0) log.info({ given, finished: !this.stopping }, "indexer: EIP-55 forms given to addresses stored before they were kept");
  }
}
