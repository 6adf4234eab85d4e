import fs from "node:fs";
import path from "node:path";

/** What `deploy` records in `deployments/<network>.json`. */
export interface Deployment {
  network: string;
  chainId: number;
  alice: string;
  bob: string;
  converter: string;
  admin: string;
  deployer: string;
  /** Block of the first transaction of the deployment (where an indexer of these contracts may start). */
  deployBlock: number;
  /** ISO 8601 time of the deployment. */
  deployedAt: string;
  /** Whether Alice and Bob were deployed here as test tokens (false: existing tokens were given). */
  testTokens: boolean;
}

/** `deployments/` of the repository, or DEPLOYMENTS_DIR (tests write elsewhere). */
export function deploymentsDir(): string {
  return process.env.DEPLOYMENTS_DIR ?? path.resolve(__dirname, "..", "..", "deployments");
}

export function deploymentPath(network: string, dir = deploymentsDir()): string {
  return path.join(dir, `${network}.json`);
}

export function readDeployment(network: string, dir = deploymentsDir()): Deployment {
  const file = deploymentPath(network, dir);
  if (!fs.existsSync(file)) {
    throw new Error(
      `no deployment for network "${network}" (${file}): run \`npx hardhat deploy --network ${network}\` or pass --converter`,
    );
  }
  return JSON.parse(fs.readFileSync(file, "utf8")) as Deployment;
}

export function writeDeployment(deployment: Deployment, dir = deploymentsDir()): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = deploymentPath(deployment.network, dir);
  fs.writeFileSync(file, `${JSON.stringify(deployment, null, 2)}\n`);
  return file;
}
