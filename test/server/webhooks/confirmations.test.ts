import { expect } from "chai";
import { Wallet, type JsonRpcProvider } from "ethers";
import type { SubscriptionInput } from "../../../server/webhooks/subscriptions";
import type { TestApp } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { startWebhookApp, type WebhookApp } from "../../helpers/webhook-app";

describe("webhooks: confirmations", function () {
  this.timeout(180_000);
  let w: WebhookApp;
  let t: TestApp;
  let provider: JsonRpcProvider;

  before(async function () {
    w = await startWebhookApp({ WEBHOOKS_CONFIRMATIONS: "localhost:2" });
    ({ t, provider } = w);
  });
  afterEach(async () => w.closeReceivers());
  after(async () => w?.close());

  /** A receiver and a subscription to the transfers of `owner` (and their removals) delivered to it. */
  async function subscribed(owner: string, input: Partial<SubscriptionInput> = {}) {
    const receiver = await w.receiver();
    const { subscription, secret } = await w.subscribe(receiver.url, { owners: [owner], ...input });
    return { receiver, subscription, secret };
  }
  const mine = async (blocks: number) => {
    for (let i = 0; i < blocks; i++) await provider.send("evm_mine", []);
  };
  /** Every request the workers had a chance to send has been sent: the index is at the head and the workers looked again. */
  const settled = async () => {
    await indexedTo(t.app.db, "localhost", provider);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  };
  const delivered = (receiver: Awaited<ReturnType<typeof subscribed>>) =>
    receiver.receiver.verified(receiver.secret, t.clock.now).map((d) => [d.type, d.data.tx]);

  it("delivers a change once its block has the subscription's confirmations on top, and not before", async function () {
    const owner = Wallet.createRandom().address;
    const waiting = await subscribed(owner, { confirmations: 3 });
    const atOnce = await subscribed(owner, { confirmations: 0 });
    expect(waiting.subscription.confirmations).to.equal(3);
    const tx = await w.mint(owner);
    const block = (await provider.getTransactionReceipt(tx))!.blockNumber;
    await atOnce.receiver.until((r) => r.length === 1, "the delivery at once");
    await mine(2);
    await settled();
    expect(waiting.receiver.received).to.deep.equal([]);
    // It waits for its block without being claimed again for each look of the workers.
    const { rows } = await t.app.db.query<{ wait_block: string }>("SELECT wait_block::text FROM webhook_subscriptions WHERE id = $1", [
      waiting.subscription.id,
    ]);
    expect(rows[0].wait_block).to.equal(String(block + 3));
    await mine(1);
    await waiting.receiver.until((r) => r.length === 1, "the delivery three blocks deep");
    expect(delivered(waiting)).to.deep.equal([["transfer", tx]]);
    expect(delivered(atOnce)).to.deep.equal([["transfer", tx]]);
  });

  it("takes the network's default from WEBHOOKS_CONFIRMATIONS when a subscription names none", async function () {
    const { subscription } = await subscribed(Wallet.createRandom().address);
    expect(subscription.confirmations).to.equal(2);
  });

  it("a reorg shallower than the confirmations never reaches the receiver; one subscribed at once gets the transfer and its removal", async function () {
    const owner = Wallet.createRandom().address;
    const waiting = await subscribed(owner, { confirmations: 3 });
    const atOnce = await subscribed(owner, { confirmations: 0 });
    const snapshot = await provider.send("evm_snapshot", []);
    const undone = await w.mint(owner);
    await mine(1);
    await atOnce.receiver.until((r) => r.length === 1, "the transfer at once");
    await settled();
    expect(waiting.receiver.received).to.deep.equal([]);
    // Two blocks undone: less than three deep.
    await provider.send("evm_revert", [snapshot]);
    w.skipIds(100n);
    const replacement = await w.mint(owner);
    await mine(4);
    await atOnce.receiver.until((r) => r.length === 3, "the removal and the replacement");
    await waiting.receiver.until((r) => r.length === 1, "the replacement, three blocks deep");
    await settled();
    expect(delivered(atOnce)).to.deep.equal([
      ["transfer", undone],
      ["removed", undone],
      ["transfer", replacement],
    ]);
    expect(delivered(waiting)).to.deep.equal([["transfer", replacement]]);
  });

  it("a reorg deeper than the confirmations retracts what was delivered: the transfer, then its removal", async function () {
    const owner = Wallet.createRandom().address;
    const waiting = await subscribed(owner, { confirmations: 1 });
    const snapshot = await provider.send("evm_snapshot", []);
    const undone = await w.mint(owner);
    await mine(2);
    await waiting.receiver.until((r) => r.length === 1, "the transfer, one block deep");
    // Three blocks undone: deeper than one.
    await provider.send("evm_revert", [snapshot]);
    w.skipIds(100n);
    await mine(5);
    await waiting.receiver.until((r) => r.length === 2, "the removal");
    await settled();
    expect(delivered(waiting)).to.deep.equal([
      ["transfer", undone],
      ["removed", undone],
    ]);
  });
});
