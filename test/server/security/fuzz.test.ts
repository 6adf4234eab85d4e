import { expect } from "chai";
import { fuzz, fuzzEventStreams, fuzzMetadataBodies, startFuzzTarget, storedState, type FuzzTarget } from "./fuzz";
import { fuzzAnswerSizes, startAnswerSizeTarget, type AnswerSizeTarget } from "./fuzz-answer-sizes";

/** Under `npm test`: a fixed seed (reproducible) and a few hundred requests; `npm run fuzz -- --runs N` goes longer. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 800);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** Each body is signed and posted, then every read that embeds statements is asked (about 30 requests). */
const BODY_RUNS = Number(process.env.FUZZ_BODY_RUNS ?? 200);
/** Each opens a socket to the event stream and reads it, or reads a little and stalls (300 ms). */
const STREAM_RUNS = Number(process.env.FUZZ_STREAM_RUNS ?? 150);

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
    expect(before.metadata_posts).to.match(/^2 rows/);
    expect(before.oidc_payloads).to.not.match(/^0 rows/);
    expect(before.nft_owners).to.not.match(/^0 rows/);
  });

  it(`posts ${BODY_RUNS} hostile metadata bodies (seed ${SEED}), validly signed: each accepted and served byte for byte or refused with a documented 4xx, and after each every read that embeds statements answers JSON every reader takes`, async function () {
    const result = await fuzzMetadataBodies(target, { runs: BODY_RUNS, seed: SEED });
    console.log(`      metadata bodies: ${result.posts} posts, ${result.accepted} accepted, refusals ${JSON.stringify(result.refused)}`);
    expect(result.posts).to.equal(BODY_RUNS);
    // The bodies reach storage, and they reach each rule.
    expect(result.accepted).to.be.at.least(BODY_RUNS * 0.05);
    expect(Object.keys(result.refused)).to.include.members([
      "invalid_metadata: metadata must not begin with a byte-order mark (U+FEFF)",
      "invalid_metadata: metadata must be the Base64 of well-formed UTF-8 (no invalid, overlong or surrogate byte sequences)",
      "invalid_metadata: metadata must be the Base64 of UTF-8 JSON",
      "invalid_metadata: metadata must not contain a lone surrogate (\\ud800–\\udfff without its other half)",
      "invalid_metadata: metadata strings must not contain control characters other than tab and line breaks",
      "invalid_metadata: metadata must not repeat a key within one object",
      "invalid_metadata: metadata must not nest arrays and objects more than 32 deep",
      "invalid_metadata: metadata numbers must be within the range of a double (magnitude below 1.8e308)",
      "payload_too_large: metadata is larger than 65536 bytes",
    ]);
  });

  it(`resumes the event stream ${STREAM_RUNS} times (seed ${SEED}) with hostile Last-Event-ID values, one or many, and clients that read a few bytes and stall: each a 4xx {error, message} or a stream, never a 5xx, and the instance stays up with no socket left open`, async function () {
    const result = await fuzzEventStreams(target, { runs: STREAM_RUNS, seed: SEED });
    console.log(
      `      event streams: ${result.requests} requests, ${result.streams} streams (${result.stalled} stalled), refusals ${JSON.stringify(result.refused)}`,
    );
    expect(result.requests).to.equal(STREAM_RUNS);
    // Both kinds of answer, and both kinds of client, are met.
    expect(result.streams).to.be.at.least(STREAM_RUNS * 0.1);
    expect(result.stalled).to.be.at.least(STREAM_RUNS * 0.05);
    expect(Object.keys(result.refused)).to.include.members(["400 invalid_request", "431 headers_too_large"]);
  });
});

describe("fuzz: answer sizes of the routes that embed token metadata", function () {
  /** Each is one request; the first ones wait for reads, the rest are answered from the cache. */
  const SIZE_RUNS = Number(process.env.FUZZ_SIZE_RUNS ?? 80);
  let target: AnswerSizeTarget;
  this.timeout(300_000);

  before(async function () {
    target = await startAnswerSizeTarget();
  });
  after(async () => target?.close());

  it(`answers ${SIZE_RUNS} generated requests over large metadata (seed ${SEED}) each as JSON within its documented bound, naming what it left out`, async function () {
    const result = await fuzzAnswerSizes(target, { runs: SIZE_RUNS, seed: SEED });
    console.log(`      answer sizes: ${result.requests} requests, largest ${result.largest} bytes, ${result.omitted} items left out`);
    expect(result.requests).to.equal(SIZE_RUNS);
    // The budget was reached: answers left items out.
    expect(result.omitted).to.be.greaterThan(0);
  });
});
