import { startTestApp, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { usingPostgres } from "../../helpers/database";
import { expectRefusal } from "../../helpers/refusal";

const CONTRACT = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

/** An instance whose connections are all taken waits DATABASE_ACQUIRE_TIMEOUT_MS for one, then says it is busy. */
describe("database pool exhausted", function () {
  let t: TestApp | undefined;

  before(async function () {
    // PGlite is one in-process connection, without a pool to exhaust.
    if (!usingPostgres()) return this.skip();
    // The bound also covers opening a connection (docs/operations/running.md): it stays above what that takes on a
    // loaded machine, or the start's own first connection is refused.
    t = await startTestApp({
      env: { RPC_URL_LOCALHOST: (await sharedNode()).url, INDEXER: "false", DATABASE_POOL_SIZE: "1", DATABASE_ACQUIRE_TIMEOUT_MS: "500" },
    });
  });
  after(async () => t?.close());

  it("answers 503 database_busy with Retry-After, not a 500, while no connection frees up in time", async function () {
    const app = t!;
    const held = await app.app.db.connect();
    try {
      await expectRefusal(await app.fetch(`/metadata/localhost/${CONTRACT}/1`), 503, "database_busy", {
        headers: { "retry-after": "1" },
      });
    } finally {
      held.release();
    }
    // A connection is free again: the read runs (and finds nothing).
    await expectRefusal(await app.fetch(`/metadata/localhost/${CONTRACT}/1`), 404, "not_found");
  });
});
