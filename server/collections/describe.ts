import { checksumAddress } from "../chain/values";
import { spamVerdicts, type ContractSummary, type SpamVerdict } from "../indexer";
import type { Clock } from "../lib/clock";
import type { CachedEntry, Omitted, Resolved } from "../token-metadata";
import { readChainFacts, type ChainFacts } from "./chain-facts";
import type { CollectionReaders } from "./readers";
import { collectionMetadata } from "./contract-metadata";
import type { CollectionMetadata } from "./schemas";
import { findDeployment, type Deployment } from "./deployment";
import type { Queryable } from "../db/database";
import { DescribedPages, type DescribedPage } from "./described-pages";
import { ownerCollectionsPage, type OwnerCollection, type OwnerCollectionsRead } from "./owner-page";
import { collectionJson } from "./wire";
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

/** Contracts' decoded chain facts kept per network (at its latest block read). */
const FACTS_KEPT = 10_000;

/** Described pages kept: by count, and by the characters of their JSON (a page of 1,000 collections is about 600,000). */
const DESCRIBED_PAGES_KEPT = { entries: 1_000, chars: 16 * 1024 * 1024 };

/** What the statement of a page of the contracts of an owner found, with the page's block (for the choice of replica). */
export interface OwnerPageFound {
  indexed: number;
  incomplete?: true;
  read: OwnerCollectionsRead;
}

/** Why a list's collection has no deployment yet: the list only reads what was found before. */
const NOT_LOOKED_UP = "not looked up yet: GET /collection/{network}/{contract} finds it";

/**
 * Describes collections from their index summaries: name, symbol and totalSupply read at one block (cached per block,
 * three calls per contract sent as multicalls), the contract-level metadata through the token metadata cache, and the
 * deployment (stored once found). One collection's answer looks for a deployment not stored yet; a page of them reads
 * only those stored, so that its cost does not grow with calls per contract.
 */
export class Collections {
  constructor(private readonly deps: CollectionReaders & { clock: Clock; overrides: SpamOverrides }) {}

  private readonly searches = new Map<string, Promise<Deployment>>();

  /** Pages of the contracts of an owner with details, as served (describeOwnerPage). */
  private readonly pages = new DescribedPages(DESCRIBED_PAGES_KEPT);

  /**
   * Name, symbol and totalSupply decoded and cleaned at the latest block read of each network, by contract: a block's
   * answers never change, and a newer block replaces them (at most FACTS_KEPT contracts, then it starts again).
   */
  private readonly decodedFacts = new Map<string, { block: number; facts: Map<string, ChainFacts> }>();

  /**
   * One collection's description (GET /collection): its deployment looked for when none is stored, or when a failed
   * search may be tried again, and its contract-level document waited for (within METADATA_FETCH_WAIT_MS) when the
   * cache holds none fresh.
   */
  async describe(network: string, summary: ContractSummary, indexed: number): Promise<Collection> {
    const { contract } = summary;
    const chainBlock = Math.max(await this.deps.heads.latest(network), indexed);
    const [[facts], document, deployment] = await Promise.all([
      this.facts(network, chainBlock, [contract]),
      this.deps.tokenMetadata.collection(network, contract),
      this.deployment(network, summary),
    ]);
    return this.assemble(network, { summary, facts, document, deployment, chainBlock });
  }

  /**
   * A page of the contracts of an owner with details, as served (JSON), from its one statement (ownerCollectionsPage,
   * run by `read`: on a replica or the primary). A page described before is served again without decoding or
   * describing anything while the statement finds the same fingerprint (every value it reads: holdings, summaries,
   * holder counts, spam flags, deployments, documents and their expiry), its chain facts' block is still the one and
   * none of its documents is missing or stale (those are read again in the background, as a page described anew does).
   */
  async describeOwnerPage(
    query: { network: string; owner: string; after?: string; limit: number; budget: number; excludeSpam: boolean },
    read: (run: (db: Queryable) => Promise<OwnerPageFound | undefined>) => Promise<OwnerPageFound>,
  ): Promise<DescribedPage> {
    const { network, excludeSpam } = query;
    const key = JSON.stringify([network, query.owner, query.after ?? "", query.limit, query.budget, excludeSpam]);
    const kept = this.pages.get(key);
    const known = kept && kept.refreshAt > this.deps.clock() && (await this.sameChainBlock(network, kept)) ? kept : undefined;
    const found = await read(async (db) => {
      const page = await ownerCollectionsPage(db, { ...query, known: known?.fingerprint });
      if (!page) return undefined;
      return page.unchanged ? { indexed: known!.indexed, incomplete: known!.incomplete, read: page } : { ...page.page, read: page };
    });
    if (found.read.unchanged) return known!;
    const { fingerprint, page } = found.read;
    // Spam is left out before it is described: its chain facts and documents are not worked on.
    const items = excludeSpam ? page.items.filter((c) => !this.isSpam(network, c.summary.contract, c.summary.spam?.flag)) : page.items;
    // A page without collections reads no chain facts, so it asks the node nothing (as its answer does not depend on it).
    const chainBlock = items.length === 0 ? undefined : Math.max(await this.deps.heads.latest(network), page.indexed);
    const described = chainBlock === undefined ? [] : await this.describePage(network, items, chainBlock);
    const refreshAt = Math.min(...items.map((c) => (c.document ? c.document.expiresAt.getTime() : -Infinity)));
    const { indexed, next, incomplete } = page;
    const served: DescribedPage = {
      fingerprint,
      chainBlock,
      refreshAt,
      indexed,
      next,
      incomplete,
      json: `[${described.map(collectionJson).join(",")}]`,
    };
    this.pages.set(key, served);
    return served;
  }

