import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import hre from "hardhat";
import { TASK_COMPILE_SOLIDITY_LOG_COMPILATION_ERRORS } from "hardhat/builtin-tasks/task-names";

interface SolcMessage {
  severity: string;
  errorCode?: string;
  formattedMessage: string;
  sourceLocation?: { file: string };
}

/** What the compile task prints for a solc output, warnings and errors alike. */
async function printed(output: { errors?: SolcMessage[] }): Promise<string[]> {
  const lines: string[] = [];
  const saved = { warn: console.warn, error: console.error, log: console.log };
  console.warn = console.error = console.log = (...args: unknown[]) => lines.push(args.join(" "));
  try {
    await hre.run(TASK_COMPILE_SOLIDITY_LOG_COMPILATION_ERRORS, { output, quiet: true });
  } finally {
    Object.assign(console, saved);
  }
  return lines;
}

describe("compiling the contracts (what `npm start` prints on its first run)", function () {
  const dir = path.join(hre.config.paths.artifacts, "build-info");
  const buildInfos = fs
    .readdirSync(dir)
    .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as { output: { errors?: SolcMessage[] } });

  it("prints nothing for the compiler's own output on our contracts, the transient-storage warning included", async function () {
    // solc does warn: once for the tstore in OpenZeppelin's TransientSlot (under NFTConverter's reentrancy guard).
    const warnings = buildInfos.flatMap(({ output }) => output.errors ?? []);
    expect(warnings.map((w) => `${w.errorCode} ${w.sourceLocation?.file}`)).to.include(
      "2394 @openzeppelin/contracts/utils/TransientSlot.sol",
    );
    for (const { output } of buildInfos) expect(await printed(output)).to.deep.equal([]);
  });

  it("still prints every other warning, and errors, the transient-storage one in a contract of ours included", async function () {
    const warning = (errorCode: string, file: string, severity = "warning") => ({
      severity,
      errorCode,
      formattedMessage: `Warning ${errorCode} in ${file}`,
      sourceLocation: { file },
    });
    const lines = await printed({
      errors: [
        warning("2394", "contracts/NFTConverter.sol"),
        warning("2072", "@openzeppelin/contracts/utils/TransientSlot.sol"),
        warning("2394", "@openzeppelin/contracts/utils/TransientSlot.sol", "error"),
      ],
    });
    expect(lines.map((line) => line.replace(/\u001b\[[\d;]*m/g, ""))).to.deep.equal([
      "Warning 2394 in contracts/NFTConverter.sol",
      "Warning 2072 in @openzeppelin/contracts/utils/TransientSlot.sol",
      "Warning 2394 in @openzeppelin/contracts/utils/TransientSlot.sol",
    ]);
  });
});
