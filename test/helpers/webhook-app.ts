import type { JsonRpcProvider } from "ethers";
import type { LocalNode } from "../../local/node";
import { AliceNFT__factory, type AliceNFT } from "../../typechain-types";
import { startTestApp, type TestApp } from "./app";
import { providerFor, startLocalNode } from "./chain";
import { indexedTo } from "./index-check";
import { startReceiver, WEBHOOKS_ENV, type Receiver } from "./webhook-receiver";
import { subscribe } from "../../server/webhooks/subscribe";
import type { SubscriptionInput } from "../../server/webhooks/subscriptions";

/**
 * A chain of its own (reorgs may be made on it) with an ERC-721 deployed, and an app that indexes it and delivers
 * webhooks to receivers on this machine (WEBHOOKS_ENV, then `env`; over HTTP with `listen`); `receiver` starts receivers that
 * `closeReceivers` (after each test) and `close` stop; `instance` starts another instance on the same database.
 */
export async function startWebhookApp(env: Record<string, string> = {}, options: { listen?: boolean } = {}) {
  const node: LocalNode = await startLocalNode();
  const provider: JsonRpcProvider = providerFor(node.url);
  const deployer = await provider.getSigner(0);
  const alice: AliceNFT = await new AliceNFT__factory(deployer).deploy(deployer.address);
  const t: TestApp = await startTestApp({ listen: options.listen, env: { RPC_URL_LOCALHOST: node.url, ...WEBHOOKS_ENV, ...env } });
  await indexedTo(t.app.db, "localhost", provider);
  const receivers: Receiver[] = [];
  const instances: TestApp[] = [];
  let nextId = 1n;
  return {
    t,
    provider,
    /** Mints the next token id to `to`; resolves to the transaction's hash once mined. */
    async mint(to: string): Promise<string> {
      return (await (await alice.mint(to, nextId++)).wait())!.hash;
    },
    /** Leaves `count` token ids unused (after a reorg, the ids the chain forgot may be minted again otherwise). */
    skipIds(count: bigint): void {
      nextId += count;
    },
    async receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
      const started = await startReceiver(...args);
      receivers.push(started);
      return started;
    },
    /** The operator's subscription of `url` to the local chain, `input` as given (the network's default confirmations apply). */
    subscribe(url: string, input: Partial<SubscriptionInput> = {}) {
      return subscribe(t.app.db, {
        input: { network: "localhost", url, ...input },
        clientId: null,
        config: t.config.webhooks,
        served: ["localhost"],
        now: t.clock.now(),
      });
    },
    /** Another instance of the service on the same database and chain, its indexer off (as `env` says then `extra`). */
    async instance(extra: Record<string, string> = {}): Promise<TestApp> {
      const other = await startTestApp({
        database: t.database,
        env: { RPC_URL_LOCALHOST: node.url, ...WEBHOOKS_ENV, ...env, INDEXER: "false", ...extra },
      });
      instances.push(other);
      return other;
    },
    async closeReceivers(): Promise<void> {
      for (const receiver of receivers.splice(0)) await receiver.close();
    },
    alice,
    async close(): Promise<void> {
      await this.closeReceivers();
      for (const instance of instances.splice(0)) await instance.close();
      await t.close();
      provider.destroy();
      await node.stop();
    },
  };
}

export type WebhookApp = Awaited<ReturnType<typeof startWebhookApp>>;
