import type { JsonRpcProvider } from "ethers";
import { rpc } from "../chain/networks";
import {
  contractsToClassify,
  contractSummaries,
  recordSpamVerdicts,
  sampleMints,
  type ContractSummary,
  type SpamVerdict,
} from "../indexer";
import { BoundedCache } from "../lib/bounded-cache";
import { Repeating } from "../lib/repeating";
import { readChainFacts } from "./chain-facts";
import type { CollectionReaders } from "./readers";
import { collectionMetadata } from "./contract-metadata";
import { classify } from "./spam-rules";

/** Contracts classified per network and pass. */
const BATCH = 100;
/** Of a contract whose airdrop the senders would decide: its first transfers read, and the mint transactions whose sender is asked. */
const SAMPLE_SCAN = 200;
const SAMPLE_TRANSACTIONS = 8;
/** Senders of mint transactions kept (a transaction's sender never changes): most contracts are classified many times. */
const SENDERS_KEPT = 10_000;

/**
 * Classifies collections as the index changes, never per read: each pass takes, per network, the contracts never
 * classified or whose transfers changed since (their summaries say), reads what the rules need (name, symbol and
 * totalSupply in one multicall per 33 contracts, the contract-level documents from the metadata cache, and, only for
 * an airdrop nobody moved that is not a mass one, the senders of up to 8 of its first mint transactions) and stores
 * the verdicts. A contract whose document is still being read waits for the next pass, so that its verdict reads it.
 */
export class SpamClassifier {
  private readonly repeating: Repeating;
  /** Sender of each sampled transaction already asked, by network and hash, oldest first (bounded: SENDERS_KEPT). */
  private readonly senders = new BoundedCache<string>(SENDERS_KEPT);

  constructor(
    private readonly deps: CollectionReaders,
    intervalMs: number,
    failed: (error: unknown) => void,
  ) {
    this.repeating = new Repeating(intervalMs, () => this.pass(), failed);
  }

  start(): void {
    this.repeating.start();
  }

  stop(): Promise<void> {
    return this.repeating.stop();
  }

  /** One pass over every configured network; how many contracts it classified. */
  async pass(): Promise<number> {
    let classified = 0;
    for (const network of this.deps.networks.configured()) classified += await this.classifyNetwork(network);
    return classified;
  }

  private async classifyNetwork(network: string): Promise<number> {
    const { db, heads, calls, tokenMetadata, gateways } = this.deps;
    const contracts = await contractsToClassify(db, network, BATCH);
    if (contracts.length === 0) return 0;
    const read = await contractSummaries(db, network, contracts);
    if (!read) return 0;
    const summaries = contracts.map((c) => read.summaries.get(c)).filter((s): s is ContractSummary => s !== undefined);
    const block = Math.max(await heads.latest(network), read.indexed);
    const [facts, documents] = await Promise.all([
      readChainFacts(
        calls,
        network,
        block,
        summaries.map((s) => s.contract),
      ),
      tokenMetadata.collections(
        network,
        summaries.map((s) => s.contract),
      ),
    ]);
    const verdicts: Array<SpamVerdict & { contract: string; transfers: number }> = [];
    for (const [i, s] of summaries.entries()) {
      const document = documents.get(s.contract)!;
      if (!("omitted" in document) && document.error === "pending") continue;
      const metadata = collectionMetadata(document, gateways);
      const inputs = {
        standard: s.standard,
        texts: [facts[i].name, facts[i].symbol, metadata.name, metadata.description, metadata.externalLink],
        totalSupply: facts[i].totalSupply,
        indexedSupply: BigInt(s.supply),
        indexComplete: !s.incomplete,
        holders: s.holders,
        moved: s.moved,
        mostMintedTo: s.mostMintedTo,
        mintedToOthers: { others: 0, all: 0, transactions: 0 },
      };
      // The senders decide only an airdrop nobody moved that is not a mass one: only then are they asked.
      if (inputs.holders >= 10 && inputs.moved === 0 && inputs.mostMintedTo < 20)
        inputs.mintedToOthers = await this.mintedToOthers(network, s.contract);
      verdicts.push({ contract: s.contract, transfers: s.transfers, ...classify(inputs) });
    }
    await recordSpamVerdicts(db, network, verdicts);
    return verdicts.length;
  }

  /** Of a sample of the contract's first mint transactions: recipients other than the sender, all recipients. */
  private async mintedToOthers(network: string, contract: string): Promise<{ others: number; all: number; transactions: number }> {
    const provider = this.deps.networks.provider(network);
    const sample = await sampleMints(this.deps.db, { network, contract, scan: SAMPLE_SCAN, transactions: SAMPLE_TRANSACTIONS });
    let others = 0;
    let all = 0;
    for (const { tx, recipients } of sample) {
      const sender = await this.sender(network, tx, provider);
      if (sender === undefined) continue;
      all += recipients.length;
      others += recipients.filter((r) => r !== sender).length;
    }
    return { others, all, transactions: sample.length };
  }

  /**
   * The sender of a transaction (lower case), asked once: a contract whose transfers keep changing is classified again
   * at each pass, and its first mints are the same. A reorg can only drop the transaction from the sample.
   */
  private async sender(network: string, tx: string, provider: JsonRpcProvider): Promise<string | undefined> {
    const key = `${network}:${tx}`;
    const known = this.senders.get(key);
    if (known !== undefined) return known;
    const sent = await rpc(network, provider.getTransaction(tx));
    if (!sent) return undefined;
    const sender = sent.from.toLowerCase();
    this.senders.set(key, sender);
    return sender;
  }
}
