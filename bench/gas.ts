import { ethers } from "hardhat";
import { measureConverterGas, type GasFigure } from "../support/converter-gas";

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
  const figures = await measureConverterGas(await ethers.getSigners());
  printGasTable(figures);
  if (figures.some((f) => f.budget !== undefined && f.gas > f.budget)) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
