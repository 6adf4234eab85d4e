import { expect } from "chai";
import { Wallet } from "ethers";
import type { TestApp } from "../../helpers/app";
import { sample } from "../../helpers/metrics";
import { startWebhookApp, type WebhookApp } from "../../helpers/webhook-app";
import type { Receiver } from "../../helpers/webhook-receiver";

describe("webhooks: several instances on one database", function () {
  this.timeout(180_000);
  let w: WebhookApp;
  let instances: TestApp[];

  before(async function () {
    // Few slots each: neither instance can take every subscription at once.
    w = await startWebhookApp({ WEBHOOKS_CONCURRENCY: "3" });
    instances = [w.t, await w.instance()];
  });
  afterEach(async () => w.closeReceivers());
  after(async () => w?.close());

  it("both deliver; each change of a subscription goes out once, in order, never two of one subscription at once", async function () {
    const owner = Wallet.createRandom().address;
    const hooks: Array<{ receiver: Receiver; secret: string }> = [];
    for (let i = 0; i < 10; i++) {
      // Slow enough answers that the instances' claims overlap.
      const receiver = await w.receiver(() => ({ status: 204, delayMs: 60 }));
      hooks.push({ receiver, secret: (await w.subscribe(receiver.url, { owners: [owner] })).secret });
    }
    const delivered = async () =>
      Promise.all(
        instances.map(
          async (i) => sample(await i.app.metrics!.registry.metrics(), "webhook_deliveries_total", { result: "delivered" }) ?? 0,
        ),
      );
    const before = await delivered();
    const txs: string[] = [];
    for (let n = 0; n < 6; n++) txs.push(await w.mint(owner));
    for (const { receiver } of hooks) await receiver.until((r) => r.length >= txs.length, "every change", 60_000);
    // Nothing more comes: no change was sent twice.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (const { receiver, secret } of hooks) {
      expect(receiver.verified(secret, w.t.clock.now).map((d) => d.data.tx)).to.deep.equal(txs);
      expect(receiver.received).to.have.length(txs.length);
      expect(receiver.mostInFlight).to.equal(1);
    }
    const after = await delivered();
    const counts = after.map((n, i) => n - before[i]);
    expect(counts[0] + counts[1]).to.equal(hooks.length * txs.length);
    // Each instance delivered some.
    expect(counts[0], "the first instance's deliveries").to.be.above(0);
    expect(counts[1], "the second instance's deliveries").to.be.above(0);
  });
});
