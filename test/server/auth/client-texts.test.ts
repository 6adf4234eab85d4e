import { expect } from "chai";
import { Wallet } from "ethers";
import { CLIENT_CACHE_MS, addClient, checkClientName, checkRedirectUri } from "../../../server/auth/clients";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { startLoginApp } from "./helpers";

/** Client texts go into the message users sign: nothing invisible gets in, at registration or from the table. */
describe("client names and redirect URIs", function () {
  // One of each: C0, C1 (NEL), DEL; Cf: RLO, RLI, PDI, LRM, zero-width space and joiner, BOM, soft hyphen; Zl, Zp.
  const INVISIBLE = [
    "\u0000",
    "\u0009",
    "\u000a",
    "\u0085",
    "\u007f",
    "\u202e",
    "\u2067",
    "\u2069",
    "\u200e",
    "\u200b",
    "\u200d",
    "\ufeff",
    "\u00ad",
    "\u2028",
    "\u2029",
  ];

  describe("registration", function () {
    for (const char of INVISIBLE) {
      const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
      it(`refuses ${code} in a name and in a redirect URI`, function () {
        expect(checkClientName(`My${char}dApp`)).to.be.a("string");
        expect(checkRedirectUri(`https://rp.example/c${char}b`)).to.be.a("string");
      });
    }
    it("takes names in any script, with spaces and punctuation", function () {
      for (const name of ["My dApp", 'ゲーム "Quest" 100%', "Ünïcødé – ok", "עברית", "مرحبا"])
        expect(checkClientName(name), name).to.equal(undefined);
    });
  });

  describe("rows written to the table some other way", function () {
    let t: TestApp;
    before(async function () {
      t = await startLoginApp((await sharedNode()).url);
    });
    after(async () => t?.close());

    async function authorize(clientId: string, redirectUri: string) {
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: "openid",
        address: Wallet.createRandom().address,
      });
      const response = await t.app.inject({ url: `/api/authorize?${query}` });
      return { status: response.statusCode, body: JSON.parse(response.body) };
    }

    it("shows each invisible character of a name as U+FFFD in the signed message", async function () {
      const { client } = await addClient(t.app.db, { name: "placeholder", redirectUris: ["https://rp.example/cb"], public: false });
      await t.app.db.query("UPDATE login_clients SET name = $1 WHERE id = $2", ["Good\u202Eelgoog\u0085x", client.id]);
      const answer = await authorize(client.id, "https://rp.example/cb");
      expect(answer.status).to.equal(200);
      const line = answer.body.message.split("\n")[1];
      expect(line).to.match(/^Log in to Good\uFFFDelgoog\uFFFDx via /);
      expect(line).to.not.match(/[\u202e\u0085]/);
    });

    it("treats a redirect URI with an invisible character as not registered", async function () {
      const { client } = await addClient(t.app.db, { name: "URIs", redirectUris: ["https://rp.example/cb"], public: false });
      const bad = "https://rp.example/\u202Ebc";
      await t.app.db.query("UPDATE login_clients SET redirect_uris = $1 WHERE id = $2", [["https://rp.example/cb", bad], client.id]);
      t.clock.advance(CLIENT_CACHE_MS); // past the client cache
      expect((await authorize(client.id, bad)).body.error).to.equal("invalid_redirect_uri");
      expect((await authorize(client.id, "https://rp.example/cb")).status).to.equal(200);
    });
  });

  describe("on the hosted login page", function () {
    let t: TestApp;
    before(async function () {
      t = await startLoginApp((await sharedNode()).url);
    });
    after(async () => t?.close());

    /** The hosted page's HTML as a browser gets it: /authorize, then its redirect with the interaction cookie. */
    async function hostedPageOf(clientId: string) {
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: "https://rp.example/cb",
        response_type: "code",
        scope: "openid",
      });
      const authorize = await t.fetch(`/authorize?${query}`, { redirect: "manual" });
      expect(authorize.status).to.equal(303);
      const cookie = authorize.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      const page = await t.fetch(authorize.headers.get("location")!, { headers: { cookie } });
      expect(page.status).to.equal(200);
      return page.text();
    }

    it("shows a name with String.replace patterns ($', $`, $&, $1, $$) exactly as registered, escaped", async function () {
      for (const name of ["Shop $' after", "Shop $` before", "A $& B", "Game $1 $2", "Pay $$ now", '<b>$\'</b> & "$`"']) {
        const { client } = await addClient(t.app.db, { name, redirectUris: ["https://rp.example/cb"], public: false });
        const html = await hostedPageOf(client.id);
        const escaped = name
          .replace(/&/g, "&amp;")
          .replace(/</g, "&lt;")
          .replace(/>/g, "&gt;")
          .replace(/"/g, "&quot;")
          .replace(/'/g, "&#39;");
        expect(html, name).to.include(`<p>${escaped} asks you to sign in with your Ethereum wallet.`);
      }
    });
  });
});
