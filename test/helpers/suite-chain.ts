import type { JsonRpcProvider, JsonRpcSigner } from "ethers";
import type { LocalNode } from "../../local/node";
import { AliceNFT__factory, type AliceNFT } from "../../typechain-types";
import { startTestApp, type TestApp, type TestAppOptions } from "./app";
import { providerFor, sharedNode, startLocalNode } from "./chain";
import { indexedTo } from "./index-check";
import { suiteFixture } from "./suite-fixture";

/**
 * The chain a suite runs on, a provider on it and the apps the suite started to read it. `close` closes the apps
 * first (they read the node), then the provider, then the node when the suite started it.
 */
export class SuiteChain {
  private readonly apps: Array<{ close(): Promise<void> }> = [];

  private constructor(
    readonly node: LocalNode,
    readonly provider: JsonRpcProvider,
    private readonly owned: boolean,
  ) {}

  /**
   * A node of the suite's own: for a suite that asserts everything its chain holds (holders, history, events) or
   * rewinds it, which the shared node's other tenants would disturb.
   */
  static async ownNode(): Promise<SuiteChain> {
    const node = await startLocalNode();
    return new SuiteChain(node, providerFor(node.url), true);
  }

  /** The node the run's suites share (test/helpers/chain.ts), left running at `close`. */
  static async sharedNode(): Promise<SuiteChain> {
    const node = await sharedNode();
    return new SuiteChain(node, providerFor(node.url), false);
  }

  /**
   * A suite's chain and what `setUp` makes on it, made in the suite's `before` and closed in its `after` (the apps
   * the chain closes with it, then the chain). A test reads it by calling the returned function, typed, where a suite
   * would otherwise keep a list of `let`s assigned in `before`.
   */
  static forSuite<T extends object>(node: "own" | "shared", setUp: (chain: SuiteChain) => Promise<T>): () => T & { chain: SuiteChain } {
    return suiteFixture({
      open: () => (node === "own" ? SuiteChain.ownNode() : SuiteChain.sharedNode()),
      state: async (chain) => ({ ...(await setUp(chain)), chain }),
      close: (chain) => chain.close(),
    });
  }

  get url(): string {
    return this.node.url;
  }

  /** Account `i` of the node; account 0 deploys the suites' contracts. */
  signer(i = 0): Promise<JsonRpcSigner> {
    return this.provider.getSigner(i);
  }

  /** A new AliceNFT owned by account 0, who may mint. */
  async deployAlice(): Promise<AliceNFT> {
    const deployer = await this.signer(0);
    return new AliceNFT__factory(deployer).deploy(deployer.address);
  }

  /**
   * The service indexing this node as localhost every 50 ms (`options.env` adds settings), once it has indexed the
   * node's head; closed with the chain.
   */
  async startIndexingApp(options: TestAppOptions = {}): Promise<TestApp> {
    const env = { RPC_URL_LOCALHOST: this.url, INDEXER_POLL_MS: "50", ...options.env };
    const app = this.closesWith(await startTestApp({ ...options, env }));
    await indexedTo(app.app.db, "localhost", this.provider);
    return app;
  }

  /** `app`, to be closed with the chain, before it. */
  closesWith<T extends { close(): Promise<void> }>(app: T): T {
    this.apps.push(app);
    return app;
  }

  async close(): Promise<void> {
    for (const app of this.apps.splice(0).reverse()) await app.close();
    this.provider.destroy();
    if (this.owned) await this.node.stop();
  }
}
