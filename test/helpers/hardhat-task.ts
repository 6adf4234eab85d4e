import { execFile } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const CLI = require.resolve("hardhat/internal/cli/cli.js", { paths: [ROOT] });

export interface TaskRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `hardhat <args>` as its own process, the way a developer does, and collects what it printed. */
export function runHardhat(args: string[], env: Record<string, string>): Promise<TaskRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
