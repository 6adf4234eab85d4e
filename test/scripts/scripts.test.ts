import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import type { JsonRpcSigner } from "ethers";
import { readDeployment, type Deployment } from "../../scripts/lib/deployment";
import { AliceNFT__factory, BobNFT__factory, NFTConverter__factory } from "../../typechain-types";
import { runHardhat, type TaskRun } from "../helpers/hardhat-task";
import { SuiteChain } from "../helpers/suite-chain";

/** A refusal: a non-zero exit and one plain line on stderr containing `message`, no stack trace. */
function expectRefusal(run: TaskRun, message: string, label = message) {
  expect(run.code, `${label}: exit code`).to.not.equal(0);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines, `${label}: stderr is one line`).to.have.length(1);
  expect(lines[0], label).to.contain(message);
  expect(run.stderr, label)
    .to.not.match(/^\s+at /m)
    .and.not.contain("unexpected error");
}

describe("converter scripts (hardhat tasks against a node)", function () {
  this.timeout(300_000);
  let chain: SuiteChain;
  let deployer: JsonRpcSigner;
  let dir: string;
  let env: Record<string, string>;
  let deployment: Deployment;

  const task = (...args: string[]) => runHardhat([...args, "--network", "localhost"], env);
  const file = (name: string, content: string) => {
    const at = path.join(dir, name);
    fs.writeFileSync(at, content);
    return at;
  };
  const converter = () => NFTConverter__factory.connect(deployment.converter, deployer);

  before(async function () {
    chain = await SuiteChain.ownNode();
    deployer = await chain.provider.getSigner(0);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "scripts-"));
    env = { RPC_URL_LOCALHOST: chain.url, DEPLOYMENTS_DIR: dir };
  });
  after(async function () {
    await chain?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe("deploy", function () {
    it("deploys Alice, Bob and the converter and writes deployments/<network>.json", async function () {
      const run = await task("deploy");
      expect(run.code, run.stderr).to.equal(0);
      deployment = readDeployment("localhost", dir);
      expect(deployment).to.include({ network: "localhost", chainId: 31337, admin: await deployer.getAddress(), testTokens: true });
      expect(deployment.deployBlock).to.be.a("number").greaterThan(0);
      for (const address of [deployment.alice, deployment.bob, deployment.converter])
        expect(await chain.provider.getCode(address)).to.not.equal("0x");
      const c = converter();
      expect(await c.alice()).to.equal(deployment.alice);
      expect(await c.hasRole(await c.OPERATOR_ROLE(), await deployer.getAddress())).to.equal(true);
      expect(JSON.parse(run.stdout)).to.deep.equal(deployment);
    });

    it("deploys only the converter against existing tokens", async function () {
      const run = await runHardhat(["deploy", "--alice", deployment.alice, "--bob", deployment.bob, "--network", "localhost"], {
        ...env,
        DEPLOYMENTS_DIR: path.join(dir, "existing"),
      });
      expect(run.code, run.stderr).to.equal(0);
      const second = JSON.parse(run.stdout) as Deployment;
      expect(second).to.include({ alice: deployment.alice, bob: deployment.bob, testTokens: false });
      expect(second.converter).to.not.equal(deployment.converter);
    });

    it("refuses a token address without code", async function () {
      const run = await task("deploy", "--alice", "0x000000000000000000000000000000000000dEaD", "--bob", deployment.bob);
      expectRefusal(run, "--alice 0x000000000000000000000000000000000000dEaD has no code on this network");
    });

    it("refuses --alice without --bob in one line", async function () {
      expectRefusal(await task("deploy", "--alice", deployment.alice), "give both --alice and --bob, or neither");
    });
  });

  describe("register-pairs", function () {
    it("registers a CSV file in batches, printing transactions and gas", async function () {
      const csv = file("pairs.csv", "alice_id,bob_id\n# the first pairs\n1,101\n2,102\n\n3,103\n0,100\n4,104\n");
      const run = await task("register-pairs", "--file", csv, "--batch", "2");
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.contain("5 pairs in");
      expect(run.stdout.match(/^tx 0x[0-9a-f]{64}: \d+ pairs, gas \d+/gm)).to.have.length(3);
      expect(run.stdout).to.match(/registered 5 pairs in 3 transaction\(s\), gas \d+/);
      expect(run.stderr).to.contain("batch 3/3: 5/5 pairs");
      const c = converter();
      expect(await c.bobIdOf(0n)).to.deep.equal([true, 100n]);
      expect(await c.aliceIdOf(104n)).to.deep.equal([true, 4n]);
    });

    it("registers nothing on a rerun, and says so", async function () {
      const before = await chain.provider.getTransactionCount(await deployer.getAddress());
      const run = await task("register-pairs", "--file", path.join(dir, "pairs.csv"));
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.contain("5 already registered, 0 to register");
      expect(run.stdout).to.contain("nothing to register");
      expect(await chain.provider.getTransactionCount(await deployer.getAddress())).to.equal(before);
    });

    it("registers only the new pairs of a JSON file with big ids", async function () {
      const big = (2n ** 200n).toString();
      const json = file("pairs.json", JSON.stringify([[1, 101], { alice: big, bob: "7" }]));
      const run = await task("register-pairs", "--file", json);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.contain("1 already registered, 1 to register");
      expect(await converter().bobIdOf(BigInt(big))).to.deep.equal([true, 7n]);
    });

    it("sends nothing with --dry-run", async function () {
      const before = await chain.provider.getTransactionCount(await deployer.getAddress());
      const run = await task("register-pairs", "--file", file("more.csv", "20,120\n21,121\n"), "--dry-run");
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.contain("dry run: would send 1 transaction(s)");
      expect(await chain.provider.getTransactionCount(await deployer.getAddress())).to.equal(before);
      expect(await converter().bobIdOf(20n)).to.deep.equal([false, 0n]);
    });

    it("refuses a malformed file before any transaction, naming the line", async function () {
      const before = await chain.provider.getTransactionCount(await deployer.getAddress());
      const cases: Array<[string, string, string]> = [
        ["bad.csv", "30,130\n31,13x\n", 'bad.csv:2: bob id "13x" is not a decimal uint256'],
        ["cells.csv", "30,130\n31\n", 'cells.csv:2: expected "alice_id,bob_id", got "31"'],
        ["dup.csv", "30,130\n31,131\n30,132\n", "dup.csv:3: alice id 30 is already paired at dup.csv:1"],
        ["neg.json", '[[30, 130], ["-1", 131]]', 'neg.json[1]: alice id "-1" is not a decimal uint256'],
        ["max.csv", `30,${(2n ** 256n - 1n).toString()}\n`, "max.csv:1: bob id"],
        ["broken.json", "[[30, 130]", "broken.json: not valid JSON"],
      ];
      for (const [name, content, message] of cases) {
        expectRefusal(await task("register-pairs", "--file", file(name, content)), message, name);
      }
      expect(await chain.provider.getTransactionCount(await deployer.getAddress())).to.equal(before);
      expect(await converter().bobIdOf(30n)).to.deep.equal([false, 0n]);
    });

    it("refuses a file that conflicts with the chain before any transaction", async function () {
      const before = await chain.provider.getTransactionCount(await deployer.getAddress());
      const run = await task("register-pairs", "--file", file("conflict.csv", "40,140\n1,999\n"));
      expectRefusal(run, "1 pair(s) conflict with the chain: conflict.csv:2: alice id 1 is already paired on chain with bob id 101");
      expect(await chain.provider.getTransactionCount(await deployer.getAddress())).to.equal(before);
      expect(await converter().bobIdOf(40n)).to.deep.equal([false, 0n]);
    });
  });

  describe("stock and convert", function () {
    it("stocks Bob tokens, then a user converts an Alice token in one transaction", async function () {
      const user = await chain.provider.getSigner(1);
      const alice = AliceNFT__factory.connect(deployment.alice, deployer);
      const bob = BobNFT__factory.connect(deployment.bob, deployer);
      await (await bob.mintBatch(await deployer.getAddress(), [101n, 102n])).wait();
      await (await alice.mint(await user.getAddress(), 1n)).wait();

      const stocked = await task("stock", "--token", "bob", "--ids", "101,102");
      expect(stocked.code, stocked.stderr).to.equal(0);
      expect(stocked.stdout).to.contain("stocked 2 bob token(s)");
      expect(await bob.ownerOf(101n)).to.equal(deployment.converter);

      // The user side: the user's account signs (account #1 of the node).
      const run = await runHardhat(["convert", "--alice-id", "1", "--network", "localhost"], { ...env, SIGNER_INDEX: "1" });
      expect(run.code, run.stderr + run.stdout).to.equal(0);
      expect(run.stdout).to.match(/gave alice 1, received bob 101; gas \d+/);
      expect(await bob.ownerOf(101n)).to.equal(await user.getAddress());
      expect(await alice.ownerOf(1n)).to.equal(deployment.converter);
    });

    it("explains why a conversion cannot happen instead of sending it", async function () {
      const unpaired = await runHardhat(["convert", "--alice-id", "77", "--network", "localhost"], { ...env, SIGNER_INDEX: "1" });
      expect(unpaired.code).to.equal(1);
      expectRefusal(unpaired, "cannot convert: alice 77 is not paired with any bob token");
      const notYours = await runHardhat(["convert", "--alice-id", "2", "--network", "localhost"], { ...env, SIGNER_INDEX: "1" });
      expectRefusal(notYours, "cannot convert: alice 2 does not exist");
    });

    it("refuses bad arguments of stock and convert in one line each", async function () {
      expectRefusal(await task("stock", "--token", "carol", "--ids", "1"), '--token must be alice or bob, got "carol"');
      expectRefusal(await task("stock", "--token", "bob", "--ids", "1,2x"), 'id #2 "2x" is not a decimal uint256');
      expectRefusal(await task("convert", "--alice-id", "1", "--bob-id", "1"), "give exactly one of --alice-id or --bob-id");
      expectRefusal(await task("convert", "--alice-id", "1e3"), '"1e3" is not a decimal uint256');
      expectRefusal(await task("register-pairs", "--file", path.join(dir, "missing.csv")), "missing.csv");
      // Parameters Hardhat itself would refuse in three lines with a help link.
      expectRefusal(await task("register-pairs"), "give --file (pairs.csv or pairs.json)");
      expectRefusal(
        await task("register-pairs", "--file", path.join(dir, "pairs.csv"), "--batch", "ten"),
        '--batch must be a positive integer, got "ten"',
      );
      expectRefusal(await task("stock", "--ids", "1"), "give --token (alice or bob)");
      expectRefusal(await task("stock", "--token", "bob", "--ids", "1", "--batch", "0"), '--batch must be a positive integer, got "0"');
    });

    it("names the converter's custom error when a transaction reverts", async function () {
      // Account #2 is no operator: its stock transaction reverts with AccessControlUnauthorizedAccount.
      const run = await runHardhat(["stock", "--token", "bob", "--ids", "101", "--network", "localhost"], { ...env, SIGNER_INDEX: "2" });
      expectRefusal(run, "AccessControlUnauthorizedAccount(");
    });
  });
});
