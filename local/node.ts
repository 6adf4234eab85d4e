import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** A Hardhat node running as a child process, reached over JSON-RPC HTTP. */
export interface LocalNode {
  url: string;
  chainId: number;
  process: ChildProcess;
  /** Stops the node and waits for the process to exit. Safe to call twice. */
  stop(): Promise<void>;
}

export interface LocalNodeOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Project root holding hardhat.config.ts (default: the repository root). */
  cwd?: string;
  /** How long to wait for the node to listen. */
  startTimeoutMs?: number;
}

const ROOT = path.resolve(__dirname, "..");
const LISTENING = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/[^\s/]+)\//;
const live = new Set<ChildProcess>();

// A node must never outlive the process that started it (Ctrl-C, a failed test run, a crash).
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/** Starts `hardhat node` (chain id 31337) on 127.0.0.1 and resolves once it accepts JSON-RPC. */
export async function startLocalNode(options: LocalNodeOptions = {}): Promise<LocalNode> {
  const cwd = options.cwd ?? ROOT;
  const cli = require.resolve("hardhat/internal/cli/cli.js", { paths: [cwd] });
  const child = spawn(
    process.execPath,
    [cli, "node", "--hostname", "127.0.0.1", "--port", String(options.port ?? 0)],
    // Its own process group, so a terminal's Ctrl-C reaches our shutdown code first and we stop it in order.
    { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true, env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" } },
  );
  live.add(child);
  child.once("exit", () => live.delete(child));

  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => fail(new Error(`hardhat node did not start within ${options.startTimeoutMs ?? 60_000} ms:\n${output}`)),
      options.startTimeoutMs ?? 60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (match) {
        cleanup();
        resolve(match[1]);
      }
    };
    const onExit = (code: number | null) => fail(new Error(`hardhat node exited with ${code} before listening:\n${output}`));
    function cleanup() {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.stderr!.off("data", onData);
      child.off("exit", onExit);
    }
    function fail(error: Error) {
      cleanup();
      child.kill("SIGKILL");
      reject(error);
    }
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", onExit);
  });
  // The node logs every request; nobody reads it, so drain it instead of letting the pipe fill up.
  child.stdout!.resume();
  child.stderr!.resume();

  let stopped: Promise<void> | undefined;
  return {
    url,
    chainId: 31337,
    process: child,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      });
      return stopped;
    },
  };
}
