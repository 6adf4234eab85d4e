import { getAddress } from "ethers";
import { spamVerdicts, type ContractSummary, type SpamVerdict } from "../indexer";
import type { Clock } from "../lib/clock";
import { readChainFacts } from "./chain-facts";
import type { CollectionReaders } from "./readers";
import { collectionMetadata, type CollectionMetadata } from "./contract-metadata";
import { findDeployment, type Deployment } from "./deployment";
import { servedVerdict, type SpamOverrides } from "./spam-rules";
import { saveDeployment, storedDeployments } from "./store";

/** How long a failed search for a deployment is kept before a read looks again (the node may have been down). */
export const DEPLOYMENT_RETRY_MS = 60 * 60 * 1000;

/** A collection as a wallet shows it (docs/reference/collections.md): what the index holds and what the chain says. */
export interface Collection {
  contract: string;
  standard: "erc721" | "erc1155";
  name?: string;
  symbol?: string;
  totalSupply?: bigint;
  indexedSupply: bigint;
  holders: number;
  transfers: number;
  firstIndexedBlock: number;
  latestIndexedBlock: number;
  indexComplete: boolean;
  deployment: { block: number | null; deployer: string | null; tx: string | null; reason?: string };
  metadata: CollectionMetadata;
  /** The spam verdict: the classifier's, or the operator's. */
  spam: SpamVerdict;
  /** The block name, symbol and totalSupply were read at. */
  chainBlock: number;
}

/** Why a list's collection has no deployment yet: the list only reads what was found before. */
const NOT_LOOKED_UP = "not looked up yet: GET /collection/{network}/{contract} finds it";

/**
 * Describes collections from their index summaries: name, symbol and totalSupply read at one block (cached per block,
 * three calls per contract sent as multicalls), the contract-level metadata through the token metadata cache, and the
 * deployment (stored once found). `find`: look for deployments not stored yet (one collection's answer); a list
 * reads only those stored, so that its cost does not grow with calls per contract.
 */
export class Collections {
  constructor(private readonly deps: CollectionReaders & { clock: Clock; overrides: SpamOverrides }) {}

  private readonly searches = new Map<string, Promise<Deployment>>();

  async describe(network: string, summaries: readonly ContractSummary[], indexed: number, find: boolean): Promise<Collection[]> {
    if (summaries.length === 0) return [];
    const { calls, heads, tokenMetadata, gateways } = this.deps;
    const contracts = summaries.map((s) => s.contract);
    const chainBlock = Math.max(await heads.latest(network), indexed);
    const single = find && summaries.length === 1;
    const [facts, documents, deployments] = await Promise.all([
      readChainFacts(calls, network, chainBlock, contracts),
      single
        ? tokenMetadata.collection(network, contracts[0]).then((resolved) => new Map([[contracts[0], resolved]]))
        : tokenMetadata.collections(network, contracts),
      this.deployments(network, summaries, find),
    ]);
    return summaries.map((s, i) => ({
      contract: getAddress(s.contract),
      standard: s.standard,
      ...facts[i],
      indexedSupply: BigInt(s.supply),
      holders: s.holders,
      transfers: s.transfers,
      firstIndexedBlock: s.firstBlock,
      latestIndexedBlock: s.lastBlock,
      indexComplete: !s.incomplete,
      deployment: wireDeployment(deployments.get(s.contract)),
      metadata: collectionMetadata(documents.get(s.contract)!, gateways),
      spam: servedVerdict(network, s.contract, s.spam, this.deps.overrides),
      chainBlock,
    }));
  }

  /**
   * Whether a collection is served as spam, from its stored flag (null: never classified) as a page statement read it
   * beside its items: the operator's lists applied, no statement of its own. The filter of `?spam=exclude`.
   */
  isSpam(network: string, contract: string, stored: boolean | null | undefined): boolean {
    const verdict = stored === null || stored === undefined ? undefined : { flag: stored, reasons: [] };
    return servedVerdict(network, contract, verdict, this.deps.overrides).flag;
  }

  /**
   * Which of `contracts` (lower case) are flagged as spam, the operator's lists applied: one statement for all of them,
   * for a feed whose own statement does not read the flags.
   */
  async flagged(network: string, contracts: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(contracts)];
    const stored = await spamVerdicts(this.deps.db, network, unique);
    return new Set(unique.filter((c) => servedVerdict(network, c, stored.get(c), this.deps.overrides).flag));
  }

  private async deployments(network: string, summaries: readonly ContractSummary[], find: boolean): Promise<Map<string, Deployment>> {
    const stored = await storedDeployments(
      this.deps.db,
      network,
      summaries.map((s) => s.contract),
    );
    const found = new Map<string, Deployment>();
    const now = this.deps.clock();
    for (const s of summaries) {
      const known = stored.get(s.contract);
      if (known && (known.retryAt === null || known.retryAt.getTime() > now || !find)) found.set(s.contract, known.deployment);
      else if (find) found.set(s.contract, await this.search(network, s));
    }
    return found;
  }

  /** One search per contract at a time on this instance; what it finds is stored (a failure with a time to retry). */
  private search(network: string, summary: ContractSummary): Promise<Deployment> {
    const key = `${network}:${summary.contract}`;
    let pending = this.searches.get(key);
    if (!pending) {
      pending = (async () => {
        const provider = this.deps.networks.provider(network);
        const deployment = await findDeployment(network, provider, summary.contract, summary.firstBlock);
        await saveDeployment(
          this.deps.db,
          { network, contract: summary.contract },
          deployment,
          new Date(this.deps.clock() + DEPLOYMENT_RETRY_MS),
        );
        return deployment;
      })().finally(() => this.searches.delete(key));
      this.searches.set(key, pending);
    }
    return pending;
  }
}

function wireDeployment(deployment: Deployment | undefined): Collection["deployment"] {
  if (!deployment) return { block: null, deployer: null, tx: null, reason: NOT_LOOKED_UP };
  if (!deployment.found) return { block: null, deployer: null, tx: null, reason: deployment.reason };
  return {
    block: deployment.block,
    deployer: deployment.deployer && getAddress(deployment.deployer),
    tx: deployment.tx,
    ...(deployment.reason ? { reason: deployment.reason } : {}),
  };
}
