import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { runCli } from "../../helpers/cli";
import type { TestDatabase } from "../../helpers/database";
import { scriptDatabase } from "../auth/helpers";

const KEY = randomBytes(32).toString("base64");
const OWNER = "0x00000000000000000000000000000000000000aa";

describe("npm run webhooks", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  const run = (args: string[], extra: Record<string, string> = {}) =>
    runCli("webhooks", args, {
      ...env,
      LOCAL_CHAIN: "false",
      RPC_URL_LOCALHOST: "http://127.0.0.1:1",
      WEBHOOKS_SECRET_KEYS: KEY,
      ...extra,
    });

  before(async function () {
    ({ database, env, cleanup } = await scriptDatabase());
  });
  after(async () => cleanup?.());

  it("adds a subscription whose secret is printed once and stored sealed; lists, shows, disables, enables and removes it", async function () {
    const added = await run([
      "add",
      "--network",
      "localhost",
      "--url",
      "https://1.1.1.1/hook",
      "--owner",
      OWNER,
      "--kind",
      "transfer",
      "--kind",
      "removed",
      "--confirmations",
      "12",
      "--spam",
      "exclude",
      "--json",
    ]);
    expect(added.code, added.stderr).to.equal(0);
    const subscription = JSON.parse(added.stdout);
    expect(subscription).to.include({ network: "localhost", url: "https://1.1.1.1/hook", enabled: true, client_id: null });
    expect(subscription.kinds).to.deep.equal(["transfer", "removed"]);
    expect(subscription.owners).to.deep.equal([OWNER]);
    expect(subscription).to.include({ confirmations: 12, spam: "exclude" });
    expect(subscription.secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);

    const listed = await run(["list", "--json"]);
    expect(listed.stdout).to.not.include(subscription.secret);
    expect(JSON.parse(listed.stdout).map((s: { id: string }) => s.id)).to.deep.equal([subscription.id]);
    const db = await database.open();
    try {
      const { rows } = await db.query<{ secret: Buffer }>("SELECT secret FROM webhook_subscriptions WHERE id = $1", [subscription.id]);
      expect(rows[0].secret.toString("latin1")).to.not.include(subscription.secret.slice(6));
      expect(rows[0].secret.toString("base64")).to.not.include(subscription.secret.slice(6, 20));
    } finally {
      await db.close();
    }

    const disabled = await run(["disable", subscription.id, "--reason", "maintenance"]);
    expect(disabled.code, disabled.stderr).to.equal(0);
    expect(disabled.stdout).to.include("disabled: maintenance");
    expect(JSON.parse((await run(["show", subscription.id, "--json"])).stdout)).to.include({
      enabled: false,
      disabled_reason: "maintenance",
    });
    expect((await run(["enable", subscription.id])).stdout).to.include("state    enabled");
    expect((await run(["remove", subscription.id])).code).to.equal(0);
    const gone = await run(["show", subscription.id]);
    expect(gone).to.deep.include({ code: 1, stdout: "" });
    expect(gone.stderr).to.equal(`webhooks: no subscription ${subscription.id}\n`);
  });

  it("refuses endpoints the metadata fetch refuses, in every encoding, and plain http in production", async function () {
    const refused: Array<[string, RegExp]> = [
      ["http://1.1.1.1/hook", /the endpoint must be an https:\/\/ URL/],
      ["https://127.0.0.1/hook", /refused endpoint 127\.0\.0\.1: 127\.0\.0\.1 is a loopback, private, link-local or reserved address/],
      ["https://localhost/hook", /refused endpoint localhost: .* is a loopback, private, link-local or reserved address/],
      ["https://2130706433/hook", /refused endpoint 127\.0\.0\.1/],
      ["https://0x7f.1/hook", /refused endpoint 127\.0\.0\.1/],
      ["https://[::1]/hook", /refused endpoint \[::1\]/],
      ["https://[::ffff:169.254.169.254]/hook", /refused endpoint \[::ffff:a9fe:a9fe\]/],
      ["https://169.254.169.254/latest/meta-data", /link-local/],
      ["https://[fd00:ec2::254]/", /refused endpoint \[fd00:ec2::254\]/],
      ["https://10.0.0.1/", /refused endpoint 10\.0\.0\.1/],
      ["https://user:pass@1.1.1.1/hook", /may not carry a user name or password/],
      ["https://1.1.1.1/hook#x", /may not have a fragment/],
      ["https://1.1.1.1/ hook", /a space or a control character/],
      ["ftp://1.1.1.1/hook", /must be an https:\/\/ URL/],
      ["not a url", /space or a control character/],
      ["/relative", /not an absolute URL/],
      [`https://1.1.1.1/${"a".repeat(2_100)}`, /longer than 2048 characters/],
      ["https://does-not-exist.invalid/hook", /does-not-exist\.invalid does not resolve/],
    ];
    for (const [url, message] of refused) {
      const answer = await run(["add", "--network", "localhost", "--url", url]);
      expect(answer.code, url).to.equal(2);
      expect(answer.stderr.split("\n")[0], url).to.match(message);
    }
    expect((await run(["list", "--json"])).stdout).to.equal("[]\n");
  });

  it("refuses huge filters, unknown kinds and networks, bad addresses, and everything when WEBHOOKS_SECRET_KEYS is unset", async function () {
    const url = ["--url", "https://1.1.1.1/hook"];
    const owners = Array.from({ length: 1_001 }, (_, i) => ["--owner", `0x${i.toString(16).padStart(40, "0")}`]).flat();
    const cases: Array<[string[], Record<string, string>, number, string]> = [
      [
        ["add", "--network", "localhost", ...url, ...owners],
        {},
        2,
        "webhooks: a subscription names at most 1000 contracts and owners together",
      ],
      [
        ["add", "--network", "localhost", ...url, "--kind", "approval"],
        {},
        2,
        'webhooks: unknown event kind "approval": one of transfer, removed, metadata, reset',
      ],
      [["add", "--network", "nope", ...url], {}, 2, 'webhooks: Unknown network "nope": this service serves localhost'],
      [["add", "--network", "mainnet", ...url], {}, 1, 'webhooks: Network "mainnet" is not configured (RPC_URL_MAINNET)'],
      [["add", "--network", "localhost", ...url, "--contract", "0x12"], {}, 2, "webhooks: contract must be 0x followed by 40 hex digits"],
      [
        ["add", "--network", "localhost", ...url],
        { WEBHOOKS_SECRET_KEYS: "" },
        1,
        "webhooks: webhooks are off on this service: its operator has not set WEBHOOKS_SECRET_KEYS",
      ],
      [["add", "--network", "localhost", ...url, "--confirmations", "513"], {}, 2, "webhooks: confirmations is an integer from 0 to 512"],
      [
        ["add", "--network", "localhost", ...url, "--confirmations", "two"],
        {},
        2,
        'webhooks: --confirmations takes a whole number of blocks, not "two"',
      ],
      [["add", "--network", "localhost", ...url, "--spam", "hide"], {}, 2, 'webhooks: spam is include or exclude, not "hide"'],
      [["add", "--url", "https://1.1.1.1/"], {}, 2, "webhooks: --network is required"],
      [["show"], {}, 2, "webhooks: show takes one subscription id"],
    ];
    for (const [args, extra, code, line] of cases) {
      const answer = await run(args, extra);
      expect(answer.code, line).to.equal(code);
      expect(answer.stderr.split("\n")[0]).to.equal(line);
    }
    expect((await run(["list", "--json"])).stdout).to.equal("[]\n");
  });
});
