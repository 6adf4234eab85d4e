import type { JsonRpcProvider } from "ethers";
import type { LocalNode } from "../../local/node";
import { startTestApp, type TestApp, type TestAppOptions } from "./app";
import { providerFor, sharedNode, startLocalNode } from "./chain";
import { indexedTo } from "./index-check";

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

  get url(): string {
    return this.node.url;
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
