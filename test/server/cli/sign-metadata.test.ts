import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { Wallet } from "ethers";
import { startTestApp, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { runCli } from "../../helpers/cli";
import { expectRefusal } from "../../helpers/refusal";

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
    return { status: response.status, headers: response.headers, body: await response.json() };
  };

  it("prints an NFT body the service accepts, bound to that token", async function () {
    const run = await sign(["--network", "localhost", "--contract", contract, "--id", "12", "--file", path.join(dir, "meta.json")], {
      METADATA_SIGNER_KEY: issuer.privateKey,
    });
    expect(run.code, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout).iss).to.equal(issuer.address);
    expect(await postTo(`/metadata/localhost/${contract}/12`, run.stdout)).to.deep.include({ status: 200, body: "ok" });
    await expectRefusal(await postTo(`/metadata/localhost/${contract}/13`, run.stdout), 401, "invalid_signature");
    const read = await t.fetch(`/metadata/localhost/${contract}/12?format=raw&iss=${issuer.address}`);
    expect(((await read.json()) as { binding: string }).binding).to.equal("target");
  });

  it("prints an account body the service accepts", async function () {
    const account = Wallet.createRandom().address;
    const run = await sign(["--network", "localhost", "--account", account, "--file", path.join(dir, "meta.json")], {
      METADATA_SIGNER_KEY: issuer.privateKey,
    });
    expect(run.code, run.stderr).to.equal(0);
    expect(await postTo(`/metadata/ethereum/localhost/${account}`, run.stdout)).to.deep.include({ status: 200, body: "ok" });
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

  it("signs a file's JSON as written: a leading byte-order mark is dropped, big integers keep their digits", async function () {
    const file = path.join(dir, "bom.json");
    fs.writeFileSync(
      file,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"盾","supply":123456789012345678901234567890}\n')]),
    );
    const run = await sign(["--network", "localhost", "--contract", contract, "--id", "14", "--file", file], {
      METADATA_SIGNER_KEY: issuer.privateKey,
    });
    expect(run.code, run.stderr).to.equal(0);
    const signed = Buffer.from(JSON.parse(run.stdout).metadata, "base64").toString("utf8");
    expect(signed).to.equal('{"name":"盾","supply":123456789012345678901234567890}\n');
    expect(await postTo(`/metadata/localhost/${contract}/14`, run.stdout)).to.deep.include({ status: 200, body: "ok" });
    const read = await t.fetch(`/metadata/localhost/${contract}/14?iss=${issuer.address}`);
    expect(await read.text()).to.contain("123456789012345678901234567890");
  });

  it("refuses, before signing, JSON the service would refuse, with the service's reason", async function () {
    const cases: [string, string][] = [
      ['{"a":1,"a":2}', "must not repeat a key"],
      ['{"a":"\\udc00"}', "lone surrogate"],
      ["[1]", "must hold one JSON object"],
    ];
    for (const [text, reason] of cases) {
      const file = path.join(dir, "refused.json");
      fs.writeFileSync(file, text);
      const run = await sign(["--network", "localhost", "--contract", contract, "--id", "15", "--file", file], {
        METADATA_SIGNER_KEY: issuer.privateKey,
      });
      expect(run.code, text).to.equal(2);
      expect(run.stdout, text).to.equal("");
      expect(run.stderr, text).to.contain(reason);
    }
  });
});
