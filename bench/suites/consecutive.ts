import pino from "pino";
import { NetworkIndexer } from "../../server/indexer/network-indexer";
import { createTestDatabase } from "../../support/database";
import { ConsecutiveNFT__factory } from "../../typechain-types";
import { cursorReached } from "../lib/cursor";
import { withLocalChain } from "../lib/local-chain";
import type { Suite } from "../lib/suite";

/** Ids of the one ConsecutiveTransfer (100 in the smoke). */
const FULL_IDS = 5_000;
const SMOKE_IDS = 100;

const consecutive: Suite = {
  method: [
    "The largest ERC-2309 range the index expands: one constructor minting 5,000 ids in one `ConsecutiveTransfer`, indexed on a fresh database as a live range (it also fills the change log).",
  ],
  async run({ log, smoke }) {
    const CONSECUTIVE_IDS = smoke ? SMOKE_IDS : FULL_IDS;
    return withLocalChain(async ({ provider }) => {
      const database = await createTestDatabase();
      const db = await database.open();
      try {
        const deployer = await provider.getSigner(0);
        await (await new ConsecutiveNFT__factory(deployer).deploy(await deployer.getAddress(), CONSECUTIVE_IDS)).waitForDeployment();
        const head = await provider.getBlockNumber();
        const { migrate } = await import("../../server/db/migrate");
        await migrate(db);
        log(`indexing one ConsecutiveTransfer of ${CONSECUTIVE_IDS.toLocaleString("en-US")} ids`);
        const indexer = new NetworkIndexer({
          network: "localhost",
          provider,
          db,
          startBlock: head,
          contracts: [],
          pollMs: 1_000,
          maxRange: 1,
          maxConsecutive: CONSECUTIVE_IDS,
          maxConsecutivePerBlock: CONSECUTIVE_IDS,
          logLagBlocks: 128,
          fullDiskPauseMs: 60_000,
          log: pino({ level: "error" }),
        });
        const started = performance.now();
        indexer.start();
        await cursorReached(db, "localhost", head);
        const ms = performance.now() - started;
        await indexer.stop();
        const { rows } = await db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM nft_transfers)::int + (SELECT count(*) FROM nft_owners)::int
              + (SELECT count(*) FROM nft_changes)::int + (SELECT count(*) FROM nft_holdings)::int AS n`,
        );
        return [
          {
            suite: "consecutive",
            metric: `index a ${CONSECUTIVE_IDS.toLocaleString("en-US")}-id ConsecutiveTransfer`,
            value: ms,
            unit: "ms",
          },
          { suite: "consecutive", metric: "rows written (transfers, owners, change log, holdings)", value: rows[0].n, unit: "rows" },
        ];
      } finally {
        await db.close();
        await database.drop();
      }
    });
  },
};

export default consecutive;
