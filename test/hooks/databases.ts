import { dropLeftTestDatabases } from "../../support/database";

/**
 * A root hook of `npm test` (mocha's `require`, hardhat.config.ts; the parallel workers run it after each test file):
 * a file that leaves a database it made fails, naming it, and the database is dropped. Before, two indexer tests left
 * theirs on the server each run. A single file run without --parallel is not checked.
 */
export const mochaHooks = {
  async afterAll(): Promise<void> {
    const left = await dropLeftTestDatabases();
    if (left.length > 0) throw new Error(`this test file left ${left.length} database(s) it made: ${left.join(", ")} (dropped now)`);
  },
};
