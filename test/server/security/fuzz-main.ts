import { parseArgs } from "node:util";
import { fuzz, fuzzEventStreams, fuzzMetadataBodies, startFuzzTarget } from "./fuzz";
import { fuzzAnswerSizes, startAnswerSizeTarget } from "./fuzz-answer-sizes";

/**
 * `npm run fuzz -- --runs N [--bodies M] [--streams K] [--sizes L] [--seed S]`: the fuzz test's requests, hostile
 * metadata bodies, hostile event-stream resumes and answers that embed big metadata (each a tenth as many unless
 * given), with a new seed unless given.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "10000" },
      bodies: { type: "string" },
      streams: { type: "string" },
      sizes: { type: "string" },
      seed: { type: "string" },
    },
  });
  const runs = Number(values.runs);
  const bodies = values.bodies !== undefined ? Number(values.bodies) : Math.ceil(runs / 10);
  const streams = values.streams !== undefined ? Number(values.streams) : Math.ceil(runs / 10);
  const sizes = values.sizes !== undefined ? Number(values.sizes) : Math.ceil(runs / 10);
  const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
  if (![runs, bodies, streams, sizes].every((n) => Number.isInteger(n) && n >= 1) || !Number.isInteger(seed))
    throw new Error("usage: npm run fuzz -- --runs N [--bodies M] [--streams K] [--sizes L] [--seed S]");
  console.log(`fuzz: ${runs} runs, seed ${seed} (repeat with --seed ${seed})`);
  const target = await startFuzzTarget();
  const started = Date.now();
  try {
    const result = await fuzz(target.t.app, target.t.app.db, { runs, seed });
    console.log(
      `fuzz: ${result.requests} requests to ${result.endpoints} endpoints in ${((Date.now() - started) / 1000).toFixed(1)} s, ${result.unsendable} not sendable; statuses ${JSON.stringify(result.statuses)}`,
    );
    console.log("fuzz: no 5xx, every error in its documented shape, nothing stored changed");
    const posted = await fuzzMetadataBodies(target, { runs: bodies, seed });
    console.log(`fuzz: ${posted.posts} metadata bodies, ${posted.accepted} accepted; refusals ${JSON.stringify(posted.refused)}`);
    console.log("fuzz: each accepted body served byte for byte, each refusal documented, every read JSON every reader takes");
    const resumed = await fuzzEventStreams(target, { runs: streams, seed });
    console.log(
      `fuzz: ${resumed.requests} event-stream resumes, ${resumed.streams} streams (${resumed.stalled} stalled); refusals ${JSON.stringify(resumed.refused)}`,
    );
    console.log("fuzz: no 5xx, each refusal {error, message}, the instance up and no socket left open");
  } finally {
    await target.close();
  }
  const sizeTarget = await startAnswerSizeTarget();
  try {
    const answered = await fuzzAnswerSizes(sizeTarget, { runs: sizes, seed });
    console.log(`fuzz: ${answered.requests} answers with metadata, largest ${answered.largest} bytes, ${answered.omitted} items left out`);
    console.log("fuzz: every answer within its bound and JSON every reader takes, X-Metadata-Omitted right");
  } finally {
    await sizeTarget.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? `${error.message}\n${(error.cause as Error | undefined)?.message ?? ""}` : error);
    process.exit(1);
  },
);
