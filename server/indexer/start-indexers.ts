import type { Config } from "../config";
import type { Networks } from "../chain/networks";
import type { Database } from "../db/database";
import type { IndexerMetrics } from "../metrics/metrics";
import { AddressChecksums, ADDRESS_CHECKSUMS } from "./address-checksums";
import { NetworkIndexer, type IndexerOptions } from "./network-indexer";

export interface RunningIndexers {
  stop(): Promise<void>;
}

/**
 * Starts one indexer per configured network (each writes only while it holds that network's lock), and the pass that
 * gives the addresses stored before their forms were kept their EIP-55 form (ending at once when there are none).
 */
export function startIndexers({
  config,
  db,
  networks,
  log,
  metrics,
}: {
  config: Config;
  db: Database;
  networks: Networks;
  log: IndexerOptions["log"];
  metrics?: IndexerMetrics;
}): RunningIndexers {
  const indexers = networks.configured().map((network) => {
    const indexer = new NetworkIndexer({
      network,
      provider: networks.provider(network),
      db,
      startBlock: config.indexer.startBlocks[network] ?? 0,
      contracts: config.indexer.contracts[network] ?? [],
      pollMs: config.indexer.pollMs,
      maxRange: config.indexer.maxRange,
      maxConsecutive: config.indexer.maxConsecutive,
      maxConsecutivePerBlock: config.indexer.maxConsecutivePerBlock,
      logLagBlocks: config.indexer.logLagBlocks,
      fullDiskPauseMs: config.indexer.fullDiskPauseMs,
      log,
      metrics,
    });
    indexer.start();
    return indexer;
  });
  const checksums = new AddressChecksums({ db, log, ...ADDRESS_CHECKSUMS });
  checksums.start();
  return {
    stop: async () => {
      await Promise.all([...indexers.map((indexer) => indexer.stop()), checksums.stop()]);
    },
  };
}
