import fs from "node:fs";
import { task } from "hardhat/config";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { parseDecimalId } from "./lib/decimal-id";

// hardhat.config.ts loads this file before anything is compiled: TypeChain bindings and the libraries that use them
// are imported inside the actions only.

const err = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Runs a task's action so that a refusal ends the process with one plain line on stderr and a non-zero exit code:
 * Hardhat would print "An unexpected error occurred:" and a stack trace around the message.
 */
function plainRefusals<A>(action: (args: A, hre: HardhatRuntimeEnvironment) => Promise<void>) {
  return async (args: A, hre: HardhatRuntimeEnvironment): Promise<void> => {
    try {
      await action(args, hre);
    } catch (error) {
      err(`error: ${oneLine(error)}`);
      process.exitCode = 1;
    }
  };
}

/** The message of an error on one line: ethers' short message (with a decoded revert) rather than its long dump. */
function oneLine(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string; revert?: { name: string; args: unknown[] } } | null;
  const revert = e?.revert ? `: ${e.revert.name}(${e.revert.args.map(String).join(", ")})` : "";
  const text = e?.shortMessage ? `${e.shortMessage}${revert}` : (e?.message ?? String(error));
  return text.replace(/\s*\n\s*/g, "; ");
}

/** The network's first account (PRIVATE_KEY on real networks), or the SIGNER_INDEX-th (e.g. a local node's). */
async function signer(hre: HardhatRuntimeEnvironment) {
  const index = Number(process.env.SIGNER_INDEX ?? 0);
  const chosen = (await hre.ethers.getSigners())[index];
  if (!chosen) throw new Error(`no account #${index} for network ${hre.network.name}: set PRIVATE_KEY`);
  return chosen;
}

/**
 * Parameters are declared optional strings and checked here: Hardhat's own refusals of a missing or mistyped
 * parameter come with a help link and a blank line, ours are one line.
 */
function required(value: string | undefined, flag: string, example: string): string {
  if (value === undefined || value === "") throw new Error(`give ${flag} (${example})`);
  return value;
}

function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^[1-9]\d{0,6}$/.test(value)) throw new Error(`${flag} must be a positive integer, got "${value}"`);
  return Number(value);
}

/** A task that acts on a deployed converter: the one `--converter` names, else the network's deployment record (`converterAt`). */
function converterTask(name: string, description: string) {
  return task(name, description).addOptionalParam("converter", "converter address (default: deployments/<network>.json)");
}

async function converterAt(hre: HardhatRuntimeEnvironment, address: string | undefined) {
  const { NFTConverter__factory } = await import("../typechain-types");
  const { readDeployment } = await import("./lib/deployment");
  const at = address ?? readDeployment(hre.network.name).converter;
  return NFTConverter__factory.connect(at, await signer(hre));
}

task("deploy", "Deploys the NFTConverter (and test Alice/Bob tokens unless existing ones are given)")
  .addOptionalParam("alice", "address of an existing Alice ERC-721")
  .addOptionalParam("bob", "address of an existing Bob ERC-721")
  .addOptionalParam("admin", "admin of the converter (default: the deployer, also made an operator)")
  .setAction(
    plainRefusals(async (args: { alice?: string; bob?: string; admin?: string }, hre) => {
      const { deployConverter } = await import("./lib/deploy");
      const { writeDeployment } = await import("./lib/deployment");
      const deployment = await deployConverter(await signer(hre), { network: hre.network.name, ...args, log: err });
      const file = writeDeployment(deployment);
      console.log(JSON.stringify(deployment, null, 2));
      err(`written to ${file}`);
    }),
  );

converterTask("register-pairs", "Registers Alice↔Bob pairs from a CSV or JSON file; pairs already registered are skipped")
  .addOptionalParam("file", "pairs.csv (alice_id,bob_id per line) or pairs.json ([[alice, bob], ...]) (required)")
  .addOptionalParam("batch", "pairs per transaction (default 100)")
  .addFlag("dryRun", "print the plan and send nothing")
  .setAction(
    plainRefusals(async (given: { file?: string; batch?: string; converter?: string; dryRun: boolean }, hre) => {
      const { readPairsFile, planRegistration } = await import("./lib/pairs");
      const args = {
        ...given,
        file: required(given.file, "--file", "pairs.csv or pairs.json"),
        batch: positiveInt(given.batch, "--batch", 100),
      };
      const pairs = readPairsFile(args.file); // the whole file is checked before anything is sent
      const converter = await converterAt(hre, args.converter);
      let shown = 0;
      const plan = await planRegistration(converter, pairs, {
        progress: (done, total) => {
          if (total >= 1000 && (done === total || done - shown >= 1000)) err(`checking the chain: ${(shown = done)}/${total} pairs`);
        },
      });
      console.log(
        `${pairs.length} pairs in ${args.file}: ${plan.registered.length} already registered, ${plan.toRegister.length} to register`,
      );
      if (plan.toRegister.length === 0) {
        console.log("nothing to register");
        return;
      }
      const batches = Math.ceil(plan.toRegister.length / args.batch);
      if (args.dryRun) {
        console.log(`dry run: would send ${batches} transaction(s) of up to ${args.batch} pairs; nothing sent`);
        return;
      }
      let gasTotal = 0n;
      for (let b = 0; b < batches; b++) {
        const chunk = plan.toRegister.slice(b * args.batch, (b + 1) * args.batch);
        const tx = await converter.registerPairs(
          chunk.map((p) => p.alice),
          chunk.map((p) => p.bob),
        );
        const receipt = await tx.wait();
        gasTotal += receipt!.gasUsed;
        console.log(`tx ${tx.hash}: ${chunk.length} pairs, gas ${receipt!.gasUsed} (${receipt!.gasUsed / BigInt(chunk.length)} per pair)`);
        err(`batch ${b + 1}/${batches}: ${Math.min((b + 1) * args.batch, plan.toRegister.length)}/${plan.toRegister.length} pairs`);
      }
      console.log(`registered ${plan.toRegister.length} pairs in ${batches} transaction(s), gas ${gasTotal}`);
    }),
  );

