import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";

const ROOT = path.resolve(__dirname, "..", "..");

/** The TypeScript files under the top-level folder `dir`, relative to the repository. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => path.join(dir, file));
}

/** The top-level folders `file` imports from (relative imports only), e.g. "server", "support". */
function foldersImportedBy(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)"([^"]+)"/gm)].map((match) => match[1]);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), specifier)).split(path.sep)[0]);
}

/** Each file under `dir` that imports from one of the `forbidden` top-level folders, with those folders. */
function offenders(dir: string, forbidden: string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of sources(dir)) {
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
