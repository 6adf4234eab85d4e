import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { ensureDemoClient } from "../../local/demo-client";
import { demoLogin, DemoLoginRefusal } from "../../local/demo-login";
import { isLoopbackUrl } from "../../local/loopback";
import { SuiteChain } from "../helpers/suite-chain";
import { makeTempDir } from "../helpers/temp-dir";
import { freePort } from "../../support/net";
import { startLoginApp } from "../server/auth/helpers";

/** Hardhat account #1, the demo user of `npm start` (local/demo.ts). */
const DEMO_USER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** What demoLogin refused with; fails when it logged in. */
async function refusal(options: { base: string; dataDir: string }): Promise<string> {
  const outcome = await demoLogin(options).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).to.be.instanceOf(DemoLoginRefusal);
  return (outcome as Error).message;
}

describe("npm run demo-login (local/demo-login.ts)", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const dataDir = chain.closesWith(makeTempDir("demo-login-")).path;
    // The local demo as `npm start` has it: an issuer on this machine, the Hardhat chain as the default network.
    const local = chain.closesWith(await startLoginApp(chain.url, { listen: true }));
    await ensureDemoClient(local.app.db, dataDir);
    return { local, dataDir };
  });

  it("logs the demo user in through the demo client: an ID token for its address, and userinfo", async function () {
    const { local, dataDir } = suite();
    const result = await demoLogin({ base: local.url, dataDir });
    const client = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-client.json"), "utf8"));
    expect(result.user).to.equal(DEMO_USER);
    expect(result.issuer).to.equal(local.config.issuer);
    expect(result.jwksUri).to.equal(`${local.config.issuer}/jwks`);
    expect(result.claims).to.include({ sub: DEMO_USER.toLowerCase(), address: DEMO_USER, iss: local.config.issuer });
    expect(result.claims.aud).to.include(client.client_id);
    expect(result.userinfo).to.include({ sub: DEMO_USER.toLowerCase(), address: DEMO_USER });
    expect(result.idToken.split(".")).to.have.length(3);
  });

  it("refuses without a demo client, naming the file and what to run", async function () {
    const { local } = suite();
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "demo-login-empty-"));
    try {
      expect(await refusal({ base: local.url, dataDir: empty })).to.equal(
        `no demo client in ${path.relative(process.cwd(), path.join(empty, "demo-client.json"))}: start the local demo with \`npm start\` first`,
      );
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it("refuses a service URL off this machine before sending anything", async function () {
    const { dataDir } = suite();
    expect(await refusal({ base: "https://login.example.com", dataDir })).to.equal(
      "https://login.example.com is not this machine: demo-login only logs in to the local demo of `npm start`",
    );
  });

  it("refuses a service on this machine whose issuer is not a loopback URL (a deployment's), before sending the secret", async function () {
    const { dataDir, chain } = suite();
    const deployed = await startLoginApp(chain.url, { listen: true, env: { ISSUER: "https://login.example.com" } });
    try {
      expect(await refusal({ base: deployed.url, dataDir })).to.equal(
        `${deployed.url} is not the local demo: its issuer is https://login.example.com, not a loopback URL (localhost, 127.0.0.1 or [::1])`,
      );
    } finally {
      await deployed.close();
    }
  });

  it("refuses a service whose default network is not the local Hardhat chain", async function () {
    const { local, dataDir, chain } = suite();
    const sepolia = await startLoginApp(chain.url, { listen: true, env: { RPC_URL_SEPOLIA: chain.url, DEFAULT_NETWORK: "sepolia" } });
    try {
      await ensureDemoClient(sepolia.app.db, dataDir);
      expect(await refusal({ base: sepolia.url, dataDir })).to.equal(
        `${sepolia.url} is not the local demo: its default network is chain 11155111, not the local Hardhat chain (31337)`,
      );
    } finally {
      await sepolia.close();
      // The next tests log in to the first app again with its own client.
      await ensureDemoClient(local.app.db, dataDir);
    }
  });

  it("says when nothing answers", async function () {
    const { dataDir } = suite();
    const port = await freePort();
    expect(await refusal({ base: `http://127.0.0.1:${port}`, dataDir })).to.equal(
      `cannot reach http://127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port}): is \`npm start\` running?`,
    );
  });

  it("counts localhost, 127.0.0.0/8 and [::1] as this machine, and nothing else", function () {
    for (const url of ["http://localhost:3000", "http://127.0.0.1:3000", "http://127.8.9.10", "http://[::1]:3000"])
      expect(isLoopbackUrl(url), url).to.equal(true);
    for (const url of [
      "https://login.example.com",
      "http://localhost.example.com",
      "http://10.0.0.1",
      "http://0.0.0.0:3000",
      "http://[::2]",
    ])
      expect(isLoopbackUrl(url), url).to.equal(false);
  });
});
