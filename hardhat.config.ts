import { availableParallelism } from "node:os";
import path from "node:path";
import { subtask } from "hardhat/config";
import {
  TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD,
  TASK_COMPILE_SOLIDITY_LOG_COMPILATION_ERRORS,
  TASK_TEST_GET_TEST_FILES,
} from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig, NetworksUserConfig } from "hardhat/types";
import { NETWORKS, rpcEnvName } from "./server/chain/registry";
import "@nomicfoundation/hardhat-toolbox";
import "./scripts/tasks";

// The pinned compiler comes from the npm `solc` package: these machines (and CI) reach no
// compiler download host, so Hardhat must never try to fetch one.
const SOLC_VERSION = "0.8.28";

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) return runSuper();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require("solc");
  return {
    compilerPath: path.join(path.dirname(require.resolve("solc/package.json")), "soljson.js"),
    isSolcJs: true,
    version: SOLC_VERSION,
    longVersion: solc.version(),
  };
});

/**
 * solc warns (2394) at every `tstore` it compiles; ours are OpenZeppelin's TransientSlot, under the
 * ReentrancyGuardTransient of NFTConverter, which clears its slot before each call returns: the use the warning
 * itself calls safe. A full-page warning about it on every first compile tells users nothing they can act on.
 */
const SAFE_WARNINGS = [{ errorCode: "2394", file: "@openzeppelin/contracts/utils/TransientSlot.sol" }];

interface SolcMessage {
  severity: string;
  errorCode?: string;
  sourceLocation?: { file: string };
}

subtask(TASK_COMPILE_SOLIDITY_LOG_COMPILATION_ERRORS, async (args: { output?: { errors?: SolcMessage[] } }, _hre, runSuper) => {
  const errors = args.output?.errors?.filter(
    (message) =>
      message.severity === "error" ||
      !SAFE_WARNINGS.some((safe) => safe.errorCode === message.errorCode && safe.file === message.sourceLocation?.file),
  );
  return runSuper({ ...args, output: args.output && { ...args.output, errors } });
});

// Only `*.test.ts` files are suites; test/helpers/ and the like are modules the suites import.
subtask(TASK_TEST_GET_TEST_FILES, async (args: { testFiles: string[] }, _hre, runSuper) => {
  const files: string[] = await runSuper(args);
  return args.testFiles.length > 0 ? files : files.filter((file) => file.endsWith(".test.ts"));
});

function firstUrl(list: string | undefined): string | undefined {
  return list?.split(",")[0].trim();
}

/**
 * Real networks for the scripts, from the same variables the service reads (`RPC_URL_<NAME>`), signing with
 * PRIVATE_KEY. A network without its RPC URL is simply absent; of several (the service's failover list), the first.
 */
function remoteNetworks(): NetworksUserConfig {
  const accounts = process.env.PRIVATE_KEY ? [process.env.PRIVATE_KEY] : [];
  const networks: NetworksUserConfig = {};
  for (const [name, { chainId }] of Object.entries(NETWORKS)) {
    const url = firstUrl(process.env[rpcEnvName(name)]);
    if (name !== "localhost" && url) networks[name] = { url, chainId, accounts };
  }
  return networks;
}

const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 10_000 },
    },
  },
  networks: {
    hardhat: { chainId: 31337 },
    localhost: { url: firstUrl(process.env.RPC_URL_LOCALHOST) || "http://127.0.0.1:8545" },
    ...remoteNetworks(),
  },
  typechain: { outDir: "typechain-types", target: "ethers-v6" },
  // `npm test` runs the suites in parallel (hardhat test --parallel), one worker process per core and at least two: most
  // suites wait on a node, a database or a browser, so two workers keep even a 2-core machine busy. Each suite brings
  // up what it needs (its node, databases and ports) in its own worker.
  // Each worker also runs test/hooks/databases.ts after each file (after hardhat/register, which loads TypeScript).
  mocha: {
    timeout: 120_000,
    jobs: Math.max(2, availableParallelism()),
    require: ["hardhat/register", path.join(__dirname, "test", "hooks", "databases.ts")],
  },
  gasReporter: { enabled: process.env.REPORT_GAS === "true" },
};

export default config;
