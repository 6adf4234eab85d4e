import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { Wallet } from "ethers";
import { Webhook } from "standardwebhooks";
import { verifyWebhook, WebhookVerificationError } from "../../sdk/src/index";
import { subscribe } from "../../server/webhooks/subscribe";
import { startWebhookApp, type WebhookApp } from "../helpers/webhook-app";
import { rejection } from "../helpers/sdk";

describe("SDK webhook verifier", function () {
  this.timeout(120_000);
  let w: WebhookApp;

  before(async function () {
    w = await startWebhookApp();
  });
  afterEach(async () => w.closeReceivers());
  after(async () => w?.close());

  const expectRefused = async (pending: Promise<unknown>, code: string) => {
    const error = await rejection(pending);
    expect(error).to.be.instanceOf(WebhookVerificationError);
    expect(error).to.have.property("code", code);
  };

  it("verifies the service's deliveries as the standardwebhooks package does, and refuses them altered, forged or stale", async function () {
    const { t } = w;
    const receiver = await w.receiver();
    const owner = Wallet.createRandom().address;
    const { subscription, secret } = await subscribe(t.app.db, {
      input: { network: "localhost", url: receiver.url, owners: [owner] },
      clientId: null,
      config: t.config.webhooks,
      served: ["localhost"],
      now: t.clock.now(),
    });
    const txs = [await w.mint(owner), await w.mint(owner)];
    await receiver.until((r) => r.length >= 2, "two deliveries");
    const byPackage = receiver.verified(secret, t.clock.now);

    const verified = [];
    for (const r of receiver.accepted) {
      const headers = { "webhook-id": r.id, "webhook-timestamp": r.timestamp, "webhook-signature": r.signature };
      verified.push(await verifyWebhook({ secret, body: r.body, headers, now: t.clock.now }));
      // A fetch Headers and the body's bytes do too.
      const bytes = new TextEncoder().encode(r.body);
      expect(await verifyWebhook({ secret, body: bytes, headers: new Headers(headers), now: t.clock.now })).to.deep.equal(verified.at(-1));
    }
    expect(verified.map((d) => [d.id, d.type, d.network, d.subscription, d.data.tx])).to.deep.equal(
      byPackage.map((d) => [d.id, d.type, d.network, d.subscription, d.data.tx]),
    );
    expect(verified.map((d) => d.data.tx)).to.deep.equal(txs);
    expect(verified[0].subscription).to.equal(subscription.id);
    // Integers with all their digits, as every answer of the SDK; times stay numbers.
    expect(verified[0].data.block).to.match(/^\d+$/);
    expect(verified[0].data.time).to.be.a("number");

    const [first] = receiver.accepted;
    const headers = { "webhook-id": first.id, "webhook-timestamp": first.timestamp, "webhook-signature": first.signature };
    const at = t.clock.now;
    expect(first.body).to.include(owner);
    await expectRefused(
      verifyWebhook({ secret, body: first.body.replace(owner, Wallet.createRandom().address), headers, now: at }),
      "invalid_signature",
    );
    await expectRefused(verifyWebhook({ secret, body: `${first.body} `, headers, now: at }), "invalid_signature");
    await expectRefused(
      verifyWebhook({ secret, body: first.body, headers: { ...headers, "webhook-id": `${first.id}0` }, now: at }),
      "invalid_signature",
    );
    const otherSecret = `whsec_${randomBytes(24).toString("base64")}`;
    await expectRefused(verifyWebhook({ secret: otherSecret, body: first.body, headers, now: at }), "invalid_signature");
    const sent = Number(first.timestamp) * 1000;
    await expectRefused(verifyWebhook({ secret, body: first.body, headers, now: () => sent + 301_000 }), "stale_timestamp");
    await expectRefused(verifyWebhook({ secret, body: first.body, headers, now: () => sent - 301_000 }), "stale_timestamp");
    expect(await verifyWebhook({ secret, body: first.body, headers, now: () => sent + 599_000, toleranceSeconds: 600 })).to.have.property(
      "id",
      first.id,
    );
    await expectRefused(verifyWebhook({ secret, body: first.body, headers: { "webhook-id": first.id }, now: at }), "missing_headers");
  });

  it("verifies what the standardwebhooks package signs for the same secret, one of several signatures during a rotation", async function () {
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    const body = JSON.stringify({
      id: "12345678901234567890",
      type: "reset",
      network: "localhost",
      subscription: "ws_x",
      data: { network: "localhost" },
    });
    const timestamp = new Date(1_800_000_000_000);
    const signature = new Webhook(secret).sign("12345678901234567890", timestamp, body);
    const old = new Webhook(`whsec_${randomBytes(32).toString("base64")}`).sign("12345678901234567890", timestamp, body);
    const headers = { "webhook-id": "12345678901234567890", "webhook-timestamp": "1800000000", "webhook-signature": `${old} ${signature}` };
    const now = () => timestamp.getTime();
    expect(await verifyWebhook({ secret, body, headers, now })).to.deep.equal(JSON.parse(body));
    await expectRefused(verifyWebhook({ secret, body, headers: { ...headers, "webhook-signature": old }, now }), "invalid_signature");
    await expectRefused(
      verifyWebhook({ secret, body, headers: { ...headers, "webhook-signature": "v1,not base64!" }, now }),
      "invalid_signature",
    );
    await expectRefused(
      verifyWebhook({ secret, body, headers: { ...headers, "webhook-signature": signature.replace("v1,", "v2,") }, now }),
      "invalid_signature",
    );
  });
});
