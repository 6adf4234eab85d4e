import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { expect } from "chai";
import { build } from "esbuild";
import { startTestApp, type TestApp } from "../helpers/app";
import { sharedNode } from "../helpers/chain";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..", "..");
const SDK = path.join(ROOT, "sdk");
const BIN = path.join(ROOT, "node_modules", ".bin");
const SIZE_BUDGET_BYTES = 10 * 1024;

/** The version of a package the repository's root install holds. */
function readVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** Runs `command` (npm, or a tool of the root install) in `cwd`; rejects with its output when it fails. */
async function sh(cwd: string, command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}` } });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

describe("SDK package", function () {
  this.timeout(240_000);
  let dir: string;
  let tarball: string;

  before(async function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-package-"));
    // npm pack runs the package's prepack: its build.
    const [packed] = JSON.parse(await sh(SDK, "npm", ["pack", "--json", "--pack-destination", dir])) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    tarball = path.join(dir, packed.filename);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("passes publint and Are the Types Wrong (ESM and CommonJS, each with its types)", async function () {
    await sh(SDK, "publint", ["--strict"]);
    const report = await sh(dir, "attw", [tarball, "--format", "json"]);
    expect(JSON.parse(report).analysis.problems, report).to.deep.equal([]);
  });

  it("installs from its tarball in an empty project and works from require, import and TypeScript", async function () {
    const project = path.join(dir, "consumer");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
    // React and TanStack Query are the react entry's optional peers: a dApp that uses it installs them beside the SDK.
    const peers = ["react", "@types/react", "@tanstack/react-query"].map((name) => `${name}@${readVersion(name)}`);
    await sh(project, "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, ...peers]);
    const use = `createDataClient({ baseUrl: process.argv[2], network: "localhost" }).latestBlock().then((block) => console.log(typeof block, /^\\d+$/.test(block)))`;
    const entries = `typeof signIn, typeof discoverWallets, typeof createLoginServer, typeof useInventory, typeof useLiveUpdates`;
    fs.writeFileSync(
      path.join(project, "required.cjs"),
      `const { createDataClient } = require("wallet-login-nft-sdk");\nconst { signIn, discoverWallets } = require("wallet-login-nft-sdk/login");\nconst { createLoginServer } = require("wallet-login-nft-sdk/server");\nconst { useInventory, useLiveUpdates } = require("wallet-login-nft-sdk/react");\nconsole.log(${entries});\n${use}\n`,
    );
    fs.writeFileSync(
      path.join(project, "imported.mjs"),
      `import { createDataClient } from "wallet-login-nft-sdk";\nimport { signIn, discoverWallets } from "wallet-login-nft-sdk/login";\nimport { createLoginServer } from "wallet-login-nft-sdk/server";\nimport { useInventory, useLiveUpdates } from "wallet-login-nft-sdk/react";\nconsole.log(${entries});\n${use}\n`,
    );
    const typed = [
      `import { ApiError, createDataClient, type Transfer, type Uint } from "wallet-login-nft-sdk";`,
      `import { signIn, type Eip1193Provider } from "wallet-login-nft-sdk/login";`,
      `import { createLoginServer } from "wallet-login-nft-sdk/server";`,
      `import { useInventory, type ListQueryResult } from "wallet-login-nft-sdk/react";`,
      `export const useOwned = (owner: string, contract: string): ListQueryResult<{ id: string }> => useInventory({ owner, contract });`,
      `export const login = (provider: Eip1193Provider) => signIn({ baseUrl: "http://127.0.0.1", provider, clientId: "c", redirectUri: "https://rp/cb" });`,
      `export const subject = async (code: string) => (await createLoginServer({ issuer: "http://127.0.0.1", clientId: "c" }).exchangeCode({ code, redirectUri: "https://rp/cb" })).claims.sub;`,
      `const client = createDataClient({ baseUrl: "http://127.0.0.1", network: "mainnet" });`,
      `export async function newest(owner: string): Promise<Uint | undefined> {`,
      `  for await (const transfer of client.transfersOf(owner)) return transfer.id;`,
      `}`,
      `export const isRefusal = (error: unknown) => error instanceof ApiError && error.code === "not_found";`,
      `export const time: Transfer["time"] = 1;`,
      `// @ts-expect-error a token id is a decimal string, never a number`,
      `export const id: Transfer["id"] = 1;`,
    ].join("\n");
    fs.writeFileSync(path.join(project, "typed.mts"), typed);
    fs.writeFileSync(path.join(project, "typed.cts"), typed);
    fs.writeFileSync(path.join(project, "bundled.ts"), typed);

    // The package claims Node 20 and later, the repository 22 and 24 (which CI runs this test on): Node 20 comes from
    // the npm registry's node@20, as CI's own Node versions do.
    const node20 = path.join(dir, "node20");
    await sh(dir, "npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefer-offline", "--prefix", node20, "node@20"]);
    const nodes = [process.execPath, path.join(node20, "node_modules", ".bin", "node")];
    expect(await sh(project, nodes[1], ["-v"])).to.match(/^v20\./);
    const t: TestApp = await startTestApp({ listen: true, env: { RPC_URL_LOCALHOST: (await sharedNode()).url, INDEXER: "false" } });
    try {
      for (const node of nodes) {
        for (const file of ["required.cjs", "imported.mjs"]) {
          expect(await sh(project, node, [file, t.url]), `${file} on ${node}`).to.equal(
            "function function function function function\nstring true\n",
          );
        }
      }
    } finally {
      await t.close();
    }
    const strict = [
      "--noEmit",
      "--strict",
      "--target",
      "es2022",
      "--skipLibCheck",
      "false",
      "--types",
      "node",
      "--typeRoots",
      path.join(ROOT, "node_modules", "@types"),
    ];
    await sh(project, "tsc", [...strict, "--module", "nodenext", "--moduleResolution", "nodenext", "typed.mts", "typed.cts"]);
    await sh(project, "tsc", [...strict, "--module", "preserve", "--moduleResolution", "bundler", "--lib", "es2022,dom", "bundled.ts"]);
    // A browser bundle of the installed package's main and login entries: a bundler resolves them without a Node built-in.
    fs.writeFileSync(
      path.join(project, "page.mjs"),
      `import { createDataClient } from "wallet-login-nft-sdk";\nimport { discoverWallets } from "wallet-login-nft-sdk/login";\nglobalThis.sdk = { createDataClient, discoverWallets };\n`,
    );
    const page = await build({
      entryPoints: [path.join(project, "page.mjs")],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    expect(
      Object.keys(page.metafile.inputs).filter(
        (input) => !input.includes("node_modules/wallet-login-nft-sdk/dist/esm/") && !input.endsWith("page.mjs"),
      ),
    ).to.deep.equal([]);
  });

  it("keeps React and TanStack Query out of every entry but the react one", async function () {
    for (const entry of ["index", "login", "server"]) {
      const bundle = await build({
        entryPoints: [path.join(SDK, "src", `${entry}.ts`)],
        bundle: true,
        format: "esm",
        platform: "browser",
        write: false,
        metafile: true,
        logLevel: "silent",
      });
      const inputs = Object.keys(bundle.metafile.inputs);
      expect(
        inputs.filter((input) => /node_modules\/(react|react-dom|@tanstack)\//.test(input)),
        entry,
      ).to.deep.equal([]);
    }
  });

  it("keeps its data client for browsers within budget, with no Node built-in and no dependency", async function () {
    const bundle = await build({
      entryPoints: [path.join(SDK, "src", "index.ts")],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    expect(
      Object.keys(bundle.metafile.inputs).every((input) => input.startsWith("sdk/src/")),
      Object.keys(bundle.metafile.inputs).join(),
    ).to.equal(true);
    const size = gzipSync(bundle.outputFiles[0].contents).length;
    expect(size).to.be.below(SIZE_BUDGET_BYTES);
    const readme = fs.readFileSync(path.join(SDK, "README.md"), "utf8");
    const stated = /\*\*(\d+\.\d) kB\*\* minified and gzipped/.exec(readme);
    expect(stated, "sdk/README.md states the data client's size as **N.N kB** minified and gzipped").to.not.equal(null);
    expect(Math.abs(Number(stated![1]) * 1000 - size), `measured ${(size / 1000).toFixed(1)} kB: update sdk/README.md`).to.be.at.most(150);
  });
});
