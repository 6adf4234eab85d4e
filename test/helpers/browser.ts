import { accessSync, constants, existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { DatabaseInUse } from "../../server/db/errors";
import { lockDataDir } from "../../server/db/pglite-lock";
import { pollUntil } from "./waiters";

/**
 * The one way browser tests get a headless Chromium, so that `npm ci && npm test` needs nothing else on the
 * machine. In order: `CHROMIUM_PATH`; a Chromium or Chrome installed on the system; the Chromium that the
 * `@sparticuz/chromium` devDependency carries inside its npm package (Linux x64 only), unpacked to the temp
 * directory at first use.
 */

export type BrowserSource = "CHROMIUM_PATH" | "system" | "npm";

export interface BrowserChoice {
  source: BrowserSource;
  executablePath: string;
  args: string[];
}

/** The flags every browser test runs with, whatever the binary. */
const COMMON_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const SYSTEM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];
const SYSTEM_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  darwin: ["/Applications/Chromium.app/Contents/MacOS/Chromium", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"],
  win32: [
    `${process.env.PROGRAMFILES ?? "C:\\Program Files"}\\Google\\Chrome\\Application\\chrome.exe`,
    `${process.env["PROGRAMFILES(X86)"] ?? "C:\\Program Files (x86)"}\\Google\\Chrome\\Application\\chrome.exe`,
    `${process.env.LOCALAPPDATA ?? ""}\\Chromium\\Application\\chrome.exe`,
  ],
};

function isExecutable(file: string): boolean {
  try {
    accessSync(file, process.platform === "win32" ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A Chromium or Chrome of the system: the usual install paths, then the usual names on PATH. */
export function findSystemBrowser(): string | undefined {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  const onPath = SYSTEM_NAMES.flatMap((name) => dirs.map((dir) => path.join(dir, process.platform === "win32" ? `${name}.exe` : name)));
  return [...(SYSTEM_PATHS[process.platform] ?? []), ...onPath].find(isExecutable);
}

/**
 * Flags of the npm Chromium's recommendations that would change what the tests observe or break Playwright:
 * browser contexts need more than one process, and the tests exercise the page's real security rules.
 */
const NPM_ARGS_LEFT_OUT = new Set([
  "--single-process",
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--disable-site-isolation-trials",
]);

let npmBrowser: Promise<BrowserChoice> | undefined;

/** How long a process waits for another's unpack. */
const UNPACK_WAIT_MS = 180_000;

/**
 * The package unpacks into the temp directory and reuses any `chromium` file it finds there: the processes of
 * `hardhat test --parallel` that start together would run a binary another is still writing (ETXTBSY), and a run
 * killed mid-unpack would leave a half-written one for good. So one process at a time unpacks, under the project's lock
 * between processes (`lockDataDir`: a file beside the path, taken over from a holder that died), and a marker written
 * after a whole unpack, with the binary beside it, is what says the files can be used: a temp cleaner may remove the
 * one and not the other.
 */
async function unpackedOnce(unpack: () => Promise<string>): Promise<string> {
  const binary = path.join(tmpdir(), "chromium");
  const ready = `${binary}.unpacked`;
  const unpacked = () => existsSync(ready) && existsSync(binary);
  await pollUntil(
    "the npm-delivered Chromium's first unpack, by this test process or another",
    async () => {
      if (unpacked()) return true;
      let release: () => void;
      try {
        release = lockDataDir(binary);
      } catch (error) {
        if (error instanceof DatabaseInUse) return false;
        throw error;
      }
      try {
        if (!unpacked()) {
          // What an unfinished unpack or a temp cleaner may have left: the package would take any file as done, and this
          // function a marker; the marker goes first, so that an unpack killed now leaves none.
          for (const left of ["chromium.unpacked", "chromium", "fonts", "libGLESv2.so"]) {
            rmSync(path.join(tmpdir(), left), { recursive: true, force: true });
          }
          await unpack();
          writeFileSync(ready, "");
        }
        return true;
      } finally {
        release();
      }
    },
    UNPACK_WAIT_MS,
  );
  return unpack();
}

/** The npm-delivered Chromium, unpacked once per machine (its package reuses the unpacked binary). */
export function npmChromium(): Promise<BrowserChoice> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return Promise.reject(
      new Error(
        `No browser for the browser tests: the npm-delivered Chromium runs on Linux x64 only (this is ${process.platform} ${process.arch}) and no system Chromium or Chrome was found. Install one, or set CHROMIUM_PATH to a Chromium or Chrome executable.`,
      ),
    );
  }
  npmBrowser ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const sparticuz: typeof import("@sparticuz/chromium").default = require("@sparticuz/chromium");
    sparticuz.setGraphicsMode = false;
    const executablePath = await unpackedOnce(() => sparticuz.executablePath());
    const args = sparticuz.args.filter((arg) => !NPM_ARGS_LEFT_OUT.has(arg));
    return { source: "npm" as const, executablePath, args: [...args, ...COMMON_ARGS] };
  })();
  npmBrowser.catch(() => (npmBrowser = undefined));
  return npmBrowser;
}

/** Which browser the tests use; `system: false` skips the system's browsers (to test the npm one anywhere). */
export async function findBrowser(options: { system?: boolean } = {}): Promise<BrowserChoice> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!isExecutable(configured))
      throw new Error(`CHROMIUM_PATH=${configured} is not an executable file: set it to a Chromium or Chrome executable, or unset it.`);
    return { source: "CHROMIUM_PATH", executablePath: configured, args: COMMON_ARGS };
  }
  const system = options.system === false ? undefined : findSystemBrowser();
  if (system) return { source: "system", executablePath: system, args: COMMON_ARGS };
  return npmChromium();
}

/**
 * A headless Chromium for a test. A system browser that does not start (e.g. a stub that asks to install a snap)
 * gives way to the npm-delivered one; a CHROMIUM_PATH that does not start is an error.
 */
export async function launchBrowser(options: { system?: boolean } = {}): Promise<Browser> {
  const choice = await findBrowser(options);
  const launch = (c: BrowserChoice) => chromium.launch({ executablePath: c.executablePath, args: c.args });
  if (choice.source !== "system") return launch(choice);
  try {
    return await launch(choice);
  } catch (error) {
    if (process.platform !== "linux" || process.arch !== "x64") throw error;
    console.warn(
      `  the system browser ${choice.executablePath} did not start (${(error as Error).message.split("\n")[0]}); using the npm-delivered Chromium`,
    );
    return launch(await npmChromium());
  }
}
