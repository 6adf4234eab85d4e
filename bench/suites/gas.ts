import os from "node:os";
import path from "node:path";
import { ethers } from "hardhat";
import { writeResult, type Row } from "../../support/bench-report";
import { measureConverterGas, type GasFigure } from "../../support/converter-gas";
import { runTags } from "../lib/tags";

const METHOD = [
  "`npm run bench:gas` measures the converter on Hardhat's in-process network; the tests compare the same figures with the snapshots in `test/contracts/__snapshots__/NFTConverter.gas.json` (`UPDATE_SNAPSHOTS=true npm test` accepts a change).",
  "The floor of a conversion is what the two plain transfers would cost alone, measured in the same run: an Alice `safeTransferFrom` by a holder of one token into an existing holder, plus a Bob `transferFrom` to a first-time holder, minus one 21,000 base.",
  "The predecessor's figures come from `contracts/test/LegacyERC721Converter.sol`, its logic re-expressed in Solidity 0.8 for measurement.",
];

/** The figures as rows of the benchmarks page: gas against the floor, and the budget where there is one. */
export function gasRows(figures: GasFigure[]): Row[] {
  return figures.map((f) => ({
    suite: "gas",
    metric: f.name,
    value: f.gas,
    unit: "gas",
    ...(f.floor === undefined ? {} : { reference: { label: "floor", value: f.floor }, ratio: f.gas / f.floor }),
    ...(f.budget === undefined ? {} : { budget: { text: `≤ ${f.budget.toLocaleString("en-US")}`, met: f.gas <= f.budget } }),
  }));
}

/** `npm run bench:gas`: converter gas beside its floor, on Hardhat's in-process network. */
export function printGasTable(figures: GasFigure[], out: (line: string) => void = console.log): void {
  const rows = figures.map((f) => [
    f.name,
    f.gas.toLocaleString("en-US"),
    f.floor === undefined ? "" : f.floor.toLocaleString("en-US"),
    f.floor === undefined ? "" : (f.gas / f.floor).toFixed(3),
    f.budget === undefined ? "" : `≤ ${f.budget.toLocaleString("en-US")} ${f.gas <= f.budget ? "✓" : "✗ MISSED"}`,
  ]);
  const header = ["scenario", "gas", "floor", "ratio", "budget"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  out(line(header));
  out(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of rows) out(line(row));
}

async function main() {
  const loadAtStart = os.loadavg()[0];
  const figures = await measureConverterGas(await ethers.getSigners());
  printGasTable(figures);
  // The smoke of `npm run bench -- --smoke` shows that the suite runs: nothing written, no budget judged.
  if (process.env.BENCH_SMOKE === "1") return;
  const tags = { ...(await runTags(undefined)), database: "no database (Hardhat's in-process network)" };
  const load = { start: loadAtStart, end: os.loadavg()[0] };
  const file = writeResult({ suite: "gas", tags, seconds: 0, method: METHOD, load, rows: gasRows(figures) });
  console.error(`written to ${path.relative(process.cwd(), file)}`);
  if (figures.some((f) => f.budget !== undefined && f.gas > f.budget)) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
