import { expect } from "chai";
import { Wallet } from "ethers";
import { OPEN_PER_ADDRESS } from "../../../server/auth/challenges";
import { requesterOf } from "../../../server/lib/requester";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { authorizeQuery, registerClient, startLoginApp, type RegisteredClient } from "./helpers";
import { expectRefusal } from "../../helpers/refusal";

/** Challenges are counted per requester (client IP as TRUST_PROXY resolves it): no one can retire another's. */
describe("sign-in message quotas (lock-out)", function () {
  let t: TestApp;
  let client: RegisteredClient;
  const MAX_OPEN = 12;

  before(async function () {
    t = await startLoginApp((await sharedNode()).url, { env: { TRUST_PROXY: "true", LOGIN_MAX_OPEN_CHALLENGES: String(MAX_OPEN) } });
    client = await registerClient(t);
  });
  after(async () => t?.close());

  async function authorize(ip: string, address: string) {
    const query = authorizeQuery(client, address);
    const response = await t.app.inject({ url: `/api/authorize?${query}`, headers: { "x-forwarded-for": ip } });
    return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
  }
  async function login(ip: string, wallet: { address: string; signMessage(m: string): Promise<string> }, message: string) {
    const payload = { address: wallet.address, signature: await wallet.signMessage(message), client_id: client.id };
    const response = await t.app.inject({ method: "POST", url: "/api/login", payload, headers: { "x-forwarded-for": ip } });
    return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
  }
  const openOf = async (requester: string) =>
    Number(
      (
        await t.app.db.query<{ n: string }>(
          "SELECT count(*) AS n FROM login_challenges WHERE requester = $1 AND consumed_at IS NULL AND expires_at > now()",
          [requester],
        )
      ).rows[0].n,
    );

  describe("/api/login", function () {
    it("redeems the victim's message however many an attacker at another IP asked for the same address afterwards", async function () {
      const victim = Wallet.createRandom();
      const { body } = await authorize("198.51.100.7", victim.address);
      for (let i = 0; i < 3 * OPEN_PER_ADDRESS; i++) expect((await authorize("203.0.113.66", victim.address)).status).to.equal(200);
      const answer = await login("198.51.100.7", victim, body.message);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body.code).to.be.a("string");
    });

    it("redeems it also when the attacker's messages come from many IPs", async function () {
      const victim = Wallet.createRandom();
      const { body } = await authorize("198.51.100.8", victim.address);
      for (let i = 0; i < 12; i++) await authorize(`203.0.113.${i + 1}`, victim.address);
      expect((await login("198.51.100.8", victim, body.message)).status).to.equal(200);
    });

    it("finds the message of a requester behind an IPv6 address from another address of its /64", async function () {
      const victim = Wallet.createRandom();
      const { body } = await authorize("2001:db8:1:2::10", victim.address);
      for (let i = 0; i < 2 * OPEN_PER_ADDRESS; i++) await authorize("2001:db8:ffff::1", victim.address);
      expect((await login("2001:db8:1:2:aaaa::99", victim, body.message)).status).to.equal(200);
    });
  });

  describe("/api/authorize", function () {
    it(`keeps at most ${OPEN_PER_ADDRESS} open messages per requester and address: a new one retires the requester's oldest`, async function () {
      const user = Wallet.createRandom();
      const messages: string[] = [];
      for (let i = 0; i < OPEN_PER_ADDRESS + 2; i++) messages.push((await authorize("192.0.2.10", user.address)).body.message);
      const { rows } = await t.app.db.query<{ n: string }>(
        "SELECT count(*) AS n FROM login_challenges WHERE requester = '192.0.2.10' AND address = $1 AND consumed_at IS NULL",
        [user.address.toLowerCase()],
      );
      expect(Number(rows[0].n)).to.equal(OPEN_PER_ADDRESS);
      const retired = await login("192.0.2.10", user, messages[0]);
      await expectRefusal(retired, 401, "invalid_signature"); // newer messages of this address are open
      expect((await login("192.0.2.10", user, messages[messages.length - 1])).status).to.equal(200);
    });

    it("refuses a requester holding LOGIN_MAX_OPEN_CHALLENGES open messages with 429 too_many_challenges; other requesters go on", async function () {
      const ip = "192.0.2.20";
      for (let i = 0; i < MAX_OPEN; i++) expect((await authorize(ip, Wallet.createRandom().address)).status).to.equal(200);
      const refused = await authorize(ip, Wallet.createRandom().address);
      await expectRefusal(refused, 429, "too_many_challenges");
      expect(refused.headers["retry-after"]).to.equal("60");
      expect(await openOf(ip)).to.equal(MAX_OPEN);
      expect((await authorize("192.0.2.21", Wallet.createRandom().address)).status).to.equal(200);
    });

    it("deletes a requester's expired messages when it asks for a new one, so its stored rows stay within its quota", async function () {
      const ip = "192.0.2.30";
      for (let i = 0; i < 4; i++) await authorize(ip, Wallet.createRandom().address);
      await t.app.db.query("UPDATE login_challenges SET expires_at = now() - interval '1 second' WHERE requester = $1", [ip]);
      await authorize(ip, Wallet.createRandom().address);
      const { rows } = await t.app.db.query<{ n: string }>("SELECT count(*) AS n FROM login_challenges WHERE requester = $1", [ip]);
      expect(Number(rows[0].n)).to.equal(1);
    });

    it("holds the quota under concurrent requests", async function () {
      const ip = "192.0.2.40";
      const answers = await Promise.all(Array.from({ length: MAX_OPEN + 6 }, () => authorize(ip, Wallet.createRandom().address)));
      expect(answers.filter((a) => a.status === 200)).to.have.length(MAX_OPEN);
      expect(answers.filter((a) => a.status === 429)).to.have.length(6);
      expect(await openOf(ip)).to.equal(MAX_OPEN);
    });
  });

  describe("requesterOf", function () {
    it("is the IPv4 address, also when IPv4-mapped, and the /64 of an IPv6 address", function () {
      expect(requesterOf("192.0.2.1")).to.equal("192.0.2.1");
      expect(requesterOf("::ffff:192.0.2.1")).to.equal("192.0.2.1");
      expect(requesterOf("::ffff:c000:201")).to.equal("192.0.2.1");
      expect(requesterOf("2001:db8:1:2::10")).to.equal("2001:db8:1:2::/64");
      expect(requesterOf("2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd")).to.equal("2001:db8:1:2::/64");
      expect(requesterOf("2001:db8::1")).to.equal("2001:db8:0:0::/64");
      expect(requesterOf("::1")).to.equal("0:0:0:0::/64");
      expect(requesterOf("fe80::1%eth0")).to.equal("fe80:0:0:0::/64");
      expect(requesterOf("2001:DB8:1:2::10")).to.equal("2001:db8:1:2::/64");
    });
  });
});
