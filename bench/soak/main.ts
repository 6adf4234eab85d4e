import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { addClient } from "../../server/auth/clients";
import { providerFor, startLocalNode } from "../../support/chain";
import { writeResult, type Row } from "../../support/bench-report";
import { startFaultProxy } from "../../support/fault-proxy";
import { freePort } from "../../support/net";
import { postgresServerBinaries, startPostgresServer } from "../../support/postgres-server";
import { drawSamples } from "../../support/soak-graph";
import { memoryCriteria, noneCriterion, p99Criteria, type Criterion } from "../../support/soak-verdict";
import { stopIfInterrupted, stopOnSignals } from "../lib/interrupt";
import { startService } from "../lib/service";
import { runTags } from "../lib/tags";
import { Answers, documentedErrors } from "./answers";
import { ChainDriver } from "./chain";
import { cycleFaults, FAULT_KINDS } from "../../support/soak-faults";
import { startMetadataHosts } from "./hosts";
import { loop, paced } from "./http";
import { compareIndexWithChain } from "./index-check";
import { Logins } from "./logins";
import { MetadataPosts, POSTS_CONTRACT } from "./posts";
import { callRoute, dataRoutes } from "./routes";
import { Inspector } from "./inspector";
import { takeSample, type Sample } from "./sampler";
import { StreamClients } from "./streams";

const ROOT = path.resolve(__dirname, "..", "..");
/** Where a published run draws its graphs: docs/reference/benchmarks.md shows it in its "Soak" section. */
const PUBLISHED_IMAGE = path.join(ROOT, "docs", "reference", "soak.svg");
/** Where a published run's samples are kept beside its graphs, for whoever wants to draw or judge them again. */
const PUBLISHED_SAMPLES = path.join(ROOT, "docs", "reference", "soak-samples.json");
/** What the service's OpenAPI document does not describe (oidc-provider's authorization endpoint, the hosted page). */
/** How often each data route is asked at most: 60 requests a minute, a pool of MIN_POOLED within nine minutes. */
const ROUTE_PERIOD_MS = 1_000;
const LOGIN_PAGES_REFUSALS = ["503 database_unavailable", "503 database_busy", "429 too_many_requests"];

const METHOD = [
  "`npm run soak -- --minutes 60` runs the service (in its own process, as `npm start` does) on a PostgreSQL the soak starts itself with initdb and pg_ctl, in front of a Hardhat node that mines a block every tick (a mint and a transfer of a token whose tokenURI is inline, on a host that answers, on one that answers after 4 s, or on one that fails) and reorganises about six blocks every few minutes.",
  "The node is reached through the tests' fault proxy, which switches its fault kind six times a sampling window (none; HTTP 429 and 502; -32005 and `header not found` inside an HTTP 200; a log index 3 blocks behind; the newest 2 headers null; a slow node), so every window sees the same mix.",
  "The load, from the soak's own process: logins by fresh wallets over the JSON API and by the OIDC redirect flow (PKCE, state, nonce), each code redeemed at `/token` and its refresh token used; every GET data route of the OpenAPI document and the token metadata refresh, each at most once a second, their parameters taken from the chain; signed-metadata posts by fresh wallets; event-stream clients that read, drop, stall 20 s and resume with `Last-Event-ID`, and two that read a moment each time.",
  "PostgreSQL is restarted once (`pg_ctl restart -m fast`) halfway through.",
  "Each window (a minute) samples the service's RSS, heap, event-loop delay p99, active handles (from its metrics), then its RSS and heap right after a full garbage collection forced through its inspector, its open sockets (/proc), its database connections (pg_stat_activity), the machine's load average, and, from the clients, the latencies of each route family and the answers by status and error code.",
  "It passes when, after the warm-up (10 minutes), RSS and heap after a full garbage collection grow by at most 10 % (the least-squares line through the samples, from its first to its last), each family's p99 over pools of at least 500 requests (consecutive windows outside the restart's) stays within 1.5× of its first pool's, every error answer is one the route documents in the OpenAPI document (never a 500, never no answer), the index equals the chain at the end (every Transfer log and every owner), every code of a 2xx login was redeemed, and every post answered `\"ok\"` is stored.",
  "The graphs of the run: ![the soak's samples](soak.svg)",
];

