import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { BenchContext } from "./suite";

/**
 * The last commit that still had the code the login and metadata suites compare against (ethers' JavaScript
 * secp256k1 with the node asked first, and the login path of one statement per record), behind the switches it had
 * then: `SIGNATURES=ethers` and `LOGIN_PATH=legacy`. The product lost them after it; `BEFORE_ENV` turns them on
 * there, and a later ref ignores them.
 */
export const DEFAULT_BEFORE_REF = "fbb64a4b4e866bd45d13b885f32b2979b65506ec";
export const BEFORE_ENV = { SIGNATURES: "ethers", LOGIN_PATH: "legacy" };

const ROOT = path.resolve(__dirname, "..", "..");

const git = (args: string[], cwd = ROOT) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/**
 * Runs `fn` with a checkout of `ref` beside this tree (a detached `git worktree` in a temporary directory next to it),
 * compiled, and removes it afterwards. Its node_modules is a symlink to this tree's when both have the same
 * package-lock.json (seconds instead of a minute of `npm ci`, and the same dependencies measured on both sides), else
 * `npm ci` runs there. In the smoke, `fn` gets this tree: checking out and compiling a ref would take most of its time,
 * and the suite's own steps run the same on either tree.
 */
export async function withBeforeTree<T>(
  ref: string,
  { log, smoke }: Pick<BenchContext, "log" | "smoke">,
  fn: (tree: string) => Promise<T>,
): Promise<T> {
  if (smoke) return fn(ROOT);
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const tree = fs.mkdtempSync(path.join(path.dirname(ROOT), `${path.basename(ROOT)}-before-`));
  log(`checking out ${ref} (${commit.slice(0, 12)}) in ${tree}`);
  git(["worktree", "add", "--detach", "--force", tree, commit]);
  try {
    const lock = (dir: string) => fs.readFileSync(path.join(dir, "package-lock.json"), "utf8");
    if (lock(tree) === lock(ROOT)) {
      fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"), "dir");
    } else {
      log("its package-lock.json differs: npm ci there");
      execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: tree, stdio: "inherit" });
    }
    execFileSync("npx", ["hardhat", "compile", "--quiet"], { cwd: tree, stdio: "inherit" });
    return await fn(tree);
  } finally {
    git(["worktree", "remove", "--force", tree]);
    fs.rmSync(tree, { recursive: true, force: true });
  }
}

/**
 * A module of `tree` (a path from the repository root, e.g. `server/auth/clients`), or of this tree without one: what
 * writes to a database must be the code of the tree whose migrations made it (a later column is not there before).
 */
export function moduleOf<T>(tree: string | undefined, modulePath: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path known at run time, compiled by ts-node
  return require(path.join(tree ?? ROOT, modulePath)) as T;
}

/** The ref named by `--before <ref>` in `args`, else the default; `args` without those two. */
export function beforeRefOf(args: string[]): { ref: string; rest: string[] } {
  const at = args.indexOf("--before");
  if (at === -1) return { ref: DEFAULT_BEFORE_REF, rest: args };
  if (at + 1 >= args.length) throw new Error("--before needs a git ref");
  return { ref: args[at + 1], rest: [...args.slice(0, at), ...args.slice(at + 2)] };
}
