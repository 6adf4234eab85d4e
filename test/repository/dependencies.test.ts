import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { expect } from "chai";
import packageJson from "../../package.json";
import { SourceImports } from "../helpers/imports";

const ROOT = path.resolve(__dirname, "..", "..");

const graph = new SourceImports(ROOT);

/** The package a specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

const isBuiltin = (specifier: string) => specifier.startsWith("node:") || builtinModules.includes(packageOf(specifier));

/** The packages the product imports when it runs: the service, the standalone indexer and the CLIs (all of server/). */
function runtimePackages(): Set<string> {
  const found = new Set<string>();
  for (const file of graph.sources("server")) {
    for (const target of graph.importsOf(file)) {
      // Relative imports were resolved to paths from the root; what is left is a package or a builtin.
      if (!target.startsWith("server") && !target.startsWith("typechain-types") && !isBuiltin(target)) found.add(packageOf(target));
    }
  }
  return found;
}

/** Needed by an install, not by an import: `postinstall` applies patches/ in production installs too. */
const INSTALL_TIME = ["patch-package"];

describe("dependencies (what production installs)", function () {
  const dependencies = Object.keys(packageJson.dependencies);
  const devDependencies = Object.keys(packageJson.devDependencies);

  it("reads the packages it checks", function () {
    expect([...runtimePackages()]).to.include.members(["fastify", "ethers", "@fastify/type-provider-typebox"]);
  });

  it("the product imports only dependencies, never a devDependency (npm ci --omit=dev leaves them out)", function () {
    const missing = [...runtimePackages()].filter((name) => !dependencies.includes(name)).sort();
    expect(missing).to.deep.equal([]);
  });

  it("each dependency is imported by the product, or needed at install", function () {
    const runtime = runtimePackages();
    const unused = dependencies.filter((name) => !runtime.has(name) && !INSTALL_TIME.includes(name)).sort();
    expect(unused).to.deep.equal([]);
  });

  it("the build-time tools are devDependencies: the contracts' compiler and libraries", function () {
    expect(devDependencies).to.include.members(["solc", "@openzeppelin/contracts", "hardhat"]);
    expect(dependencies).to.include("patch-package");
    expect(packageJson.scripts.postinstall).to.equal("patch-package");
  });

  it("names every package with an install script in allowScripts, so that npm ci asks about none", function () {
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([where, entry]) => where !== "" && entry.hasInstallScript)
      .map(([where]) => where.split("node_modules/").at(-1)!);
    expect(withScripts).to.include.members(["keccak", "secp256k1"]);
    expect(Object.keys(packageJson.allowScripts)).to.include.members(withScripts);
  });
});
