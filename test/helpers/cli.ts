import { execFile, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { CliMain } from "../../server/cli/run";

const ROOT = path.resolve(__dirname, "..", "..");

export type CliTool = "client" | "login-keys" | "sign-metadata" | "webhooks";

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
  return runNodeProcess(["-r", "ts-node/register/transpile-only", `server/cli/${tool}.ts`, ...args], env);
}

/** Runs node with `args` in the repository's root, with `env` over this process's environment, until it exits. */
export function runNodeProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A node process started by {@link startNodeProcess}, running. */
export interface RunningProcess {
  child: ChildProcess;
  /** Its stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves with the first match of `pattern` in its output from now on (or its exit, rejecting). */
  until(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/**
 * Starts node with `args` in the repository's root, with `env` alone as its environment (PATH and HOME added), and
 * resolves once its output matches `ready`; rejects if it exits before or takes longer than `timeoutMs`.
 */
export function startNodeProcess(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 60_000): Promise<RunningProcess> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env },
    // stdin open: a child may wait on it to be told when to act or to stop.
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const until = (pattern: RegExp) => {
    const from = output.length;
    return new Promise<RegExpMatchArray>((resolve, reject) => {
      const read = () => {
        const match = pattern.exec(output.slice(from));
        if (!match) return;
        child.stdout!.off("data", read);
        resolve(match);
      };
      child.stdout!.on("data", read);
      void exited.then((code) => reject(new Error(`exited with ${code} before printing ${pattern}:\n${output}`)));
    });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")}: no output matching ${ready} within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output, until, exited });
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited with ${code} before it was ready:\n${output}`));
    });
  });
}
