import path from "node:path";
import { expect } from "chai";
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
});
