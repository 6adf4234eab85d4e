import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";

/**
 * Gas kept in a committed JSON file, as Uniswap v3's snapshotGasCost does with Jest snapshots: a change in gas
 * shows in the diff of that file. `UPDATE_SNAPSHOTS=true` rewrites the entries; otherwise a figure that differs
 * fails, and under CI an entry missing from the file fails too (locally it is added).
 */
export class GasSnapshot {
  private readonly entries: Record<string, number>;
  private dirty = false;

  constructor(private readonly file: string) {
    this.entries = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  }

  check(name: string, gas: number): void {
    const recorded = this.entries[name];
    if (recorded === gas) return;
    const update = process.env.UPDATE_SNAPSHOTS === "true";
    if (recorded === undefined && process.env.CI === "true" && !update) {
      expect.fail(`gas snapshot "${name}" is missing from ${path.basename(this.file)}: run UPDATE_SNAPSHOTS=true npm test and commit it`);
    }
    if (recorded !== undefined && !update) {
      expect.fail(
        `gas of "${name}" changed: ${recorded} → ${gas} (${gas - recorded > 0 ? "+" : ""}${gas - recorded}); UPDATE_SNAPSHOTS=true to accept`,
      );
    }
    this.entries[name] = gas;
    this.dirty = true;
  }

  /**
   * Fails unless something was measured and every figure the file holds was measured again: a measurement that
   * silently stopped (an empty list, a renamed step) must not pass as "no change".
   */
  checkComplete(measured: string[]): void {
    expect(measured.length, "no gas figure was measured").to.be.above(0);
    const stale = Object.keys(this.entries).filter((name) => !measured.includes(name));
    if (stale.length > 0 && process.env.UPDATE_SNAPSHOTS === "true") {
      for (const name of stale) delete this.entries[name];
      this.dirty = true;
      return;
    }
    expect(stale, `gas snapshot entries no longer measured (UPDATE_SNAPSHOTS=true removes them)`).to.deep.equal([]);
  }

  /** Writes new or accepted figures back (call in `after`). */
  save(): void {
    if (!this.dirty) return;
    const sorted = Object.fromEntries(Object.entries(this.entries).sort(([a], [b]) => a.localeCompare(b)));
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(this.file, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
