import { expect } from "chai";
import { Wallet } from "ethers";
import { listDeliveries } from "../../../server/webhooks/subscriptions";
import type { TestApp } from "../../helpers/app";
import { sample } from "../../helpers/metrics";
import { startWebhookApp, type WebhookApp } from "../../helpers/webhook-app";
import type { Answer, Received } from "../../helpers/webhook-receiver";

const MB = 1_024 * 1_024;

describe("webhooks: receivers that answer 100 MB, redirect or ask to wait", function () {
  this.timeout(120_000);
  let w: WebhookApp;
  let t: TestApp;

  before(async function () {
    w = await startWebhookApp();
    ({ t } = w);
  });
  afterEach(async () => w.closeReceivers());
  after(async () => w?.close());

  async function subscribed(answer?: (request: Received, count: number) => Answer, owner = Wallet.createRandom().address) {
    const receiver = await w.receiver(answer);
    const { subscription, secret } = await w.subscribe(receiver.url, { owners: [owner] });
    return { receiver, owner, subscription, secret };
  }
  const state = async (id: string) =>
    (
      await t.app.db.query<{ enabled: boolean; attempts: number; cursor: string; last_error: string | null; next_attempt_at: Date }>(
        "SELECT enabled, attempts, cursor::text, last_error, next_attempt_at FROM webhook_subscriptions WHERE id = $1",
        [id],
      )
    ).rows[0];
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} (${JSON.stringify(value)})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  /** The subscription's state once `attempts` deliveries in a row have failed. */
  const failedAttempts = (id: string, attempts: number, what: string) =>
    until(
      () => state(id),
      (s) => s.attempts === attempts,
      what,
    );
  const deliveries = (id: string) => listDeliveries(t.app.db, { id, clientId: null, limit: 100 });
  const counted = async (result: string) => sample(await t.app.metrics!.registry.metrics(), "webhook_deliveries_total", { result }) ?? 0;

  it("reads at most 1 KiB of a 2xx answer of 100 MB sent at full speed: delivered, the rest never taken, memory flat", async function () {
    const huge = await subscribed(() => ({ status: 200, stream: { bytes: 100 * MB, chunkBytes: 64 * 1_024, intervalMs: 0 } }));
    const other = await subscribed(undefined, huge.owner);
    const delivered = await counted("delivered");
    const buffers = process.memoryUsage().arrayBuffers;
    let peak = buffers;
    const sampling = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
    const txs = [await w.mint(huge.owner), await w.mint(huge.owner)];
    try {
      await until(
        async () => huge.receiver.received,
        (r) => r.length === 2 && r.every((d) => d.streamed?.closed),
        "both answers closed",
      );
    } finally {
      clearInterval(sampling);
    }
    // The sender closed each answer after its first read past 1 KiB: what it did not read never left the receiver.
    for (const { streamed } of huge.receiver.received) {
      expect(streamed).to.include({ complete: false, closed: true });
      expect(streamed!.written).to.be.below(16 * MB);
    }
    expect(peak - buffers).to.be.below(16 * MB);
    // A 2xx is an accepted delivery: the cursor moved past both, each logged as delivered.
    expect(huge.receiver.verified(huge.secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal(txs);
    const ids = huge.receiver.received.map((r) => r.id);
    await until(
      () => state(huge.subscription.id),
      (s) => s.cursor === ids[1],
      "the cursor past both",
    );
    const log = await deliveries(huge.subscription.id);
    expect(log.map((d) => [d.changeId, d.status, d.failure, d.message])).to.deep.equal([
      [ids[1], 200, null, null],
      [ids[0], 200, null, null],
    ]);
    for (const d of log) expect(d.milliseconds).to.be.below(t.config.webhooks.timeoutMs);
    expect(
      await until(
        () => counted("delivered"),
        (n) => n >= delivered + 4,
        "four deliveries counted",
      ),
    ).to.equal(delivered + 4);
    await other.receiver.until((r) => r.length === 2, "the other subscription's deliveries");
    expect(other.receiver.verified(other.secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal(txs);
  });

  it("a 2xx answer whose 100 MB body trickles holds its own request until WEBHOOKS_TIMEOUT_MS, and nothing else", async function () {
    const slow = await subscribed(() => ({ status: 200, stream: { bytes: 100 * MB, chunkBytes: 16, intervalMs: 50 } }));
    const others = [await subscribed(undefined, slow.owner), await subscribed(undefined, slow.owner)];
    const tx = await w.mint(slow.owner);
    await slow.receiver.until((r) => r.length === 1, "the slow receiver's request");
    // The others are delivered while the slow answer is still coming.
    for (const other of others) await other.receiver.until((r) => r.length === 1, "another subscription's delivery");
    expect(slow.receiver.received[0].streamed).to.include({ closed: false });
    for (const other of others) expect(other.receiver.verified(other.secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([tx]);
    // At the deadline the sender stops reading and closes the connection.
    const streamed = await until(
      async () => slow.receiver.received[0].streamed!,
      (s) => s.closed,
      "the slow answer closed",
      10_000,
    );
    expect(streamed).to.include({ complete: false });
    expect(streamed.written).to.be.below(4 * 1_024);
    // Its 2xx came within the deadline: the change was accepted, as the status says, and is not sent again.
    const log = await until(
      () => deliveries(slow.subscription.id),
      (l) => l.length === 1,
      "the attempt logged",
    );
    expect(log[0]).to.include({ changeId: slow.receiver.received[0].id, status: 200, failure: null, message: null });
    expect(log[0].milliseconds).to.be.within(t.config.webhooks.timeoutMs, t.config.webhooks.timeoutMs + 1_000);
    expect(await state(slow.subscription.id)).to.include({ attempts: 0, cursor: slow.receiver.received[0].id, last_error: null });
  });

  for (const status of [301, 302, 307, 308]) {
    it(`does not follow a ${status}: the redirect's target gets nothing, the attempt fails as a redirect and is retried on schedule`, async function () {
      const target = await w.receiver();
      let redirect = true;
      const { receiver, owner, subscription, secret } = await subscribed(() =>
        redirect ? { status, headers: { location: target.url }, body: "moved" } : { status: 204 },
      );
      const redirects = await counted("redirect");
      const tx = await w.mint(owner);
      const failed = await failedAttempts(subscription.id, 1, "the failed attempt");
      expect(failed).to.include({ enabled: true, last_error: `the endpoint answered ${status} (redirects are not followed)` });
      const [logged] = await deliveries(subscription.id);
      // The first step of the backoff: 30 s ± 20 % after the attempt.
      expect(failed.next_attempt_at.getTime() - logged.attemptedAt.getTime()).to.be.within(24_000, 36_000);
      expect(await counted("redirect")).to.equal(redirects + 1);
      expect(logged).to.include({
        changeId: receiver.received[0].id,
        status,
        failure: "redirect",
        message: `the endpoint answered ${status} (redirects are not followed)`,
      });
      // Nothing is retried before its time; then the same endpoint is asked again, never the redirect's target.
      t.clock.advance(20_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.received).to.have.length(1);
      t.clock.advance(20_000);
      const again = await failedAttempts(subscription.id, 2, "the second failed attempt");
      const [second] = await deliveries(subscription.id);
      expect(second).to.include({ changeId: logged.changeId, status, failure: "redirect" });
      // The second step: 60 s ± 20 %.
      expect(again.next_attempt_at.getTime() - second.attemptedAt.getTime()).to.be.within(48_000, 72_000);
      redirect = false;
      t.clock.advance(80_000);
      await receiver.until((r) => r.length === 3, "the delivery once the endpoint accepts");
      expect(receiver.verified(secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([tx]);
      expect(target.received).to.deep.equal([]);
    });
  }

  it("waits as long as a 503's Retry-After date says, and counts the attempt as a failed status", async function () {
    let unavailable = true;
    const { receiver, owner, subscription, secret } = await subscribed(() =>
      unavailable
        ? { status: 503, headers: { "retry-after": new Date(Math.ceil((t.clock.now() + 120_000) / 1_000) * 1_000).toUTCString() } }
        : { status: 200 },
    );
    const statuses = await counted("status");
    const tx = await w.mint(owner);
    const failed = await failedAttempts(subscription.id, 1, "the failed attempt");
    const [logged] = await deliveries(subscription.id);
    expect(logged).to.include({ status: 503, failure: "status", message: "the endpoint answered 503" });
    // Two minutes, to the second the date names, instead of the backoff's 30 s.
    expect(failed.next_attempt_at.getTime() - logged.attemptedAt.getTime()).to.be.within(119_000, 121_000);
    expect(await counted("status")).to.equal(statuses + 1);
    unavailable = false;
    t.clock.advance(60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).to.have.length(1);
    t.clock.advance(62_000);
    await receiver.until((r) => r.length === 2, "the delivery after the wait");
    expect(receiver.verified(secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([tx]);
  });

  it("does not read a redirect's 100 MB body either", async function () {
    const target = await w.receiver();
    const { receiver, owner, subscription } = await subscribed(() => ({
      status: 302,
      headers: { location: target.url },
      stream: { bytes: 100 * MB, chunkBytes: 64 * 1_024, intervalMs: 0 },
    }));
    await w.mint(owner);
    await until(
      async () => receiver.received,
      (r) => r[0]?.streamed?.closed === true,
      "the answer closed",
    );
    expect(receiver.received[0].streamed!).to.include({ complete: false });
    expect(receiver.received[0].streamed!.written).to.be.below(16 * MB);
    await failedAttempts(subscription.id, 1, "the failed attempt");
    expect((await deliveries(subscription.id))[0]).to.include({ status: 302, failure: "redirect" });
    expect(target.received).to.deep.equal([]);
  });
});
