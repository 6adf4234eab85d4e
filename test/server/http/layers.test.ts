import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";

const SERVER = path.resolve(__dirname, "..", "..", "..", "server");

/** The TypeScript files under `dir` (relative to server/), recursively. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(SERVER, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => path.join(dir, file));
}

/** What `file` (relative to server/) imports: relative imports resolved to paths relative to server/, packages by name. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(SERVER, file), "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)"([^"]+)"/gm)].map((match) => match[1]);
  return specifiers.map((specifier) =>
    specifier.startsWith(".") ? path.relative(SERVER, path.resolve(path.dirname(path.join(SERVER, file)), specifier)) : specifier,
  );
}

/** Each file of `files` that imports something `forbidden` accepts, with what it imports. */
function offenders(files: string[], forbidden: (target: string) => boolean): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of files) {
    const bad = importsOf(file).filter(forbidden);
    if (bad.length > 0) found[file] = bad;
  }
  return found;
}

const under = (dir: string) => (target: string) => target === dir || target.startsWith(`${dir}${path.sep}`);

describe("layers (which module may import which)", function () {
  it("reads the imports it checks", function () {
    expect(importsOf(path.join("http", "errors.ts"))).to.include.members([
      "fastify",
      path.join("lib", "domain-error"),
      path.join("http", "http-error"),
    ]);
  });

  it("the HTTP layer imports nothing from the chain layer, and the chain layer nothing from the HTTP layer", function () {
    expect(offenders(sources("http"), under("chain"))).to.deep.equal({});
    expect(offenders(sources("chain"), under("http"))).to.deep.equal({});
  });

  it("the metadata domain modules know neither HTTP nor Fastify", function () {
    const domain = ["store.ts", "body.ts", "proof.ts", "errors.ts", "statement-json.ts", "served.ts", "index.ts"].map((file) =>
      path.join("metadata", file),
    );
    expect(offenders(domain, (target) => under("http")(target) || /fastify/.test(target))).to.deep.equal({});
  });
});
