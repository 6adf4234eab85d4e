import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { Wallet, type JsonRpcProvider } from "ethers";
import { sealSecret } from "../../../server/webhooks/secrets";
import { DELIVERY_LOG_MS, pruneDeliveries, setEnabled, type SubscriptionInput } from "../../../server/webhooks/subscriptions";
import type { TestApp } from "../../helpers/app";
import { startWebhookApp, type WebhookApp } from "../../helpers/webhook-app";
import { indexedTo } from "../../helpers/index-check";
import { sample } from "../../helpers/metrics";
import type { Answer } from "../../helpers/webhook-receiver";

describe("webhooks: delivery", function () {
  this.timeout(120_000);
  let w: WebhookApp;
  let t: TestApp;
  let provider: JsonRpcProvider;

  before(async function () {
    w = await startWebhookApp();
    ({ t, provider } = w);
  });
  afterEach(async () => w.closeReceivers());
  after(async () => w?.close());

  /** A receiver answering as `answer` says, and a subscription to the transfers of a fresh owner delivered to it. */
  async function subscribed(answer?: (request: unknown, count: number) => Answer, input: Partial<SubscriptionInput> = {}) {
    const receiver = await w.receiver(answer);
    const owner = Wallet.createRandom().address;
    const { subscription, secret } = await w.subscribe(receiver.url, { owners: [owner], ...input });
    return { receiver, owner, subscription, secret };
  }
  const state = async (id: string) =>
    (
      await t.app.db.query<{
        enabled: boolean;
        attempts: number;
        last_error: string | null;
        disabled_reason: string | null;
        wait_ms: number;
      }>(
        `SELECT enabled, attempts, last_error, disabled_reason,
           (extract(epoch FROM next_attempt_at) * 1000 - extract(epoch FROM coalesce(failing_since, now())) * 1000)::float8 AS wait_ms
         FROM webhook_subscriptions WHERE id = $1`,
        [id],
      )
    ).rows[0];

  it("delivers each matching change once, in change-log order, signed as Standard Webhooks verifies it", async function () {
    const { receiver, owner, subscription, secret } = await subscribed();
    const other = Wallet.createRandom().address;
    const txs = [await w.mint(owner), await w.mint(other), await w.mint(owner)];
    await receiver.until((r) => r.length >= 2, "two deliveries");
    const deliveries = receiver.verified(secret, t.clock.now);
    expect(deliveries.map((d) => d.data.tx)).to.deep.equal([txs[0], txs[2]]);
    expect(deliveries.map((d) => [d.type, d.network, d.subscription])).to.deep.equal([
      ["transfer", "localhost", subscription.id],
      ["transfer", "localhost", subscription.id],
    ]);
    // The webhook-id is the change log's id: the event stream's id of the same change.
    expect(receiver.received.map((r) => r.id)).to.deep.equal(deliveries.map((d) => d.id));
    expect(BigInt(deliveries[1].id)).to.be.above(BigInt(deliveries[0].id));
    expect(deliveries[0].data).to.include({
      to: owner,
      from: "0x0000000000000000000000000000000000000000",
      contract: await w.alice.getAddress(),
    });
    // A wrong secret does not verify.
    expect(() => receiver.verified(`whsec_${randomBytes(24).toString("base64")}`, t.clock.now)).to.throw(/No matching signature/);
  });

  it("retries a receiver that fails with exponential backoff, then delivers everything in order", async function () {
    const { receiver, owner, subscription, secret } = await subscribed((_, count) => (count <= 2 ? { status: 500 } : { status: 200 }));
    const txs = [await w.mint(owner), await w.mint(owner)];
    await receiver.until((r) => r.length === 1, "the first attempt");
    await untilState(subscription.id, (s) => s.attempts === 1);
    const first = await state(subscription.id);
    expect(first.last_error).to.equal("the endpoint answered 500");
    // 30 s ± 20 %.
    expect(first.wait_ms).to.be.within(24_000, 36_000);
    t.clock.advance(40_000);
    await receiver.until((r) => r.length === 2, "the second attempt");
    await untilState(subscription.id, (s) => s.attempts === 2);
    // 60 s ± 20 % after the second failure: so at most 40 + 72 s after the first.
    expect((await state(subscription.id)).wait_ms).to.be.within(40_000 + 48_000, 40_000 + 72_000 + 1_000);
    t.clock.advance(80_000);
    await receiver.until((r) => r.length === 4, "both deliveries");
    expect(receiver.received.map((r) => r.id)).to.deep.equal([...new Array(3).fill(receiver.received[0].id), receiver.received[3].id]);
    expect(receiver.verified(secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal(txs);
    await untilState(subscription.id, (s) => s.attempts === 0 && s.last_error === null);
  });

  it("waits as long as a 429's Retry-After says, and retries a reset connection", async function () {
    const { receiver, owner, subscription, secret } = await subscribed((_, count) =>
      count === 1 ? { status: 429, headers: { "retry-after": "50" } } : count === 2 ? "reset" : { status: 204 },
    );
    const tx = await w.mint(owner);
    await untilState(subscription.id, (s) => s.attempts === 1);
    const limited = await state(subscription.id);
    expect(limited.last_error).to.equal("the endpoint answered 429 Too Many Requests");
    // Longer than the first step of the backoff (30 s ± 20 %): the receiver's word counts.
    expect(limited.wait_ms).to.be.within(50_000, 51_000);
    t.clock.advance(51_000);
    await untilState(subscription.id, (s) => s.attempts === 2);
    expect((await state(subscription.id)).last_error).to.match(/^the connection failed/);
    t.clock.advance(80_000);
    await receiver.until((r) => r.length === 3, "the delivery");
    expect(receiver.verified(secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([tx]);
  });

  it("a receiver that never answers times out and holds only its own subscription", async function () {
    const slow = await subscribed(() => "hang");
    const fast = await subscribed(undefined, { owners: [slow.owner] });
    const tx = await w.mint(slow.owner);
    await fast.receiver.until((r) => r.length === 1, "the fast receiver's delivery");
    expect(fast.receiver.verified(fast.secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([tx]);
    await untilState(slow.subscription.id, (s) => s.attempts === 1);
    expect((await state(slow.subscription.id)).last_error).to.equal("no answer within 1000 ms");
    expect(slow.receiver.received).to.have.length(1);
  });

  it("410 Gone disables the subscription with the reason kept; enabling it resumes where it stopped", async function () {
    let gone = true;
    const { receiver, owner, subscription, secret } = await subscribed(() => (gone ? { status: 410 } : { status: 200 }));
    const first = await w.mint(owner);
    await untilState(subscription.id, (s) => !s.enabled);
    expect(await state(subscription.id)).to.include({ enabled: false, disabled_reason: "the endpoint answered 410 Gone" });
    const second = await w.mint(owner);
    await indexedTo(t.app.db, "localhost", provider);
    gone = false;
    await setEnabled(t.app.db, { id: subscription.id, clientId: null, enabled: true, now: t.clock.now() });
    await receiver.until((r) => r.length === 3, "both deliveries after enabling");
    expect(receiver.verified(secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([first, second]);
  });

  it("sustained failure disables the subscription after WEBHOOKS_DISABLE_AFTER_MS, with the last failure as its reason", async function () {
    const { owner, subscription } = await subscribed(() => ({ status: 503 }));
    await w.mint(owner);
    await untilState(subscription.id, (s) => s.attempts === 1);
    t.clock.advance(40_000);
    await untilState(subscription.id, (s) => s.attempts === 2);
    expect((await state(subscription.id)).enabled).to.equal(true);
    t.clock.advance(80_000);
    await untilState(subscription.id, (s) => !s.enabled);
    expect((await state(subscription.id)).disabled_reason).to.match(
      /^deliveries failed for 2 minutes; the last: the endpoint answered 503$/,
    );
  });

  it("a reorg delivers removed for the transfer it undid, after it, then what replaced it", async function () {
    const { receiver, owner, secret } = await subscribed();
    const snapshot = await provider.send("evm_snapshot", []);
    const undone = await w.mint(owner);
    await receiver.until((r) => r.length === 1, "the transfer");
    await provider.send("evm_revert", [snapshot]);
    w.skipIds(100n);
    const replacement = await w.mint(owner);
    await w.mint(Wallet.createRandom().address);
    await receiver.until((r) => r.length === 3, "the removal and the replacement");
    const deliveries = receiver.verified(secret, t.clock.now);
    expect(deliveries.map((d) => [d.type, d.data.tx])).to.deep.equal([
      ["transfer", undone],
      ["removed", undone],
      ["transfer", replacement],
    ]);
    expect(deliveries[1].data).to.deep.equal(deliveries[0].data);
  });

  it("the change log keeps what a subscription has not delivered past its day; what every subscription delivered goes", async function () {
    const { receiver, owner, subscription } = await subscribed(() => ({ status: 500 }));
    const tx = await w.mint(owner);
    await untilState(subscription.id, (s) => s.attempts === 1);
    // Every change is two days old; the hold is set as each instance sets it every minute.
    await t.app.db.query("UPDATE nft_changes SET created_at = now() - interval '2 days'");
    await t.app.db.query(
      "INSERT INTO nft_change_holds (holder, after_id) SELECT 'webhooks', min(cursor) FROM webhook_subscriptions WHERE enabled ON CONFLICT (holder) DO UPDATE SET after_id = excluded.after_id",
    );
    // The next range written near the head prunes.
    await w.mint(Wallet.createRandom().address);
    await indexedTo(t.app.db, "localhost", provider);
    const { rows } = await t.app.db.query<{ id: string; created_at: Date }>("SELECT id::text, created_at FROM nft_changes ORDER BY id");
    const cursor = BigInt(
      (await t.app.db.query<{ cursor: string }>("SELECT min(cursor)::text AS cursor FROM webhook_subscriptions WHERE enabled")).rows[0]
        .cursor,
    );
    expect(rows.filter((r) => BigInt(r.id) <= cursor && r.created_at.getTime() < Date.now() - 86_400_000)).to.deep.equal([]);
    expect(rows.some((r) => BigInt(r.id) > cursor && r.created_at.getTime() < Date.now() - 86_400_000)).to.equal(true);
    receiver.answer = () => ({ status: 200 });
    t.clock.advance(40_000);
    await receiver.until((r) => r.some((d) => typeof d.answer === "object" && d.answer.status === 200), "the delivery");
    expect(JSON.parse(receiver.accepted[0].body).data.tx).to.equal(tx);
  });

  it("a secret no key of WEBHOOKS_SECRET_KEYS opens fails as `secret`, sends nothing, and is retried: the key back, it delivers", async function () {
    const { receiver, owner, subscription, secret } = await subscribed();
    const stored = await t.app.db.query<{ secret: Buffer }>("SELECT secret FROM webhook_subscriptions WHERE id = $1", [subscription.id]);
    // Sealed under a key the service no longer lists.
    await t.app.db.query("UPDATE webhook_subscriptions SET secret = $2 WHERE id = $1", [
      subscription.id,
      sealSecret(secret, subscription.id, [randomBytes(32)]),
    ]);
    const tx = await w.mint(owner);
    await untilState(subscription.id, (s) => s.attempts === 1);
    expect(await state(subscription.id)).to.include({
      enabled: true,
      last_error: `the secret of webhook subscription ${subscription.id} opens with none of WEBHOOKS_SECRET_KEYS`,
    });
    const { rows } = await t.app.db.query<{ failure: string; status: number | null }>(
      "SELECT failure, status FROM webhook_deliveries WHERE subscription_id = $1",
      [subscription.id],
    );
    expect(rows).to.deep.equal([{ failure: "secret", status: null }]);
    expect(receiver.received).to.deep.equal([]);
    await t.app.db.query("UPDATE webhook_subscriptions SET secret = $2 WHERE id = $1", [subscription.id, stored.rows[0].secret]);
    t.clock.advance(40_000);
    await receiver.until((r) => r.length === 1, "the delivery once the key is back");
    expect(receiver.verified(secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([tx]);
  });

  it("shows a failing subscription's oldest undelivered change and the disabled ones in the metrics; the log keeps attempts three days", async function () {
    // The earlier tests' subscriptions would change the counts meanwhile (moving the clock makes their retries due).
    await t.app.db.query("DELETE FROM webhook_subscriptions");
    // Its retry asked for an hour away: the ten minutes the clock moves make it failing for longer than
    // WEBHOOKS_DISABLE_AFTER_MS, so a retry due meanwhile would disable it while its metrics are read.
    const { owner, subscription } = await subscribed(() => ({ status: 503, headers: { "retry-after": "3600" } }));
    await w.mint(owner);
    await untilState(subscription.id, (s) => s.attempts === 1);
    t.clock.advance(600_000);
    const metrics = async () => {
      // One scrape's gauges share one read, until the next turn of the event loop (PGlite may answer within the same turn).
      await new Promise((resolve) => setImmediate(resolve));
      return t.app.metrics!.registry.metrics();
    };
    const logged = await t.app.db.query<{ created_at: Date }>(
      "SELECT c.created_at FROM nft_changes c, webhook_subscriptions s WHERE s.id = $1 AND c.id > s.cursor ORDER BY c.id LIMIT 1",
      [subscription.id],
    );
    const waited = (t.clock.now() - logged.rows[0].created_at.getTime()) / 1_000;
    expect(waited).to.be.above(600);
    expect(sample(await metrics(), "webhook_oldest_undelivered_seconds", { subscription: subscription.id })).to.be.within(
      waited - 1,
      waited + 5,
    );
    expect(sample(await metrics(), "webhook_subscriptions_disabled")).to.equal(0);
    await setEnabled(t.app.db, { id: subscription.id, clientId: null, enabled: false, reason: "maintenance", now: t.clock.now() });
    const text = await metrics();
    expect(sample(text, "webhook_subscriptions_disabled")).to.equal(1);
    // Disabled: no longer counted as waiting (the alert is about enabled subscriptions).
    expect(sample(text, "webhook_oldest_undelivered_seconds", { subscription: subscription.id })).to.equal(undefined);

    const { rows } = await t.app.db.query<{ attempted_at: Date; expires_at: Date }>(
      "SELECT attempted_at, expires_at FROM webhook_deliveries WHERE subscription_id = $1",
      [subscription.id],
    );
    // One attempt logged: it was not retried meanwhile.
    expect(rows).to.have.length(1);
    const expires = rows[0].attempted_at.getTime() + DELIVERY_LOG_MS;
    expect(rows[0].expires_at.getTime()).to.equal(expires);
    await pruneDeliveries(t.app.db, expires - 1_000);
    const kept = await t.app.db.query("SELECT 1 FROM webhook_deliveries WHERE subscription_id = $1", [subscription.id]);
    expect(kept.rows).to.have.length(1);
    await pruneDeliveries(t.app.db, expires + 1_000);
    const gone = await t.app.db.query("SELECT 1 FROM webhook_deliveries WHERE subscription_id = $1", [subscription.id]);
    expect(gone.rows).to.deep.equal([]);
  });

  /** Waits for the subscription's stored state to hold `done`. */
  async function untilState(id: string, done: (s: Awaited<ReturnType<typeof state>>) => boolean, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (!done(await state(id))) {
      if (Date.now() > deadline) throw new Error(`subscription ${id}: gave up waiting (${JSON.stringify(await state(id))})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});