async function main() {
  const { values } = parseArgs({
    options: {
      minutes: { type: "string", default: "60" },
      "warmup-minutes": { type: "string" },
      "sample-seconds": { type: "string", default: "60" },
      "reorg-minutes": { type: "string", default: "3" },
      "heap-snapshot-minutes": { type: "string", default: "0" },
      publish: { type: "boolean", default: false },
    },
  });
  const minutes = Number(values.minutes);
  const sampleMs = Number(values["sample-seconds"]) * 1000;
  // The warm-up is 10 minutes; a short run keeps its first third as warm-up so that it can still be judged.
  const warmupMinutes = values["warmup-minutes"] !== undefined ? Number(values["warmup-minutes"]) : Math.min(10, minutes / 3);
  const reorgMs = Number(values["reorg-minutes"]) * 60_000;
  const snapshotMs = Number(values["heap-snapshot-minutes"]) * 60_000;
  if (![minutes, sampleMs, warmupMinutes, reorgMs, snapshotMs].every((n) => Number.isFinite(n) && n >= 0) || minutes <= 0 || sampleMs <= 0)
    throw new Error(
      "usage: npm run soak -- [--minutes 60] [--warmup-minutes 10] [--sample-seconds 60] [--reorg-minutes 3] [--heap-snapshot-minutes 0] [--publish]",
    );
  const durationMs = minutes * 60_000;
  const log = (line: string) => console.log(`soak ${new Date().toISOString().slice(11, 19)} ${line}`);

  const binaries = postgresServerBinaries();
  if (!binaries) throw new Error("the soak needs PostgreSQL's server programs (initdb, pg_ctl): install postgresql-15");
  const cleanups: Array<() => Promise<unknown>> = [];
  // In the reverse order of the starts, once: after the soak, or when a signal interrupts it (interrupt.ts).
  let cleaned: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaned ??= (async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(error));
    })());
  stopOnSignals(log);
  stopIfInterrupted(cleanUp);
  try {
    const server = await startPostgresServer(binaries);
    cleanups.push(() => server.remove());
    const tags = await runTags(server.url);
    const hosts = await startMetadataHosts();
    cleanups.push(hosts.close);
    const node = await startLocalNode();
    cleanups.push(() => node.stop());
    const provider = providerFor(node.url);
    cleanups.push(async () => provider.destroy());
    const chain = new ChainDriver(provider, hosts.hosts);
    const nft = await chain.deploy();
    const proxy = await startFaultProxy(node.url, { seed: 53 });
    cleanups.push(proxy.close);
    const metricsPort = await freePort();
    const inspectorPort = await freePort();
    const redirectUri = "https://rp.example/callback";
    let client!: { id: string; secret: string };
    const service = await startService(
      {
        RPC_URL_LOCALHOST: proxy.url,
        DEFAULT_NETWORK: "localhost",
        METRICS_PORT: String(metricsPort),
        METADATA_FETCH_ALLOW_PRIVATE: "true",
        LOG_LEVEL: "error",
      },
      async (db) => {
        const added = await addClient(db, { name: "Soak RP", redirectUris: [redirectUri], public: false });
        client = { id: added.client.id, secret: added.secret! };
      },
      // The inspector, on the loopback only, lets the sampler collect the service's garbage before it reads its memory.
      { database: server.database, nodeArgs: [`--inspect=127.0.0.1:${inspectorPort}`] },
    );
    // stop() drops the database, which removes the server: being last, it runs first of the cleanups.
    cleanups.push(() => service.stop());
    const inspector = await Inspector.connect(inspectorPort);
    cleanups.push(async () => inspector.close());
    const db = await server.database.open();
    log(`service ${service.url} (pid ${service.pid}) on ${tags.database}, node ${node.url} behind the fault proxy ${proxy.url}`);

    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as Parameters<typeof documentedErrors>[0];
    const documented = documentedErrors(document);
    for (const route of ["GET /authorize", "GET /interaction/{uid}"]) documented.set(route, new Set(LOGIN_PAGES_REFUSALS));
    const answers = new Answers(documented);
    const routes = dataRoutes(document);
    const logins = new Logins(answers, service.url, { ...client, redirectUri });
    const posts = new MetadataPosts(answers, service.url);
    const streams = new StreamClients(answers, service.url);

    let running = true;
    const isRunning = () => running;
    let head = await provider.getBlockNumber();
    const headTimer = setInterval(
      () =>
        void provider.getBlockNumber().then(
          (n) => (head = n),
          () => {},
        ),
      5_000,
    );
    chain.start(1_500);
    const faults = cycleFaults(proxy, sampleMs);
    streams.start(4, 2);
    const workers = [
      loop(isRunning, 200, () => logins.json()),
      loop(isRunning, 200, () => logins.redirect()),
      loop(isRunning, 300, () => posts.post()),
      // Each data route at its own steady rate, so that even a family of one route gathers the requests its p99 is
      // judged on (MIN_POOLED) within minutes.
      ...routes.map((route) =>
        paced(isRunning, ROUTE_PERIOD_MS, () =>
          callRoute({
            answers,
            base: service.url,
            route,
            chain,
            head,
            posted: { contract: POSTS_CONTRACT, ids: posts.acknowledged.slice(-40).map((post) => post.tokenId) },
          }),
        ),
      ),
    ];
    const reorgTimer = setInterval(() => chain.askReorg(), reorgMs);

    const started = performance.now();
    const samples: Sample[] = [];
    const outDir = path.join(ROOT, "bench", "results", "soak");
    fs.mkdirSync(outDir, { recursive: true });
    const stamp = tags.date.replace(/[:.]/g, "-");
    const partialFile = path.join(outDir, `soak-partial-${stamp}.json`);
    let restart: { at: number; ms: number } | undefined;
    const restartTimes: { began?: number; ended?: number } = {};
    /** Whether a heap snapshot was taken since the last sample: the window it paused is not judged for p99s. */
    let snapshotTaken = false;
    const restarting = (async () => {
      // Halfway, in the middle of a window: one window holds it, unless it outlasts the window.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(durationMs / 2 / sampleMs) * sampleMs + sampleMs / 2));
      if (!running) return;
      restartTimes.began = performance.now();
      log("restarting PostgreSQL (pg_ctl restart -m fast)");
      await server.restart("fast");
      restartTimes.ended = performance.now();
      restart = { at: (restartTimes.began - started) / 1000, ms: restartTimes.ended - restartTimes.began };
      log(`PostgreSQL back after ${Math.round(restart.ms)} ms`);
    })();
    while (performance.now() - started < durationMs) {
      const windowStart = started + samples.length * sampleMs;
      const windowEnd = Math.min(started + durationMs, windowStart + sampleMs);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, windowEnd - performance.now())));
      // A window the restart (from pg_ctl's start to its return) overlaps.
      const inRestart = restartTimes.began !== undefined && (restartTimes.ended === undefined || restartTimes.ended > windowStart);
      const sample = await takeSample({
        pid: service.pid,
        metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
        inspector,
        database: { db, name: "postgres" },
        answers,
        t: (performance.now() - started) / 1000,
        restart: inRestart,
      });
      sample.snapshot = snapshotTaken;
      snapshotTaken = false;
      proxy.calls.length = 0;
      samples.push(sample);
      // Written as the run goes, so that a run cut short still leaves what it sampled.
      fs.writeFileSync(partialFile, `${JSON.stringify({ tags, samples }, null, 1)}\n`);
      log(
        `t=${sample.t}s rss ${sample.rssMiB} MiB heap ${sample.heapUsedMiB} MiB, after a full GC rss ${sample.liveRssMiB} MiB heap ${sample.liveHeapMiB} MiB (${JSON.stringify(sample.heapSpacesMiB)}), loop p99 ${sample.eventLoopP99Ms} ms sockets ${sample.sockets} db ${sample.databaseConnections} load ${sample.load1} answers ${JSON.stringify(sample.answers)}`,
      );
      if (snapshotMs > 0 && Math.round((sample.t * 1000) / sampleMs) % Math.max(1, Math.round(snapshotMs / sampleMs)) === 0) {
        const file = path.join(outDir, `soak-heap-${stamp}-${String(sample.t).padStart(5, "0")}s.heapsnapshot`);
        await inspector.writeSnapshot(file);
        snapshotTaken = true;
        log(`heap snapshot ${file}`);
      }
    }

    log("load stopped; the chain stops, the faults end, the index catches up");
    running = false;
    clearInterval(reorgTimer);
    await Promise.all([...workers, streams.stop(), restarting, chain.stop()]);
    clearInterval(headTimer);
    faults.stop();
    const differences = await compareIndexWithChain(db, provider, nft);
    const missingPosts = await posts.missing(db);
    const unredeemed = [...logins.codesGiven].filter((code) => !logins.codesRedeemed.has(code));
    const warmupSeconds = warmupMinutes * 60;

    const criteria: Criterion[] = [
      ...memoryCriteria(samples, warmupSeconds, { rssJudged: snapshotMs === 0 }),
      ...p99Criteria(samples),
      noneCriterion(
        "undocumented error answers",
        answers.undocumented.length,
        answers.undocumented,
        `${[...answers.total.values()].reduce((a, b) => a + b, 0)} answers`,
      ),
      noneCriterion(
        "differences between the index and the chain",
        differences.length,
        differences,
        `${chain.reorgs} reorgs, ${chain.blocksUndone} blocks undone`,
      ),
      noneCriterion(
        "codes of 2xx logins not redeemed",
        unredeemed.length,
        unredeemed,
        `${logins.codesGiven.size} codes, ${logins.refreshes} refreshes`,
      ),
      noneCriterion('posts answered "ok" not stored', missingPosts.length, missingPosts, `${posts.acknowledged.length} acknowledged`),
    ];
    console.log("");
    for (const c of criteria) console.log(`${c.passed ? "PASS" : "FAIL"}  ${c.name}: ${c.detail}`);
    const failed = criteria.filter((c) => !c.passed).length;
    console.log(failed === 0 ? "\nsoak: every criterion passed" : `\nsoak: ${failed} of ${criteria.length} criteria failed`);

    const loads = samples.map((s) => s.load1);
    const totals = Object.fromEntries([...answers.total].sort((a, b) => b[1] - a[1]));
    const samplesFile = path.join(outDir, `soak-samples-${stamp}.json`);
    fs.writeFileSync(
      samplesFile,
      `${JSON.stringify(
        {
          tags,
          host: os.hostname(),
          options: {
            minutes,
            warmupMinutes,
            sampleSeconds: sampleMs / 1000,
            reorgMinutes: reorgMs / 60_000,
            heapSnapshotMinutes: snapshotMs / 60_000,
          },
          faultKinds: FAULT_KINDS.map((k) => k.name),
          faultSwitches: faults.switches,
          restart,
          reorgs: chain.reorgs,
          streams: { connections: streams.connections, events: streams.events, stalls: streams.stalls },
          totals,
          byRoute: Object.fromEntries([...answers.byRoute].map(([route, codes]) => [route, Object.fromEntries(codes)])),
          undocumented: answers.undocumented.slice(0, 100),
          criteria,
          samples,
        },
        null,
        1,
      )}\n`,
    );
    fs.rmSync(partialFile, { force: true });
    const svg = drawSamples(samples, {
      title: `Soak: ${minutes} min at commit ${tags.commit.slice(0, 12)}, load average ${Math.min(...loads)} to ${Math.max(...loads)}`,
      warmupSeconds,
    });
    const image = values.publish ? PUBLISHED_IMAGE : samplesFile.replace(/\.json$/, ".svg");
    fs.writeFileSync(image, svg);
    const rows: Row[] = [
      ...criteria.map((c) => ({
        suite: "soak",
        metric: c.name,
        value: c.value,
        unit: c.unit,
        budget: { text: c.budget, met: c.passed },
      })),
      { suite: "soak", metric: "answers", value: [...answers.total.values()].reduce((a, b) => a + b, 0), unit: "" },
      ...Object.entries(totals).map(([key, n]) => ({ suite: "soak", metric: `answers ${key}`, value: n, unit: "" })),
      { suite: "soak", metric: "logins (codes given)", value: logins.codesGiven.size, unit: "" },
      { suite: "soak", metric: "refreshes", value: logins.refreshes, unit: "" },
      { suite: "soak", metric: "posts acknowledged", value: posts.acknowledged.length, unit: "" },
      { suite: "soak", metric: "event-stream connections (stalled)", value: streams.connections, unit: `(${streams.stalls})` },
      { suite: "soak", metric: "reorgs (blocks undone)", value: chain.reorgs, unit: `(${chain.blocksUndone})` },
      { suite: "soak", metric: "PostgreSQL restart, down for", value: restart?.ms ?? NaN, unit: "ms" },
    ];
    if (values.publish) {
      fs.copyFileSync(samplesFile, PUBLISHED_SAMPLES);
      const file = writeResult({
        suite: "soak",
        tags,
        seconds: minutes * 60,
        method: METHOD,
        load: { start: loads[0], end: loads[loads.length - 1] },
        rows,
      });
      log(`result ${file} (npm run bench:report puts it on docs/reference/benchmarks.md)`);
    }
    log(`samples ${samplesFile}, graphs ${image}`);
    return failed === 0;
  } finally {
    await cleanUp();
  }
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
