import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import packageJson from "../../package.json";
import { SourceImports } from "../helpers/imports";

const ROOT = path.resolve(__dirname, "..", "..");

const graph = new SourceImports(ROOT);

/** The top-level folders `file` imports from (relative imports only), e.g. "server", "support". */
function foldersImportedBy(file: string): string[] {
  return graph.localImportsOf(file).map((target) => target.split(path.sep)[0]);
}

/** Each file under `dir` that imports from one of the `forbidden` top-level folders, with those folders. */
function offenders(dir: string, forbidden: string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of graph.sources(dir)) {
    const bad = foldersImportedBy(file).filter((folder) => forbidden.includes(folder));
    if (bad.length > 0) found[file] = bad;
  }
  return found;
}

/**
 * The homes of executables, one per kind (docs/guides/architecture.md, "Executables"): the service's processes and CLIs
 * (server/), the local setup (local/), build and release tooling (tools/), the benchmarks (bench/) and the fuzz run
 * (test/), the example dApp (examples/). scripts/ holds the converter's Hardhat tasks, which package.json reaches through
 * `hardhat <task>`.
 */
const EXECUTABLE_HOMES = ["bench", "examples", "local", "server", "test", "tools"];

/** The source files package.json's scripts run, by path. */
function filesRunByScripts(): string[] {
  return Object.values(packageJson.scripts).flatMap((script) => [...script.matchAll(/(?:^|\s)([\w./-]+\.ts)\b/g)].map((match) => match[1]));
}

describe("boundaries between bench/, test/, support/ and the product", function () {
  it("reads the imports it checks", function () {
    expect(foldersImportedBy(path.join("test", "helpers", "database.ts"))).to.deep.equal(["support"]);
  });

  it("bench/ and test/ do not import each other: what both use lives in support/", function () {
    expect(offenders("bench", ["test"])).to.deep.equal({});
    expect(offenders("test", ["bench"])).to.deep.equal({});
  });

  it("support/ imports neither bench/ nor test/, and the product none of the three", function () {
    expect(offenders("support", ["bench", "test"])).to.deep.equal({});
    expect(offenders("server", ["bench", "test", "support"])).to.deep.equal({});
  });

  it("the examples use the SDK alone, as a dApp that copies them can", function () {
    expect(graph.sources("examples").length).to.be.above(0);
    expect(offenders("examples", ["bench", "local", "scripts", "server", "support", "test", "tools"])).to.deep.equal({});
  });

  it("package.json's scripts run files only from the homes of executables, and each of them exists", function () {
    const files = filesRunByScripts();
    expect(files).to.include.members(["tools/build-assets.ts", "tools/production-check.ts", "bench/run.ts", "local/start.ts"]);
    expect(files.filter((file) => !EXECUTABLE_HOMES.includes(file.split("/")[0]))).to.deep.equal([]);
    expect(files.filter((file) => !fs.existsSync(path.join(ROOT, file)))).to.deep.equal([]);
  });

  it("tools/ holds entry points only: nothing imports them", function () {
    const importers = ["bench", "local", "scripts", "server", "support", "test", "tools"].flatMap((dir) =>
      Object.keys(offenders(dir, ["tools"])),
    );
    expect(importers).to.deep.equal([]);
  });
});
