import fs from "node:fs";
import path from "node:path";

/** The parts of V8's `.cpuprofile` (what `node --cpu-prof` writes) read here. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  /** Microseconds on the system's monotonic clock (the one `process.hrtime` reads in any process of the machine). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The layers a sample's CPU time is given to, by the nearest frame from the top of its stack that belongs to one: the
 * first that matches, in this order, names the layer. Node's own HTTP and socket code met before any of these is
 * "HTTP parsing and sockets"; Node's other internals (crypto, buffers) count for the frame that called them.
 */
const LAYERS: Array<[string, RegExp]> = [
  ["signature (recovery, message hash)", /node_modules\/(tiny-secp256k1|@noble)\/|server\/chain\/signatures/],
  ["token (jose: RS256, JWT)", /node_modules\/jose\//],
  ["adapter (oidc-provider's storage, held writes)", /server\/auth\/oidc\/(adapter|held-writes|grant-claims|counted-requests)/],
  ["database driver (pg) and pool", /node_modules\/(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-[a-z]+)\/|server\/db\//],
  ["oidc-provider (and Koa)", /node_modules\/(oidc-provider|koa|koa-compose|@koa|koa-[a-z]+|http-errors|raw-body|statuses)\//],
  [
    "Fastify (routing, hooks, schemas, plugins)",
    /node_modules\/(fastify|@fastify|find-my-way|avvio|fast-json-stringify|ajv|fast-uri|fast-querystring|secure-json-parse|light-my-request|toad-cache|abstract-logging)\//,
  ],
  ["logging (pino)", /node_modules\/pino/],
  ["the service's own code (server/)", /\/server\//],
  ["other libraries", /node_modules\//],
];
const NODE_HTTP = /^node:(_http_|http|net|stream|internal\/(streams|http|net|stream_base_commons|js_stream_socket))/;
/** V8's pseudo-frames: the time the collector and V8 itself took, which no JavaScript frame carries. */
const PSEUDO: Record<string, string> = {
  "(garbage collector)": "garbage collection",
  "(program)": "V8 and native code (program)",
};

export const HTTP_LAYER = "HTTP parsing and sockets (Node)";

/**
 * The CPU time of the samples of `file` taken between `fromUs` and `toUs` (the monotonic clock, as
 * `process.hrtime.bigint() / 1000n` reads it), in ms by layer ({@link LAYERS}); the idle time is left out.
 */
export function cpuByLayer(file: string, fromUs: number, toUs: number): Map<string, number> {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const layerOf = new Map<number, string | undefined>();
  const classify = (id: number): string | undefined => {
    if (layerOf.has(id)) return layerOf.get(id);
    let layer: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url } = byId.get(at)!.callFrame;
      if (functionName === "(idle)") break;
      if (Object.hasOwn(PSEUDO, functionName)) {
        layer = PSEUDO[functionName];
        break;
      }
      if (NODE_HTTP.test(url)) {
        layer = HTTP_LAYER;
        break;
      }
      layer = LAYERS.find(([, pattern]) => pattern.test(url))?.[0];
      if (layer) break;
    }
    layer ??= byId.get(id)!.callFrame.functionName === "(idle)" ? undefined : "other (Node internals, native)";
    layerOf.set(id, layer);
    return layer;
  };
  const ms = new Map<string, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    // A sample's time is the delta to the next one.
    const spent = profile.timeDeltas[i + 1] ?? 0;
    if (at < fromUs || at > toUs) continue;
    const layer = classify(profile.samples[i]);
    if (layer) ms.set(layer, (ms.get(layer) ?? 0) + spent / 1000);
  }
  return ms;
}

/**
 * The `limit` functions that took the most CPU themselves (their own samples, not their callees') between `fromUs`
 * and `toUs`, in ms, as `name (file:line)` with the file relative to the checkout; the idle time left out.
 */
export function topFunctions(file: string, fromUs: number, toUs: number, limit: number): Array<[string, number]> {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const nameOf = new Map(
    profile.nodes.map(({ id, callFrame: { functionName, url, lineNumber } }) => [
      id,
      functionName === "(idle)" ? undefined : `${functionName || "(anonymous)"}${url ? ` (${shortUrl(url)}:${lineNumber + 1})` : ""}`,
    ]),
  );
  const ms = new Map<string, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    const spent = profile.timeDeltas[i + 1] ?? 0;
    const name = nameOf.get(profile.samples[i]);
    if (at < fromUs || at > toUs || name === undefined) continue;
    ms.set(name, (ms.get(name) ?? 0) + spent / 1000);
  }
  return [...ms].sort((a, b) => b[1] - a[1]).slice(0, limit);
}

function shortUrl(url: string): string {
  const checkout = path.resolve(__dirname, "..", "..");
  return url.replace(/^file:\/\//, "").replace(`${checkout}/`, "");
}

/** The newest `.cpuprofile` in `dir`. */
export function newestProfile(dir: string): string {
  const files = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".cpuprofile"))
    .map((file) => path.join(dir, file));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}: the service did not write its profile`);
  return files.reduce((a, b) => (fs.statSync(a).mtimeMs >= fs.statSync(b).mtimeMs ? a : b));
}

/** Now on the monotonic clock of the profile's samples (µs). */
export function monotonicMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