  /** Whether a described page's chain facts were read at the block they would be read at now (or it has none). */
  private async sameChainBlock(network: string, page: DescribedPage): Promise<boolean> {
    return page.chainBlock === undefined || Math.max(await this.deps.heads.latest(network), page.indexed) === page.chainBlock;
  }

  /**
   * The collections of a page of the contracts of an owner, from what the page's one statement read of them
   * (ownerCollectionsPage: summaries, stored deployments, cached documents): no statement of its own, and its cost
   * does not grow with calls per contract. A deployment not found before has a reason instead; a document missing or
   * stale is read in the background, not waited for.
   */
  private async describePage(network: string, page: readonly OwnerCollection[], chainBlock: number): Promise<Collection[]> {
    const contracts = page.map((c) => c.summary.contract);
    const facts = await this.facts(network, chainBlock, contracts);
    const cached = new Map<string, CachedEntry>();
    for (const c of page) if (c.document) cached.set(c.summary.contract, c.document);
    const documents = this.deps.tokenMetadata.collectionsCached(network, contracts, cached);
    return page.map((c, i) =>
      this.assemble(network, {
        summary: c.summary,
        facts: facts[i],
        document: documents.get(c.summary.contract)!,
        deployment: c.deployment?.deployment,
        chainBlock,
      }),
    );
  }

  private assemble(
    network: string,
    parts: { summary: ContractSummary; facts: ChainFacts; document: Resolved | Omitted; deployment?: Deployment; chainBlock: number },
  ): Collection {
    const { summary: s, facts, document, deployment, chainBlock } = parts;
    return {
      contract: checksumAddress(s.contract),
      standard: s.standard,
      ...facts,
      indexedSupply: BigInt(s.supply),
      holders: s.holders,
      transfers: s.transfers,
      firstIndexedBlock: s.firstBlock,
      latestIndexedBlock: s.lastBlock,
      indexComplete: !s.incomplete,
      deployment: wireDeployment(deployment),
      metadata: collectionMetadata(document, this.deps.gateways),
      spam: servedVerdict(network, s.contract, s.spam, this.deps.overrides),
      chainBlock,
    };
  }

  /**
   * name(), symbol() and totalSupply() of each contract at `block`, decoded once per block and contract: a page read
   * again at the same block decodes nothing (the calls are cached per block by BlockCalls, their decoding here).
   */
  private async facts(network: string, block: number, contracts: readonly string[]): Promise<ChainFacts[]> {
    let kept = this.decodedFacts.get(network);
    const known = kept?.block === block ? contracts.map((c) => kept!.facts.get(c)) : [];
    if (known.length > 0 && known.every((f) => f !== undefined)) return known as ChainFacts[];
    const read = await readChainFacts(this.deps.calls, network, block, contracts);
    kept = this.decodedFacts.get(network);
    // An older block's answers (a read that started before the head moved) are not kept.
    if (!kept || kept.block < block || kept.facts.size + contracts.length > FACTS_KEPT)
      this.decodedFacts.set(network, (kept = { block, facts: new Map() }));
    if (kept.block === block) contracts.forEach((c, i) => kept.facts.set(c, read[i]));
    return read;
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

  /** The stored deployment, or a search's when none is stored or a failed one may be tried again. */
  private async deployment(network: string, summary: ContractSummary): Promise<Deployment> {
    const known = (await storedDeployments(this.deps.db, network, [summary.contract])).get(summary.contract);
    if (known && (known.retryAt === null || known.retryAt.getTime() > this.deps.clock())) return known.deployment;
    return this.search(network, summary);
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
    deployer: deployment.deployer && checksumAddress(deployment.deployer),
    tx: deployment.tx,
    ...(deployment.reason ? { reason: deployment.reason } : {}),
  };
}
