import type { Sample } from "./soak-verdict";

const WIDTH = 900;
const PANEL = 190;
const LEFT = 60;
const RIGHT = 200;
const TOP = 30;
const GAP = 40;
const COLOURS = [
  "#1f77b4",
  "#d62728",
  "#2ca02c",
  "#ff7f0e",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#17becf",
  "#393b79",
  "#637939",
];

interface Series {
  label: string;
  values: number[];
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** One panel: its series over the samples' times, linear or log y, the warm-up's end and the restart's windows marked. */
function panel(options: {
  title: string;
  unit: string;
  series: Series[];
  ts: number[];
  top: number;
  log?: boolean;
  warmup: number;
  /** The windows the restart overlaps, as [start, end] seconds. */
  restarts: Array<[number, number]>;
}): string {
  const { ts, top } = options;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const tMax = Math.max(...ts, 1);
  const all = options.series.flatMap((s) => s.values).filter((v) => Number.isFinite(v) && (!options.log || v > 0));
  const lo = options.log ? Math.log10(Math.max(Math.min(...all, 1), 0.1)) : 0;
  const hiRaw = options.log ? Math.log10(Math.max(...all, 1)) : Math.max(...all, 1);
  const hi = hiRaw === lo ? lo + 1 : hiRaw * (options.log ? 1 : 1.1);
  const x = (t: number) => LEFT + (t / tMax) * plotWidth;
  const y = (v: number) => top + PANEL - (((options.log ? Math.log10(Math.max(v, 0.1)) : v) - lo) / (hi - lo)) * PANEL;
  const parts = [
    `<text x="${LEFT}" y="${top - 8}" font-weight="bold">${escape(options.title)}</text>`,
    `<rect x="${LEFT}" y="${top}" width="${plotWidth}" height="${PANEL}" fill="none" stroke="#999"/>`,
  ];
  for (const [from, to] of options.restarts) {
    parts.push(
      `<rect x="${x(from)}" y="${top}" width="${x(to) - x(from)}" height="${PANEL}" fill="#f4b6b6"><title>PostgreSQL restart</title></rect>`,
    );
  }
  if (options.warmup > 0 && options.warmup < tMax) {
    parts.push(
      `<line x1="${x(options.warmup)}" y1="${top}" x2="${x(options.warmup)}" y2="${top + PANEL}" stroke="#555" stroke-dasharray="4 3"/>`,
    );
  }
  for (let i = 0; i <= 4; i++) {
    const value = options.log ? 10 ** (lo + ((hi - lo) * i) / 4) : (hi * i) / 4;
    const label = value >= 100 ? Math.round(value).toString() : Number(value.toPrecision(2)).toString();
    parts.push(`<text x="${LEFT - 6}" y="${y(value) + 4}" text-anchor="end" font-size="11">${label}</text>`);
  }
  // Time along the bottom, a tick at each sixth of the run: minutes once the run is long enough.
  for (let i = 0; i <= 6; i++) {
    const t = (tMax * i) / 6;
    const label = tMax >= 360 ? `${Math.round(t / 60)} min` : `${Math.round(t)} s`;
    parts.push(`<text x="${x(t)}" y="${top + PANEL + 14}" text-anchor="middle" font-size="10" fill="#555">${label}</text>`);
  }
  parts.push(
    `<text x="${LEFT - 45}" y="${top + PANEL / 2}" font-size="11" transform="rotate(-90 ${LEFT - 45} ${top + PANEL / 2})">${escape(options.unit)}</text>`,
  );
  // The legend fits beside its panel and the gap below it, however many families there are.
  const legendStep = Math.min(14, (PANEL + GAP - 10) / Math.max(1, options.series.length));
  options.series.forEach((series, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = series.values
      .map((v, j) => (Number.isFinite(v) ? `${x(ts[j]).toFixed(1)},${y(v).toFixed(1)}` : ""))
      .filter(Boolean)
      .join(" ");
    parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${points}"/>`);
    parts.push(
      `<text x="${WIDTH - RIGHT + 10}" y="${top + 12 + i * legendStep}" font-size="${Math.min(11, legendStep)}" fill="${colour}">${escape(series.label)}</text>`,
    );
  });
  return parts.join("\n");
}

/** The label of each figure of a sample drawn as a line of its own. */
const LABELS = {
  rssMiB: "RSS",
  heapUsedMiB: "heap used",
  liveRssMiB: "RSS after a full GC",
  liveHeapMiB: "heap after a full GC",
  eventLoopP99Ms: "event-loop p99 (ms)",
  load1: "load average (1 min)",
  sockets: "sockets",
  handles: "handles",
  databaseConnections: "database connections",
} satisfies Partial<Record<keyof Sample, string>>;

/** The run's samples drawn as an SVG: memory, event loop and load, p99 per route family, sockets and connections. */
export function drawSamples(samples: Sample[], options: { title: string; warmupSeconds: number }): string {
  const ts = samples.map((s) => s.t);
  const restarts = samples.flatMap((s, i) => (s.restart ? [[i > 0 ? samples[i - 1].t : 0, s.t] as [number, number]] : []));
  const families = [...new Set(samples.flatMap((s) => Object.keys(s.p99)))].sort();
  const lines = (figures: Array<keyof typeof LABELS>): Series[] =>
    figures.map((figure) => ({ label: LABELS[figure], values: samples.map((s) => s[figure]) }));
  const specs: Array<{ title: string; unit: string; log?: boolean; series: Series[] }> = [
    { title: "Service memory", unit: "MiB", series: lines(["rssMiB", "heapUsedMiB", "liveRssMiB", "liveHeapMiB"]) },
    { title: "Event-loop delay p99 and the machine's load", unit: "ms / load", series: lines(["eventLoopP99Ms", "load1"]) },
    {
      title: "p99 per route family (log scale)",
      unit: "ms",
      log: true,
      series: families.map((family) => ({ label: family, values: samples.map((s) => s.p99[family]?.p99 ?? NaN) })),
    },
    { title: "Open sockets, handles, database connections", unit: "count", series: lines(["sockets", "handles", "databaseConnections"]) },
  ];
  const panels = specs.map((spec, i) => panel({ ...spec, ts, warmup: options.warmupSeconds, restarts, top: TOP + 40 + i * (PANEL + GAP) }));
  const height = TOP + 40 + specs.length * (PANEL + GAP) + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${LEFT}" y="${TOP - 6}" font-size="14" font-weight="bold">${escape(options.title)}</text>`,
    `<text x="${LEFT}" y="${TOP + 10}" font-size="11" fill="#555">x: time since the load started; dashed: end of the warm-up; red: the PostgreSQL restart</text>`,
    ...panels,
    `</svg>`,
    "",
  ].join("\n");
}
