import { expect } from "chai";
import { startService } from "../../bench/lib/service";
import { usingPostgres } from "../helpers/database";

/**
 * A suite's preparation loads data before the service starts: the scale suite writes tens of millions of rows and
 * compacts them, single statements of minutes. They run on a connection of their own, not bound by the service's
 * statement timeout (DATABASE_STATEMENT_TIMEOUT_MS, 10 s by default), which once cancelled the full scale run's fill.
 */
describe("bench: a suite's preparation", function () {
  it("runs its statements under the preparation's bound, not the service's", async function () {
    if (!usingPostgres()) return this.skip();
    let seen: string | undefined;
    const stop = new Error("prepared");
    const started = startService({}, async (db) => {
      const { rows } = await db.query<{ statement_timeout: string }>("SHOW statement_timeout");
      seen = rows[0].statement_timeout;
      throw stop;
    });
    await expect(started).to.be.rejectedWith(stop);
    expect(seen).to.equal("6h");
  });
});
