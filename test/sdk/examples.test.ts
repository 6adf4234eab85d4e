import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { Wallet } from "ethers";
import { SuiteChain } from "../helpers/suite-chain";
import { ROOT } from "../helpers/docs";

const run = promisify(execFile);
const EXAMPLES = path.join(ROOT, "examples", "sdk");

/** The runnable examples each SDK page opens with, by page. */
const PAGES: Record<string, string[]> = {
  "docs/reference/sdk-data.md": ["inventory.ts"],
  "docs/reference/sdk-events.md": ["live.ts"],
  "docs/reference/sdk-metadata.md": ["sign-metadata.ts"],
};

/**
 * An example as its page shows it: the file with its imports of this repository's SDK sources named as a project
 * that installed the package names them, and without the comment that says so.
 */
function asPublished(source: string): string {
  return source
    .split("\n")
    .filter((line) => !line.startsWith("// In your project: "))
    .map((line) =>
      line.replace(/"\.\.\/\.\.\/sdk\/src\/([a-z]+)\.ts"/, (_, entry: string) =>
        entry === "index" ? `"wallet-login-nft-sdk"` : `"wallet-login-nft-sdk/${entry}"`,
      ),
    )
    .join("\n");
}

/** The TypeScript blocks of a Markdown page. */
function tsBlocks(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, code]) => code);
}

/** Runs `npm run sdk-example -- name …args` as a reader does, against `url`; its output. */
async function example(url: string, name: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(EXAMPLES, "run.ts"), name, ...args], {
    cwd: ROOT,
    env: { ...process.env, SERVICE_URL: url, NETWORK: "localhost", ...env },
    timeout: 60_000,
  });
  return stdout;
}

describe("SDK examples (examples/sdk), as the docs show them, run against the service", function () {
  this.timeout(120_000);
  const owner = Wallet.createRandom().address;
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const alice = await chain.deployAlice();
    const contract = await alice.getAddress();
    await (await alice.mintBatch(owner, [1n, 2n, 3n])).wait();
    return { contract, t: await chain.startIndexingApp({ listen: true, env: { INDEXER_CONTRACTS_LOCALHOST: contract } }) };
  });

  it("each SDK page opens with its examples, as a project that installed the package writes them", function () {
    for (const [page, files] of Object.entries(PAGES)) {
      const shown = tsBlocks(page).slice(0, files.length);
      expect(shown, page).to.deep.equal(files.map((file) => asPublished(fs.readFileSync(path.join(EXAMPLES, file), "utf8"))));
    }
    const runnable = fs.readdirSync(EXAMPLES).filter((file) => file.endsWith(".ts") && file !== "run.ts");
    expect(Object.values(PAGES).flat().sort(), "every example is shown on a page").to.deep.equal(runnable.sort());
  });

  it("inventory: pages an owner's tokens, reads the holders and shows a refusal as ApiError", async function () {
    const { t, contract } = suite();
    const lines = (await example(t.url, "inventory", [owner, contract])).trim().split("\n");
    expect(lines[0]).to.match(/^latest block \d+$/);
    expect(lines.slice(1)).to.deep.equal([
      "holds 1",
      "holds 2",
      "holds 3",
      `first page of holders: 1, indexed to block ${/\d+$/.exec(lines[4])![0]}`,
      "refused: 404 not_found",
    ]);
  });

  it("live: follows an owner's transfers from an event id, then stops after the count it was given", async function () {
    const { t } = suite();
    const lines = (await example(t.url, "live", [owner, "0", "3"])).trim().split("\n");
    expect(lines.map((line) => line.replace(/^\d+ /, ""))).to.deep.equal(
      ["1", "2", "3"].map((id) => `transfer ${id} 0x0000000000000000000000000000000000000000 -> ${owner}`),
    );
  });

  it("sign-metadata: signs a token's metadata with ethers, posts it, reads it back and verifies it", async function () {
    const { t, contract } = suite();
    const issuer = Wallet.createRandom();
    const id = "1";
    const output = await example(t.url, "sign-metadata", [contract, id], { ISSUER_KEY: issuer.privateKey });
    expect(output).to.equal(`posted by ${issuer.address}\nread back: {"name":"Sword","level":3}\nverified: true\n`);
    // What it posted is the service's to give to any reader, under its issuer.
    const answer = await fetch(`${t.url}/token/localhost/${contract}/${id}`);
    expect(((await answer.json()) as { signed: Record<string, unknown> }).signed).to.deep.equal({
      [issuer.address]: { name: "Sword", level: 3 },
    });
  });

  it("refuses an example it does not have, naming those it has", async function () {
    const { t } = suite();
    const error = (await example(t.url, "nothing", []).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(error.code).to.equal(2);
    expect(error.stderr).to.equal("usage: npm run sdk-example -- <inventory|live|sign-metadata> [arguments]\n");
  });
});
