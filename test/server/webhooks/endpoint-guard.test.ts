import { isIP } from "node:net";
import { expect } from "chai";
import { Wallet } from "ethers";
import type { ResolveAll } from "../../../server/outbound/guarded-lookup";
import { Deliverer } from "../../../server/webhooks/delivery";
import { checkEndpoint } from "../../../server/webhooks/endpoint";
import { listDeliveries } from "../../../server/webhooks/subscriptions";
import type { TestApp } from "../../helpers/app";
import { sample } from "../../helpers/metrics";
import { expectRefusal } from "../../helpers/refusal";
import { startWebhookApp, type WebhookApp } from "../../helpers/webhook-app";
import { postForm, registerClient } from "../auth/helpers";

describe("webhooks: the endpoint guard, with private addresses refused", function () {
  this.timeout(120_000);
  let w: WebhookApp;
  let t: TestApp;

  before(async function () {
    w = await startWebhookApp({ ISSUER: "http://127.0.0.1", WEBHOOKS_ALLOW_PRIVATE: "false" });
    ({ t } = w);
  });
  afterEach(async () => w.closeReceivers());
  after(async () => w?.close());

  it("refuses over HTTP, with 400 endpoint_refused, every encoding of a private address the metadata fetch refuses", async function () {
    const registered = await registerClient(t);
    const token = await postForm(t, "/token", {
      grant_type: "client_credentials",
      client_id: registered.id,
      client_secret: registered.secret!,
    });
    const auth = { authorization: `Bearer ${token.body.access_token}`, "content-type": "application/json" };
    const refused: Array<[string, string]> = [
      ["https://127.0.0.1/hook", "refused endpoint 127.0.0.1: 127.0.0.1 is a loopback, private, link-local or reserved address"],
      ["https://2130706433/hook", "refused endpoint 127.0.0.1: 127.0.0.1 is a loopback, private, link-local or reserved address"],
      ["https://0x7f.1/hook", "refused endpoint 127.0.0.1: 127.0.0.1 is a loopback, private, link-local or reserved address"],
      ["https://0177.0.0.1/hook", "refused endpoint 127.0.0.1: 127.0.0.1 is a loopback, private, link-local or reserved address"],
      ["https://[::1]/hook", "refused endpoint [::1]: ::1 is a loopback, private, link-local or reserved address"],
      [
        "https://[::ffff:169.254.169.254]/",
        "refused endpoint [::ffff:a9fe:a9fe]: ::ffff:a9fe:a9fe is a loopback, private, link-local or reserved address",
      ],
      [
        "https://169.254.169.254/latest/meta-data",
        "refused endpoint 169.254.169.254: 169.254.169.254 is a loopback, private, link-local or reserved address",
      ],
      [
        "https://[fd00:ec2::254]/",
        "refused endpoint [fd00:ec2::254]: fd00:ec2::254 is a loopback, private, link-local or reserved address",
      ],
      ["https://10.0.0.1/", "refused endpoint 10.0.0.1: 10.0.0.1 is a loopback, private, link-local or reserved address"],
      ["https://0.0.0.0/", "refused endpoint 0.0.0.0: 0.0.0.0 is a loopback, private, link-local or reserved address"],
      ["https://localhost/hook", "refused endpoint localhost: 127.0.0.1 is a loopback, private, link-local or reserved address"],
    ];
    for (const [url, message] of refused) {
      const answer = await t.fetch("/webhooks/subscriptions", {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ network: "localhost", url }),
      });
      await expectRefusal(answer, 400, "endpoint_refused", { message, label: url });
    }
    const listed = await t.fetch("/webhooks/subscriptions", { headers: auth });
    expect(((await listed.json()) as { subscriptions: unknown[] }).subscriptions).to.deep.equal([]);
  });

  /** A resolver answering `addresses` for every name, as an attacker's DNS server may (a private one beside a public one). */
  const answering =
    (...addresses: string[]): ResolveAll =>
    (_hostname, _options, callback) =>
      callback(
        null,
        addresses.map((address) => ({ address, family: isIP(address) })),
      );

  it("refuses a name when any address it resolves to is private, not only the first, when subscribing and as a delivery connects", async function () {
    const cases: Array<[string[], string]> = [
      [["93.184.216.34", "10.0.0.7"], "10.0.0.7"],
      [["10.0.0.7", "93.184.216.34"], "10.0.0.7"],
      [["2606:2800:220:1::1", "93.184.216.34", "::ffff:127.0.0.1"], "::ffff:127.0.0.1"],
    ];
    const why = (address: string) => `${address} is a loopback, private, link-local or reserved address`;
    for (const [addresses, refused] of cases) {
      const rules = { allowHttp: false, allowPrivate: false, resolveAll: answering(...addresses) };
      let error: unknown;
      await checkEndpoint("https://hook.example/x", rules).catch((e: unknown) => (error = e));
      expect(error, addresses.join(" ")).to.include({
        code: "endpoint_refused",
        message: `refused endpoint hook.example: ${why(refused)}`,
      });
    }
    expect(
      await checkEndpoint("https://hook.example/x", { allowHttp: false, allowPrivate: false, resolveAll: answering("93.184.216.34") }),
    ).to.equal("https://hook.example/x");

    // As a delivery connects: the name answers a public address first and the receiver's after it; nothing is sent.
    const receiver = await w.receiver();
    const deliverer = new Deliverer({
      allowPrivate: false,
      timeoutMs: 1_000,
      maxSockets: 1,
      resolveAll: answering("93.184.216.34", "127.0.0.1"),
    });
    try {
      const outcome = await deliverer.send({ url: `http://hook.example:${new URL(receiver.url).port}/hook`, headers: {}, body: "{}" });
      expect(outcome).to.deep.equal({
        ok: false,
        failure: "refused_address",
        message: `refused endpoint hook.example: ${why("127.0.0.1")}`,
      });
    } finally {
      deliverer.close();
    }
    expect(receiver.received).to.deep.equal([]);
  });

  for (const [form, host] of [
    ["a name that now resolves to a loopback address", "localhost"],
    ["a private address taken while they were allowed", "127.0.0.1"],
  ]) {
    it(`refuses each delivery's connection to ${form}: nothing reaches it, and the attempt fails as refused_address`, async function () {
      const receiver = await w.receiver();
      const owner = Wallet.createRandom().address;
      const { subscription } = await w.subscribe("https://1.1.1.1/hook", { owners: [owner] });
      // What the guard let in then points here now.
      const url = receiver.url.replace("127.0.0.1", host);
      await t.app.db.query("UPDATE webhook_subscriptions SET url = $2 WHERE id = $1", [subscription.id, url]);
      const refusals = sample(await t.app.metrics!.registry.metrics(), "webhook_deliveries_total", { result: "refused_address" }) ?? 0;
      await w.mint(owner);
      const deadline = Date.now() + 30_000;
      let log = await listDeliveries(t.app.db, { id: subscription.id, clientId: null, limit: 10 });
      while (log.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        log = await listDeliveries(t.app.db, { id: subscription.id, clientId: null, limit: 10 });
      }
      expect(log).to.have.length(1);
      expect(log[0]).to.include({ status: null, failure: "refused_address" });
      expect(log[0].message).to.match(
        /^refused endpoint (localhost|127\.0\.0\.1:\d+): 127\.0\.0\.1 is a loopback, private, link-local or reserved address$/,
      );
      expect(sample(await t.app.metrics!.registry.metrics(), "webhook_deliveries_total", { result: "refused_address" })).to.equal(
        refusals + 1,
      );
      const { rows } = await t.app.db.query<{ attempts: number; enabled: boolean }>(
        "SELECT attempts, enabled FROM webhook_subscriptions WHERE id = $1",
        [subscription.id],
      );
      expect(rows[0]).to.deep.equal({ attempts: 1, enabled: true });
      expect(receiver.received).to.deep.equal([]);
    });
  }
});
