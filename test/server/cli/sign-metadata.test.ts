import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { Wallet } from "ethers";
import { startTestApp, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { runCli } from "../../helpers/cli";

const sign = (args: string[], env: Record<string, string>) => runCli("sign-metadata", args, env);

describe("npm run sign-metadata", function () {
  let t: TestApp;
  let dir: string;
  const issuer = Wallet.createRandom();
  const contract = Wallet.createRandom().address;

  before(async function () {
    t = await startTestApp({ env: { RPC_URL_LOCALHOST: (await sharedNode()).url } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sign-"));
    fs.writeFileSync(path.join(dir, "meta.json"), JSON.stringify({ name: "盾", image: "ipfs://x" }));
  });
  after(async function () {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const postTo = async (path: string, body: string) => {
    const response = await t.fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body });
    return { status: response.status, body: await response.json() };
  };

  it("prints an NFT body the service accepts, bound to that token", async function () {
    const run = await sign(["--network", "localhost", "--contract", contract, "--id", "12", "--file", path.join(dir, "meta.json")], {
      METADATA_SIGNER_KEY: issuer.privateKey,
    });
    expect(run.code, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout).iss).to.equal(issuer.address);
    expect(await postTo(`/metadata/localhost/${contract}/12`, run.stdout)).to.deep.equal({ status: 200, body: "ok" });
    expect((await postTo(`/metadata/localhost/${contract}/13`, run.stdout)).status).to.equal(401);
    const read = await t.fetch(`/metadata/localhost/${contract}/12?format=raw&iss=${issuer.address}`);
    expect(((await read.json()) as { binding: string }).binding).to.equal("target");
  });

  it("prints an account body the service accepts", async function () {
    const account = Wallet.createRandom().address;
    const run = await sign(["--network", "localhost", "--account", account, "--file", path.join(dir, "meta.json")], {
      METADATA_SIGNER_KEY: issuer.privateKey,
    });
    expect(run.code, run.stderr).to.equal(0);
    expect(await postTo(`/metadata/ethereum/localhost/${account}`, run.stdout)).to.deep.equal({ status: 200, body: "ok" });
  });

  it("refuses a missing key, a bad address and a file that is not one object", async function () {
    const file = path.join(dir, "meta.json");
    expect((await sign(["--network", "localhost", "--account", contract, "--file", file], {})).stderr).to.contain(
      "set METADATA_SIGNER_KEY",
    );
    const bad = await sign(["--network", "localhost", "--contract", "0x12", "--id", "1", "--file", file], {
      METADATA_SIGNER_KEY: issuer.privateKey,
    });
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain("--contract must be 0x followed by 40 hex digits");
    fs.writeFileSync(path.join(dir, "list.json"), "[1,2]");
    const list = await sign(["--network", "localhost", "--account", contract, "--file", path.join(dir, "list.json")], {
      METADATA_SIGNER_KEY: issuer.privateKey,
    });
    expect(list.stderr).to.contain("must hold one JSON object");
  });
});
