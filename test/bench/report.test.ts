import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { BENCHMARKS_PAGE, benchmarksPage, budgetsLine, PAGE_INTRO, readResults, type SuiteResult } from "../../support/bench-report";

const tags = (date: string, commit: string) => ({
  machine: { cpu: "Test CPU @ 2.0GHz", cores: 2, memoryGiB: 7.8 },
  node: "v20.20.2",
  database: "PostgreSQL 15.8",
  commit,
  date,
});

describe("the benchmarks page (npm run bench:report)", function () {
  it("rewrites the page the README and the docs link to, not a page of its own", function () {
    const linked = fs.readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
    expect(linked).to.include("(docs/reference/benchmarks.md)");
    expect(BENCHMARKS_PAGE).to.equal(path.resolve(__dirname, "../../docs/reference/benchmarks.md"));
    expect(fs.existsSync(BENCHMARKS_PAGE)).to.equal(true);
  });

  it("shows the newest result of each suite, with its budgets and the tags of its run", function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-results-"));
    try {
      const older: SuiteResult = {
        suite: "login",
        tags: tags("2026-11-20T10:00:00.000Z", "aaaa"),
        seconds: 5,
        rows: [{ suite: "login", metric: "full logins/s, 8 clients", value: 100, unit: "/s", budget: { text: "≥ 1.5", met: false } }],
      };
      const newer: SuiteResult = {
        suite: "login",
        tags: tags("2026-11-26T10:00:00.000Z", "bbbb-dirty"),
        seconds: 1,
        method: ["Full logins at 8 clients.", "Server CPU from /proc."],
        load: { start: 0.52, end: 3.25 },
        rows: [
          {
            suite: "login",
            metric: "full logins/s, 8 clients",
            value: 250,
            unit: "/s",
            reference: { label: "before", value: 120 },
            ratio: 250 / 120,
            budget: { text: "≥ 1.5", met: true },
          },
          { suite: "login", metric: "full login p99, 8 clients", value: 70, unit: "ms", budget: { text: "≤ 60 ms", met: false } },
        ],
      };
      fs.writeFileSync(path.join(dir, "login-aaaa-1.json"), JSON.stringify(older));
      fs.writeFileSync(path.join(dir, "login-bbbb-2.json"), JSON.stringify(newer));
      expect(benchmarksPage(readResults(dir))).to.equal(
        [
          ...PAGE_INTRO,
          "## Login",
          "",
          "Full logins at 8 clients.",
          "Server CPU from /proc.",
          "",
          "| metric | value | reference | ratio | budget | met |",
          "| --- | --- | --- | --- | --- | --- |",
          "| full logins/s, 8 clients | 250 /s | 120 /s (before) | 2.08 | ≥ 1.5 | yes |",
          "| full login p99, 8 clients | 70 ms |  |  | ≤ 60 ms | **no** |",
          "",
          "1 of 2 budgets missed.",
          "Measured on 2026-11-26T10:00:00.000Z at commit `bbbb-dirty`, on Test CPU @ 2.0GHz (2 cores, 7.8 GiB), Node v20.20.2, PostgreSQL 15.8, 1 s per load, load average 0.52 at the start and 3.25 at the end.",
          "",
        ].join("\n"),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says how many budgets a run met in words that fit their number", function () {
    const budgets = (...met: boolean[]) => met.map((m) => ({ budget: { text: "≤ 1", met: m } }));
    expect(budgetsLine(budgets())).to.equal("No budget applies to this run.");
    expect(budgetsLine(budgets(true))).to.equal("Its one budget is met.");
    expect(budgetsLine(budgets(false))).to.equal("Its one budget is missed.");
    expect(budgetsLine(budgets(true, true, true))).to.equal("All 3 budgets met.");
    expect(budgetsLine(budgets(true, false, true))).to.equal("1 of 3 budgets missed.");
  });

  it("keeps the section of a suite not run again from the page as it was, and replaces the sections of those run", function () {
    const run = (suite: string, value: number): SuiteResult => ({
      suite,
      tags: tags("2026-11-26T10:00:00.000Z", "cccc"),
      seconds: 5,
      rows: [{ suite, metric: "figure", value, unit: "ms" }],
    });
    const previous = benchmarksPage([run("login", 1), run("scale", 2), run("gas", 3)]);
    const page = benchmarksPage([run("scale", 20), run("migration", 30)], previous);
    const sections = page.split("\n").filter((line) => line.startsWith("## ") || line.startsWith("| figure"));
    expect(sections).to.deep.equal([
      "## Login",
      "| figure | 1 ms |  |  |  |  |",
      "## At scale",
      "| figure | 20 ms |  |  |  |  |",
      "## Moving an index to the compact layout",
      "| figure | 30 ms |  |  |  |  |",
      "## Converter gas",
      "| figure | 3 ms |  |  |  |  |",
    ]);
    // Kept as it was, and the page made again from itself does not change.
    expect(benchmarksPage([], page)).to.equal(page);
  });

  it("says there are no results yet when there are none", function () {
    expect(benchmarksPage([])).to.include("No results yet: run `npm run bench`.");
  });
});
