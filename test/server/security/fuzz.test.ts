import { expect } from "chai";
import { fuzz, startFuzzTarget, storedState, type FuzzTarget } from "./fuzz";

/** Under `npm test`: a fixed seed (reproducible) and a few hundred requests; `npm run fuzz -- --runs N` goes longer. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 800);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);

describe("fuzz: every route and oidc-provider endpoint with malformed input", function () {
  let target: FuzzTarget;
  this.timeout(300_000);

  before(async function () {
    target = await startFuzzTarget();
  });
  after(async () => target?.close());

  it(`answers ${RUNS} generated requests (seed ${SEED}) with no 5xx, each in its endpoint's documented shape, and changes nothing stored`, async function () {
    const before = await storedState(target.t.app.db);
    const result = await fuzz(target.t.app, target.t.app.db, { runs: RUNS, seed: SEED });
    console.log(
      `      fuzz: ${result.requests} requests to ${result.endpoints} endpoints (seed ${SEED}), statuses ${JSON.stringify(result.statuses)}`,
    );
    expect(result.requests).to.be.at.least(RUNS * 0.9);
    // The state really was there to be changed: a client, a grant and tokens, metadata and an index.
    expect(before.login_clients).to.match(/^1 rows/);
    expect(before.metadata_posts).to.match(/^1 rows/);
    expect(before.oidc_payloads).to.not.match(/^0 rows/);
    expect(before.nft_owners).to.not.match(/^0 rows/);
  });
});
