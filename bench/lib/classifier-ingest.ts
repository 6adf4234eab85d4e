import { expectOk } from "./answers";
import type { CollectionsChain, CollectionsRun } from "./collections-chain";
import { ServerCpu } from "./cpu";
import { startService } from "./service";
import type { Row } from "./suite";

/** The indexer's widest `eth_getLogs` range here: the sync goes in many small steps, between which the classifier runs. */
const MAX_RANGE = "20";
/** The longest a sync (or the classification after it) may take before the bench gives up. */
const TIMEOUT_MS = 300_000;

interface Ingest {
  ms: number;
  /** Server CPU over the sync: the service's process and, on PostgreSQL, its backends. */
  cpuMicros: number;
  /** From the head indexed to every collection classified (the classifier on); undefined with it off. */
  classifiedAfterMs?: number;
}

/**
 * The service's cold sync of `chain` with the spam classifier on (SPAM_CLASSIFIER) beside off, `rounds` times each in
 * turn (on first in even rounds), each on a fresh database: its rate and its server CPU per transfer from the service's
 * start-up line to its index at the head, medians of the rounds.
 */
export async function ingestWithClassifier(options: CollectionsRun & { rounds: number; database: string }): Promise<Row[]> {
  const { chain, log } = options;
  const runs: Record<"on" | "off", Ingest[]> = { on: [], off: [] };
  for (let round = 0; round < options.rounds; round++) {
    for (const arm of round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) {
      log(`collections: cold sync of ${chain.transfers.toLocaleString("en-US")} transfers, spam classifier ${arm}`);
      const run = await syncOnce(options.nodeUrl, chain, arm === "on");
      log(
        `  ${(run.ms / 1000).toFixed(1)} s, ${(run.cpuMicros / 1e6).toFixed(1)} s CPU` +
          (run.classifiedAfterMs === undefined ? "" : `; all classified ${(run.classifiedAfterMs / 1000).toFixed(1)} s after the head`),
      );
      runs[arm].push(run);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const rate = (arm: "on" | "off") => chain.transfers / (median(runs[arm].map((r) => r.ms)) / 1000);
  const cpu = (arm: "on" | "off") => median(runs[arm].map((r) => r.cpuMicros)) / chain.transfers;
  const of = `${chain.contracts.length} collections, ${chain.transfers.toLocaleString("en-US")} transfers, median of ${options.rounds}`;
  const where = options.database === "PostgreSQL" ? "service + PostgreSQL backends" : "the service's process, PGlite inside it";
  // CPU per transfer held to the budget as its inverse (transfers per CPU second): at least 0.9× with the classifier off.
  const cpuShare = cpu("off") / cpu("on");
  return [
    {
      suite: "collections",
      metric: `indexer ingest with the spam classifier on (${of})`,
      value: rate("on"),
      unit: "transfers/s",
      reference: { label: "classifier off", value: rate("off") },
      ratio: rate("on") / rate("off"),
      budget: { text: "≥ 0.9", met: rate("on") / rate("off") >= 0.9 },
    },
    {
      suite: "collections",
      metric: `server CPU per transfer with the classifier on (${where})`,
      value: cpu("on"),
      unit: "µs",
      reference: { label: "classifier off", value: cpu("off") },
      ratio: cpu("on") / cpu("off"),
      budget: { text: "≤ 1.11 (transfers per CPU second ≥ 0.9×)", met: cpuShare >= 0.9 },
    },
    {
      suite: "collections",
      metric: "every collection classified, after the head was indexed",
      value: median(runs.on.map((r) => r.classifiedAfterMs!)),
      unit: "ms",
    },
  ];
}

/** One cold sync by a fresh service; with the classifier on, then waits until every collection has a verdict. */
async function syncOnce(nodeUrl: string, chain: CollectionsChain, classifier: boolean): Promise<Ingest> {
  const app = await startService({
    RPC_URL_LOCALHOST: nodeUrl,
    INDEXER_MAX_RANGE: MAX_RANGE,
    INDEXER_POLL_MS: "100",
    SPAM_CLASSIFIER: String(classifier),
  });
  const cpu = await ServerCpu.forService(app);
  try {
    const start = await cpu.sample();
    // The last CPU time seen of each backend: one the pool closes during the sync keeps what it used until then.
    const latest = new Map(start.backends);
    const started = performance.now();
    const details = `${app.url}/inventory/localhost/${chain.holder}?details=true&limit=1000`;
    for (;;) {
      // 503 not_indexed until the index's first step is written.
      const answer = await fetch(`${app.url}/inventory/localhost/${chain.holder}`);
      await answer.body?.cancel();
      const indexed = answer.ok ? Number(answer.headers.get("x-indexed-block")) : `not yet (${answer.status})`;
      if (typeof indexed === "number" && indexed >= chain.head) break;
      if (performance.now() - started > TIMEOUT_MS)
        throw new Error(`the service did not index block ${chain.head} in ${TIMEOUT_MS / 1000} s: it is at ${indexed}`);
      for (const [pid, ms] of (await cpu.sample()).backends) latest.set(pid, ms);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ms = performance.now() - started;
    const end = await cpu.sample();
    for (const [pid, used] of end.backends) latest.set(pid, used);
    let cpuMicros = (end.service - start.service) * 1000;
    for (const [pid, used] of latest) cpuMicros += (used - (start.backends.get(pid) ?? 0)) * 1000;
    const unclassified = async () => {
      const answer = await expectOk("the holder's collections", await fetch(details));
      const collections = (await answer.json()) as Array<{ spam: { reasons: string[] } }>;
      if (collections.length !== chain.contracts.length)
        throw new Error(`the holder's inventory lists ${collections.length} collections, not ${chain.contracts.length}`);
      return collections.filter((c) => c.spam.reasons.includes("Unclassified")).length;
    };
    if (!classifier) {
      // Off means off: nothing was classified.
      const left = await unclassified();
      if (left !== chain.contracts.length)
        throw new Error(`the classifier was off, yet ${chain.contracts.length - left} collections have a verdict`);
      return { ms, cpuMicros };
    }
    const head = performance.now();
    while ((await unclassified()) > 0) {
      if (performance.now() - head > TIMEOUT_MS) throw new Error("the classifier did not classify every collection");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { ms, cpuMicros, classifiedAfterMs: performance.now() - head };
  } finally {
    await cpu.close();
    await app.stop();
  }
}
