import { spawn } from "node:child_process";
import path from "node:path";
import { expect } from "chai";
import { START_NODE_ARGS } from "../../../local/start-command";
import { assertPatched, loadOidcLibrary, UnpatchedLibraryError } from "../../../server/auth/oidc";
import {
  UNPATCHED_OIDC_PROVIDER,
  UNPATCHED_PRELOAD,
  unpatchedOidcProvider,
  type UnpatchedCopy,
} from "../../helpers/unpatched-oidc-provider";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const MESSAGE =
  "oidc-provider is installed without its patch (patches/oidc-provider+*.patch), which an install with --ignore-scripts skips: run `npx patch-package`, then start again";

/**
 * The service refuses an oidc-provider installed without patches/ (`npm ci --ignore-scripts` skips patch-package),
 * in one line saying how to fix it (docs/reference/oidc-provider.md).
 */
describe("oidc-provider installed without its patch", function () {
  this.timeout(60_000);
  let copy: UnpatchedCopy;

  before(() => (copy = unpatchedOidcProvider()));
  after(() => copy.remove());

  it("passes the installed library", async function () {
    const library = await loadOidcLibrary();
    expect(() => assertPatched(library.Provider)).not.to.throw();
  });

  it("refuses a copy of it without the patch, in one line saying to run npx patch-package", async function () {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const unpatched = require(copy.entry) as Awaited<ReturnType<typeof loadOidcLibrary>>;
    expect(unpatched.Provider).not.to.equal((await loadOidcLibrary()).Provider);
    expect(() => assertPatched(unpatched.Provider))
      .to.throw(UnpatchedLibraryError)
      .with.property("message", MESSAGE);
  });

  it("npm start stops with that line, exit code 1, before it starts anything", async function () {
    const args = [...START_NODE_ARGS.slice(0, -1), "-r", UNPATCHED_PRELOAD, START_NODE_ARGS.at(-1)!];
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME!, PORT: "0", LOCAL_CHAIN_PORT: "0", [UNPATCHED_OIDC_PROVIDER]: copy.entry },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code, stderr).to.equal(1);
    // oidc-provider's own warnings as it loads (e.g. of an unsupported Node version) aside.
    const lines = stderr.split("\n").filter((line) => line !== "" && !line.startsWith("oidc-provider WARNING:"));
    expect(lines).to.deep.equal([MESSAGE]);
    expect(stdout, "no local chain, no demo").to.equal("");
  });
});
