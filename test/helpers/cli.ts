import { execFile } from "node:child_process";
import path from "node:path";
import type { CliMain } from "../../server/cli/run";

const ROOT = path.resolve(__dirname, "..", "..");

export type CliTool = "client" | "login-keys" | "sign-metadata";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI `server/cli/<tool>.ts` in this process, through the `main` that `npm run <tool>` runs, with `env`
 * over this process's environment. A process per case would cost a second each; `runCliProcess` keeps one real
 * process per tool in the suites.
 */
export async function runCli(tool: CliTool, args: string[], env: Record<string, string>): Promise<CliRun> {
  const { main } = (await import(`../../server/cli/${tool}`)) as { main: CliMain };
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    env: { ...process.env, ...env },
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
  });
  return { code, stdout, stderr };
}

/** Runs the CLI `server/cli/<tool>.ts` as `npm run` does, in its own process. */
export function runCliProcess(tool: CliTool, args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", `server/cli/${tool}.ts`, ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