converterTask("stock", "Moves the caller's Alice or Bob tokens into the converter's stock (operators)")
  .addOptionalParam("token", "alice or bob (required)")
  .addOptionalParam("ids", "comma-separated token ids")
  .addOptionalParam("file", "file of token ids, one per line")
  .addOptionalParam("batch", "ids per transaction (default 200)")
  .setAction(
    plainRefusals(async (given: { token?: string; ids?: string; file?: string; batch?: string; converter?: string }, hre) => {
      const { IERC721__factory } = await import("../typechain-types");
      const args = { ...given, token: required(given.token, "--token", "alice or bob"), batch: positiveInt(given.batch, "--batch", 200) };
      if (args.token !== "alice" && args.token !== "bob") throw new Error(`--token must be alice or bob, got "${args.token}"`);
      if ((args.ids === undefined) === (args.file === undefined)) throw new Error("give --ids or --file");
      const raw = args.ids !== undefined ? args.ids.split(",") : fs.readFileSync(args.file!, "utf8").split(/\r?\n/);
      const ids = raw
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s, i) => parseDecimalId(s, `id #${i + 1} "${s}"`));
      const converter = await converterAt(hre, args.converter);
      const me = await signer(hre);
      const token = IERC721__factory.connect(args.token === "alice" ? await converter.alice() : await converter.bob(), me);
      const converterAddress = await converter.getAddress();
      // One approval and one transaction per batch, instead of a safeTransferFrom per token.
      if (!(await token.isApprovedForAll(me.address, converterAddress))) {
        const tx = await token.setApprovalForAll(converterAddress, true);
        console.log(`tx ${tx.hash}: approved the converter for your ${args.token} tokens, gas ${(await tx.wait())!.gasUsed}`);
      }
      for (let i = 0; i < ids.length; i += args.batch) {
        const chunk = ids.slice(i, i + args.batch);
        const tx = await converter.stock(token, chunk);
        console.log(`tx ${tx.hash}: ${chunk.length} ${args.token} token(s) into stock, gas ${(await tx.wait())!.gasUsed}`);
      }
      console.log(`stocked ${ids.length} ${args.token} token(s)`);
    }),
  );

converterTask("convert", "Converts one of your tokens in one transaction (safeTransferFrom into the converter)")
  .addOptionalParam("aliceId", "the Alice token to convert to its Bob token")
  .addOptionalParam("bobId", "the Bob token to convert back to its Alice token")
  .setAction(
    plainRefusals(async (args: { aliceId?: string; bobId?: string; converter?: string }, hre) => {
      const { explainConversion } = await import("./lib/convert");
      if ((args.aliceId === undefined) === (args.bobId === undefined)) throw new Error("give exactly one of --alice-id or --bob-id");
      const converter = await converterAt(hre, args.converter);
      const me = await signer(hre);
      const fromAlice = args.aliceId !== undefined;
      const idText = (fromAlice ? args.aliceId : args.bobId)!;
      const id = parseDecimalId(idText, `"${idText}"`);
      const plan = await explainConversion(converter, me.address, fromAlice ? "alice" : "bob", id);
      if (!plan.ok) {
        err(`cannot convert: ${plan.reason}`);
        process.exitCode = 1;
        return;
      }
      const tx = await plan.token
        .connect(me)
        ["safeTransferFrom(address,address,uint256)"](me.address, await converter.getAddress(), plan.id);
      const receipt = await tx.wait();
      console.log(`tx ${tx.hash}: gave ${plan.from} ${plan.id}, received ${plan.to} ${plan.counterpart}; gas ${receipt!.gasUsed}`);
    }),
  );
