import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * `npm run check:prod`: what production runs, checked as production installs it. Builds (`npm run build`), copies
 * the build with package.json, the lock file and patches/ to a temporary folder, installs the production
 * dependencies only there (`npm ci --omit=dev`, which applies the patches), then starts the service
 * (`npm run start:prod`) and asks for /health, and runs the standalone indexer's and the CLIs' entries. A module that
 * needs a devDependency (Hardhat, ts-node, Sucrase…) or a file the build did not copy fails here.
 */
const ROOT = path.resolve(__dirname, "..");
/** The whole check's bound: a build, a production install and two starts on an embedded database. */
const START_TIMEOUT_MS = 120_000;

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  console.log(`$ ${command} ${args.join(" ")}  (in ${cwd})`);
  const result = spawnSync(command, args, { cwd, env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
}

/** The environment of a production process: no local chain (it needs Hardhat), a node that need not answer, no indexer in the service. */
function productionEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    RPC_URL_MAINNET: "http://127.0.0.1:9",
    INDEXER: "false",
    PORT: "0",
    METRICS_PORT: "0",
    DATA_DIR: path.join(dir, ".data"),
  };
}

/** Starts `args` and resolves with the first line of its output that `pattern` matches. */
function startUntil(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(args[0], args.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")} printed no line matching ${pattern} within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited with ${code} before it was ready:\n${output}`));
    });
  });
}

/** Stops `child` with SIGTERM and resolves with its exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.on("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

async function main(): Promise<void> {
  run("npm", ["run", "build"], ROOT);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "production-check-"));
  try {
    for (const entry of ["package.json", "package-lock.json", "patches", "dist"]) {
      fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
    }
    run("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund"], dir);
    for (const tool of ["hardhat", "ts-node", "sucrase", "typescript", "solc"]) {
      if (fs.existsSync(path.join(dir, "node_modules", tool))) throw new Error(`the production install has ${tool}, a devDependency`);
    }
    const env = productionEnv(dir);

    // `npm run start:prod` itself, without npm in between: npm would answer SIGTERM with a signal, not the service's exit code.
    const startProd = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).scripts["start:prod"].split(" ");
    const service = await startUntil(startProd, dir, env, /Server listening at (http:\/\/[^"\s]+)/);
    const health = await fetch(`${service.match[1]}/health`);
    const body = await health.text();
    const code = await stop(service.child);
    if (health.status !== 200) throw new Error(`/health answered ${health.status}: ${body}`);
    if (code !== 0) throw new Error(`the service exited with ${code} on SIGTERM`);
    console.log(`the service started from dist/ with production dependencies only: /health ${health.status} ${body}`);

    const indexer = await startUntil(["node", "dist/server/indexer/main.js"], dir, env, /"msg":"indexer started"/);
    await stop(indexer.child);
    console.log("the standalone indexer started from dist/");

    for (const cli of fs.readdirSync(path.join(dir, "dist", "server", "cli")).filter((file) => file.endsWith(".js"))) {
      if (cli === "run.js" || cli === "config-docs.js") continue; // the CLIs' skeleton, and a tool of the repository's docs
      run("node", [path.join("dist", "server", "cli", cli), "--help"], dir, env);
    }
    console.log("production check passed");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
