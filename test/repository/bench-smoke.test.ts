import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";

const ROOT = path.resolve(__dirname, "..", "..");

describe("the benchmark smoke: CI runs every bench suite", function () {
  it("`npm run bench -- --smoke` runs every file of bench/suites/", function () {
    this.timeout(60_000);
    // The runner's own list: what it would run, after its check that each suite file is one of its suites.
    const listed = spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "bench/run.ts", "--smoke", "--list"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(listed.status, listed.stderr).to.equal(0);
    const suites = fs.readdirSync(path.join(ROOT, "bench", "suites")).map((file) => path.basename(file, ".ts"));
    expect(listed.stdout.trim().split("\n").sort()).to.deep.equal(suites.sort());
  });

  it("`.ci/run` runs the smoke on PostgreSQL, after the tests", function () {
    const lines = fs.readFileSync(path.join(ROOT, ".ci", "run"), "utf8").split("\n");
    const smoke = lines.find((line) => !line.trimStart().startsWith("#") && line.includes("npm run bench -- --smoke"));
    expect(smoke, "a line of .ci/run runs `npm run bench -- --smoke`").to.not.equal(undefined);
    expect(smoke).to.include("DATABASE_URL=");
  });
});
