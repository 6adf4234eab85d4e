import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import packageJson from "../../package.json";
import { START_NODE_ARGS } from "../../local/start-command";

const ROOT = path.resolve(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** `^22.12.0 || ^24.0.0` → [{ major: 22, minor: 12 }, { major: 24, minor: 0 }]: the only form engines is written in. */
function supportedMajors(engines: string): { major: number; minor: number }[] {
  return engines.split("||").map((range) => {
    const match = /^\s*\^(\d+)\.(\d+)\.0\s*$/.exec(range);
    if (!match) throw new Error(`engines.node "${engines}": write each range as ^MAJOR.MINOR.0`);
    return { major: Number(match[1]), minor: Number(match[2]) };
  });
}

/** How the README and docs say the versions: "22.12+ or 24". */
function spoken(majors: { major: number; minor: number }[]): string {
  const named = majors.map(({ major, minor }) => (minor > 0 ? `${major}.${minor}+` : `${major}`));
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} or ${named[named.length - 1]}`;
}

describe("supported Node versions: engines, the runtime, CI and the docs agree", function () {
  const majors = supportedMajors(packageJson.engines.node);

  it("supports only majors that are LTS releases (even numbers) and this process runs on one of them", function () {
    expect(majors.every(({ major }) => major % 2 === 0)).to.equal(true);
    const [major, minor] = process.versions.node.split(".").map(Number);
    const supported = majors.find((range) => range.major === major);
    expect(supported, `Node ${process.version} is not among ${packageJson.engines.node}`).to.not.equal(undefined);
    expect(minor).to.be.at.least(supported!.minor);
  });

  it("oidc-provider, which the service loads at start, prints no runtime warning on this Node", function () {
    this.timeout(20_000);
    // Its check runs when its module is first evaluated and warns on stderr: a fresh process sees it.
    const load = (before = "") =>
      spawnSync(process.execPath, ["--input-type=module", "-e", `${before}await import('oidc-provider')`], { cwd: ROOT, encoding: "utf8" });
    const plain = load();
    expect(plain.status).to.equal(0);
    expect(plain.stderr).to.equal("");
    // The same probe on a release without an LTS name, as the npm registry's Node 26 is: the warning shows, so the check above can fail.
    const notLts = load("Object.defineProperty(process, 'release', { value: { ...process.release, lts: undefined } });");
    expect(notLts.stderr).to.include("Unsupported runtime");
  });

  it("CI runs the suite on each supported major, installed from the npm registry", function () {
    const installed = [...read(".ci/run").matchAll(/^install_node (\d+)$/gm)].map((match) => Number(match[1]));
    expect(installed.sort()).to.deep.equal(majors.map(({ major }) => major).sort());
  });

  it("the README, getting-started and CONTRIBUTING name the same versions", function () {
    const versions = spoken(majors);
    expect(read("README.md")).to.include(`Node (${versions})`);
    expect(read("docs/guides/getting-started.md")).to.include(`Node (${versions};`);
    expect(read("CONTRIBUTING.md")).to.include(`Code runs on Node ${majors.map(({ major }) => major).join(" and ")}.`);
  });

  it("the Node types are those of the oldest supported major", function () {
    expect(packageJson.devDependencies["@types/node"].split(".")[0]).to.equal(String(majors[0].major));
  });
});

/**
 * The benchmarks start the service as `npm start` does (START_NODE_ARGS), so production must give node the same
 * options: a larger young generation costs a login less CPU (docs/reference/login.md).
 */
describe("the node options the service runs with", function () {
  const options = (args: string[]) => args.filter((arg) => arg.startsWith("--"));

  it("are the same in production (npm run start:prod) as in npm start, which the benchmarks measure", function () {
    expect(options(START_NODE_ARGS)).to.not.deep.equal([]);
    expect(options(packageJson.scripts["start:prod"].split(" ").slice(1))).to.deep.equal(options(START_NODE_ARGS));
  });
});
