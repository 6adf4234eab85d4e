import fs from "node:fs";
import type { ParseArgsConfig } from "node:util";
import { Wallet } from "ethers";
import { NETWORKS } from "../chain/registry";
import { parseAddress, parseTokenId } from "../chain/values";
import { boundText, type Target } from "../signed-metadata/signed-text";
import { statementJson } from "../signed-metadata/statement-json";
import { commandLine, runAsProcess, type CommandLine } from "./run";

const USAGE = `Signs metadata for the metadata service and prints the JSON body to post.

  npm run sign-metadata -- --network mainnet --contract 0x… --id 1 --file meta.json   (NFT metadata)
  npm run sign-metadata -- --network mainnet --account 0x… --file profile.json         (account metadata)

The file's JSON is signed as written (a leading byte-order mark is dropped); JSON the service would refuse is
refused here first, with the service's reason. The issuer's private key comes from METADATA_SIGNER_KEY. The signed
text names the target (see docs/reference/metadata.md), so the body cannot be posted for another token, account or network.
Post it with:
  curl -X POST -H 'content-type: application/json' --data @body.json <service>/metadata/<network>/<contract>/<id>
  curl -X POST -H 'content-type: application/json' --data @body.json <service>/metadata/ethereum/<network>/<account>`;

const cli: CommandLine = commandLine("sign-metadata", USAGE);

const ARGS = {
  options: {
    network: { type: "string" },
    contract: { type: "string" },
    id: { type: "string" },
    account: { type: "string" },
    file: { type: "string" },
  },
} satisfies ParseArgsConfig;

/** `npm run sign-metadata`: prints the signed body of a metadata post. */
export const main = cli.main(ARGS, async ({ values }, io) => {
  const key = io.env.METADATA_SIGNER_KEY;
  if (!key) cli.fail("set METADATA_SIGNER_KEY to the issuer's private key");
  if (!values.network || !Object.hasOwn(NETWORKS, values.network)) cli.fail(`--network must be one of ${Object.keys(NETWORKS).join(", ")}`);
  if (!values.file) cli.fail("--file is required (a JSON file holding one object)");
  const nft = values.contract !== undefined || values.id !== undefined;
  if (nft === (values.account !== undefined)) cli.fail("give --contract and --id (NFT metadata) or --account (account metadata)");

  let target: Target;
  try {
    target = nft
      ? {
          kind: "nft",
          network: values.network,
          contract: parseAddress(values.contract ?? "", "--contract").toLowerCase(),
          tokenId: parseTokenId(values.id ?? "", "--id"),
        }
      : { kind: "account", network: values.network, account: parseAddress(values.account!, "--account").toLowerCase() };
  } catch (error) {
    cli.fail((error as Error).message);
  }
  let bytes: Buffer;
  let data: unknown;
  try {
    bytes = withoutByteOrderMark(fs.readFileSync(values.file));
    data = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    cli.fail(`${values.file}: ${(error as Error).message}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) cli.fail(`${values.file} must hold one JSON object`);
  // The service refuses what breaks its rules for statements; say so now, before anything is signed.
  try {
    statementJson(bytes);
  } catch (error) {
    cli.fail(`${values.file}: ${(error as Error).message}`);
  }

  let wallet: Wallet;
  try {
    wallet = new Wallet(key);
  } catch {
    cli.fail("METADATA_SIGNER_KEY is not a private key (0x followed by 64 hex digits)");
  }
  // The file's text as written is what is signed: re-serializing would round integers beyond a double's precision.
  const metadata = bytes.toString("base64");
  const sig = await wallet.signMessage(boundText(target, metadata));
  io.out(JSON.stringify({ iss: wallet.address, sig, metadata }));
});

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Editors may start a UTF-8 file with a byte-order mark: it marks the file's encoding and is no part of its JSON. */
function withoutByteOrderMark(file: Buffer): Buffer {
  return file.subarray(0, 3).equals(UTF8_BOM) ? file.subarray(3) : file;
}

if (require.main === module) runAsProcess(main);
