import { expect } from "chai";
import { Wallet } from "ethers";
import type { TestApp } from "../../helpers/app";
import { startWebhookApp, type WebhookApp } from "../../helpers/webhook-app";
import { sample } from "../../helpers/metrics";
import { expectRefusal } from "../../helpers/refusal";
import { postForm, registerClient } from "../auth/helpers";

describe("webhooks: the HTTP API of registered clients", function () {
  this.timeout(120_000);
  let w: WebhookApp;
  let t: TestApp;

  before(async function () {
    w = await startWebhookApp({ ISSUER: "http://127.0.0.1", WEBHOOKS_MAX_PER_CLIENT: "2", WEBHOOKS_MAX_FILTERS: "3" });
    ({ t } = w);
  });
  afterEach(async () => w.closeReceivers());
  after(async () => w?.close());

  /** A registered confidential client and its client_credentials access token. */
  async function client() {
    const registered = await registerClient(t);
    const { status, body } = await postForm(t, "/token", {
      grant_type: "client_credentials",
      client_id: registered.id,
      client_secret: registered.secret!,
    });
    expect(status).to.equal(200);
    return { id: registered.id, auth: { authorization: `Bearer ${body.access_token}` } };
  }
  const call = (path: string, auth: Record<string, string>, method = "GET", body?: unknown) =>
    t.fetch(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** Waits until the subscription's cursor is at `cursor` (what it delivered is recorded). */
  async function untilCursor(id: string, cursor: string) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await t.app.db.query<{ cursor: string }>("SELECT cursor::text FROM webhook_subscriptions WHERE id = $1", [id]);
      if (rows[0].cursor === cursor) return;
      if (Date.now() > deadline) throw new Error(`cursor at ${rows[0].cursor}, not ${cursor}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  /** Waits until the subscription has recorded a failed attempt. */
  async function untilFailed(id: string) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await t.app.db.query<{ attempts: number }>("SELECT attempts FROM webhook_subscriptions WHERE id = $1", [id]);
      if (rows[0].attempts > 0) return;
      if (Date.now() > deadline) throw new Error("no failed attempt recorded");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("lets a client make, list, show, disable, enable and remove its own subscriptions, and no one else's", async function () {
    const [mine, theirs] = [await client(), await client()];
    const hook = await w.receiver();
    const made = await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url: hook.url, kinds: ["transfer"] });
    expect(made.status).to.equal(201);
    const { subscription, secret } = (await made.json()) as { subscription: { id: string }; secret: string };
    expect(secret).to.match(/^whsec_/);
    expect(subscription).to.include({
      client_id: mine.id,
      network: "localhost",
      url: hook.url,
      enabled: true,
      confirmations: 0,
      spam: "include",
    });
    const waiting = await call("/webhooks/subscriptions", (await client()).auth, "POST", {
      network: "localhost",
      url: hook.url,
      confirmations: 512,
      spam: "exclude",
    });
    expect(waiting.status).to.equal(201);
    expect(((await waiting.json()) as { subscription: object }).subscription).to.include({ confirmations: 512, spam: "exclude" });
    expect(
      ((await (await call("/webhooks/subscriptions", mine.auth)).json()) as { subscriptions: Array<{ id: string }> }).subscriptions.map(
        (s) => s.id,
      ),
    ).to.deep.equal([subscription.id]);
    expect(await (await call("/webhooks/subscriptions", theirs.auth)).json()).to.deep.equal({ subscriptions: [] });
    for (const [method, path] of [
      ["GET", ""],
      ["DELETE", ""],
      ["POST", "/disable"],
      ["POST", "/rotate-secret"],
      ["POST", "/test"],
      ["GET", "/deliveries"],
    ]) {
      await expectRefusal(
        await call(`/webhooks/subscriptions/${subscription.id}${path}`, theirs.auth, method),
        404,
        "subscription_not_found",
        {
          message: `no subscription ${subscription.id}`,
          label: `${method} ${path}`,
        },
      );
    }
    const disabled = await (await call(`/webhooks/subscriptions/${subscription.id}/disable`, mine.auth, "POST")).json();
    expect(disabled).to.include({ enabled: false, disabled_reason: "disabled by its client" });
    expect(await (await call(`/webhooks/subscriptions/${subscription.id}/enable`, mine.auth, "POST")).json()).to.include({ enabled: true });
    expect((await call(`/webhooks/subscriptions/${subscription.id}`, mine.auth, "DELETE")).status).to.equal(204);
    await expectRefusal(await call(`/webhooks/subscriptions/${subscription.id}`, mine.auth), 404, "subscription_not_found");
  });

  it("refuses without a client's own live token, past the limits, and hostile input, with clear 4xx", async function () {
    const mine = await client();
    const bearer = { "www-authenticate": 'Bearer error="invalid_token"' };
    await expectRefusal(await call("/webhooks/subscriptions", {}), 401, "invalid_token", { headers: bearer });
    await expectRefusal(
      await call("/webhooks/subscriptions", { authorization: "Bearer made-up-token-of-43-characters-xxxxxxxxxx" }),
      401,
      "invalid_token",
    );
    await expectRefusal(await call("/webhooks/subscriptions", { authorization: "Basic abc" }), 401, "invalid_token");
    const url = "https://1.1.1.1/hook";
    const owners = (n: number) => Array.from({ length: n }, () => Wallet.createRandom().address);
    await expectRefusal(
      await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url, owners: owners(4) }),
      413,
      "too_many_filters",
    );
    await expectRefusal(
      await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url, kinds: ["approval"] }),
      400,
      "invalid_subscription",
    );
    await expectRefusal(
      await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url, owners: ["0x12"] }),
      400,
      "invalid_address",
    );
    await expectRefusal(await call("/webhooks/subscriptions", mine.auth, "POST", { network: "nowhere", url }), 400, "unknown_network");
    await expectRefusal(await call("/webhooks/subscriptions", mine.auth, "POST", { network: "mainnet", url }), 503, "network_unavailable");
    await expectRefusal(
      await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url: "https://u:p@1.1.1.1/" }),
      400,
      "endpoint_refused",
    );
    await expectRefusal(await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost" }), 400, "invalid_request");
    for (const confirmations of [513, -1])
      await expectRefusal(
        await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url, confirmations }),
        400,
        "invalid_subscription",
        { message: "confirmations is an integer from 0 to 512", label: String(confirmations) },
      );
    await expectRefusal(
      await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url, confirmations: 1.5 }),
      400,
      "invalid_request",
    );
    await expectRefusal(
      await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url, spam: "maybe" }),
      400,
      "invalid_subscription",
      { message: 'spam is include or exclude, not "maybe"' },
    );
    for (let i = 0; i < 2; i++)
      expect((await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url, owners: owners(3) })).status).to.equal(
        201,
      );
    await expectRefusal(
      await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url }),
      409,
      "too_many_subscriptions",
      {
        message: "a client holds at most 2 subscriptions; remove one first",
      },
    );
  });

  it("rotates a secret with an overlap in which both sign, replays from an event id or a time, logs attempts and sends a test", async function () {
    const mine = await client();
    let failNext = false;
    const hook = await w.receiver(() => (failNext ? ((failNext = false), { status: 502 }) : { status: 204 }));
    const owner = Wallet.createRandom().address;
    const answer = await call("/webhooks/subscriptions", mine.auth, "POST", { network: "localhost", url: hook.url, owners: [owner] });
    const made = (await answer.json()) as { subscription: { id: string }; secret: string };
    const id = made.subscription.id;
    const first = await w.mint(owner);
    await hook.until((r) => r.length === 1, "the first delivery");

    const rotated = (await (await call(`/webhooks/subscriptions/${id}/rotate-secret`, mine.auth, "POST")).json()) as {
      secret: string;
      previous_secret_expires_at: string;
    };
    expect(rotated.secret)
      .to.match(/^whsec_/)
      .and.not.equal(made.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - t.clock.now()).to.be.within(24 * 3_600_000 - 60_000, 24 * 3_600_000);
    failNext = true;
    const second = await w.mint(owner);
    await hook.until((r) => r.length === 2, "the second delivery, refused");
    // The retry comes 30 s ± 20 % later.
    await untilFailed(id);
    t.clock.advance(40_000);
    await hook.until((r) => r.length === 3, "the second delivery again");
    // Both secrets verify the deliveries after the rotation: two signatures are sent.
    expect(hook.received[2].signature.split(" ")).to.have.length(2);
    expect(hook.verified(rotated.secret, t.clock.now, 1).map((d) => d.data.tx)).to.deep.equal([second]);
    expect(hook.verified(made.secret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([first, second]);

    // The answer reached the worker before its log line: the log is read once it holds the three attempts.
    type Logged = { failure: string | null; status: number; message: string | null; webhook_id: string };
    let log: Logged[] = [];
    for (const deadline = Date.now() + 30_000; log.length < 3 && Date.now() < deadline;) {
      log = ((await (await call(`/webhooks/subscriptions/${id}/deliveries`, mine.auth)).json()) as { deliveries: Logged[] }).deliveries;
      if (log.length < 3) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(log.map((d) => [d.failure, d.status])).to.deep.equal([
      [null, 204],
      ["status", 502],
      [null, 204],
    ]);
    expect(log[1]).to.include({ message: "the endpoint answered 502", webhook_id: log[0].webhook_id });

    // Replay from the first event: both again, in order, under their ids.
    const firstId = hook.received[0].id;
    expect((await call(`/webhooks/subscriptions/${id}/replay`, mine.auth, "POST", { from_event: firstId })).status).to.equal(200);
    await hook.until((r) => r.length === 5, "the replay");
    expect(hook.received.slice(3).map((r) => r.id)).to.deep.equal([firstId, hook.received[2].id]);
    await untilCursor(id, hook.received[2].id);
    // From the time the first was logged: the same two again.
    const logged = await t.app.db.query<{ created_at: Date }>("SELECT created_at FROM nft_changes WHERE id = $1", [firstId]);
    const from = logged.rows[0].created_at.toISOString();
    const sinceTime = await call(`/webhooks/subscriptions/${id}/replay`, mine.auth, "POST", { from_time: from });
    expect(sinceTime.status).to.equal(200);
    await hook.until((r) => r.length >= 7, "the replay from a time");
    await untilCursor(id, hook.received[2].id);
    expect(hook.received.slice(5, 7).map((r) => r.id)).to.deep.equal([firstId, hook.received[2].id]);
    await expectRefusal(
      await call(`/webhooks/subscriptions/${id}/replay`, mine.auth, "POST", { from_event: "1", from_time: from }),
      400,
      "invalid_subscription",
    );
    await expectRefusal(
      await call(`/webhooks/subscriptions/${id}/replay`, mine.auth, "POST", { from_time: "yesterday" }),
      400,
      "invalid_subscription",
    );
    // From before anything the log keeps, and before its day: what it asks for may have been pruned.
    const longAgo = new Date(t.clock.now() - 2 * 86_400_000).toISOString();
    await expectRefusal(
      await call(`/webhooks/subscriptions/${id}/replay`, mine.auth, "POST", { from_time: longAgo }),
      409,
      "replay_out_of_range",
    );
    await t.app.db.query("DELETE FROM nft_changes WHERE id <= $1", [firstId]);
    await expectRefusal(
      await call(`/webhooks/subscriptions/${id}/replay`, mine.auth, "POST", { from_event: firstId }),
      409,
      "replay_out_of_range",
    );

    const tested = await (await call(`/webhooks/subscriptions/${id}/test`, mine.auth, "POST")).json();
    expect(tested).to.deep.equal({ ok: true, status: 204, failure: null, message: null });
    const test = hook.verified(rotated.secret, t.clock.now, 1).at(-1)!;
    expect(test).to.include({ type: "test", network: "localhost", subscription: id });
    expect(test.id).to.match(/^test_/);

    // Six accepted: the first, the second on its retry, and both twice replayed (counted once the worker has the answer).
    let text = "";
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
      text = await t.app.metrics!.registry.metrics();
      if ((sample(text, "webhook_deliveries_total", { result: "delivered" }) ?? 0) >= 6) break;
    }
    expect(sample(text, "webhook_deliveries_total", { result: "delivered" })).to.equal(6);
    expect(sample(text, "webhook_deliveries_total", { result: "status" })).to.be.at.least(1);
    expect(sample(text, "webhook_oldest_undelivered_seconds", { subscription: id })).to.equal(0);
    expect(sample(text, "webhook_subscriptions_disabled")).to.be.a("number");
  });
});
