import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { build } from "esbuild";
import { SuiteChain } from "../helpers/suite-chain";
import { makeTempDir } from "../helpers/temp-dir";

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * The runtimes besides Node that the SDK claims, as the `deno` and `bun` devDependencies install them from the npm
 * registry (each ships its binary in a package per platform): `args` runs a module with network access.
 */
const RUNTIMES = [
  { name: "Deno", binary: path.join(ROOT, "node_modules", ".bin", "deno"), args: ["run", "--allow-net", "--no-config"] },
  { name: "Bun", binary: path.join(ROOT, "node_modules", ".bin", "bun"), args: ["run"] },
];

describe("SDK under Deno and Bun against the service", function () {
  this.timeout(120_000);
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const owner = (await chain.signer(3)).address;
    const alice = await chain.deployAlice();
    const contract = await alice.getAddress();
    await (await alice.mintBatch(owner, [1n, 2n ** 70n])).wait();
    const t = await chain.startIndexingApp({ listen: true, env: { INDEXER_CONTRACTS_LOCALHOST: contract } });
    // The SDK's main entry built as a browser or any runtime takes it: one ES module, no Node built-in.
    const dir = chain.closesWith(makeTempDir("sdk-runtimes-")).path;
    await build({
      entryPoints: [path.join(ROOT, "sdk", "src", "index.ts")],
      bundle: true,
      format: "esm",
      platform: "neutral",
      outfile: path.join(dir, "sdk.mjs"),
      logLevel: "silent",
    });
    return { t, dir, owner, contract };
  });

  for (const runtime of RUNTIMES) {
    it(`reads the data routes, follows the pages and gets a refusal as ApiError under ${runtime.name}`, async function () {
      if (!fs.existsSync(runtime.binary)) {
        console.log(
          `    skipped: ${runtime.name} is not installed (${runtime.binary}); npm ci installs it where the npm registry has a build for this platform`,
        );
        this.skip();
      }
      const { t, dir, owner, contract } = suite();
      const script = path.join(dir, `${runtime.name.toLowerCase()}.mjs`);
      fs.writeFileSync(
        script,
        [
          `import { ApiError, createDataClient } from "./sdk.mjs";`,
          `const client = createDataClient({ baseUrl: ${JSON.stringify(t.url)}, network: "localhost" });`,
          `const latest = await client.latestBlock();`,
          `const pages = [];`,
          `for await (const page of client.inventory(${JSON.stringify(owner)}, ${JSON.stringify(contract)}, { limit: 1 }).pages()) pages.push(page.items.map((item) => item.id));`,
          `let refusal = null;`,
          `try { await client.ownerOf(${JSON.stringify(contract)}, 999); } catch (error) { refusal = error instanceof ApiError ? [error.status, error.code] : String(error); }`,
          `const aborted = await client.latestBlock({ signal: AbortSignal.abort() }).then(() => "resolved", (error) => error.name);`,
          `console.log(JSON.stringify({ latest: /^\\d+$/.test(latest), pages, refusal, aborted }));`,
        ].join("\n"),
      );
      const { stdout } = await promisify(execFile)(runtime.binary, [...runtime.args, script], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: "1" },
      });
      expect(JSON.parse(stdout.trim().split("\n").pop()!)).to.deep.equal({
        latest: true,
        pages: [["1"], [(2n ** 70n).toString()]],
        refusal: [404, "not_found"],
        aborted: "AbortError",
      });
    });
  }
});
