import { expect } from "chai";
import { decodeJwt } from "jose";
import { SiweMessage } from "siwe";
import { Wallet } from "ethers";
import { CLIENT_CACHE_MS, removeClient } from "../../../server/auth/clients";
import { fetchJson } from "../../helpers/app";
import { highS, ownerSignature } from "../../helpers/signers";
import { SuiteChain } from "../../helpers/suite-chain";
import { authorizeQuery, deploySigners, exchangeCode, postForm, postJson, registerClient, startLoginApp } from "./helpers";
import { expectRefusal } from "../../helpers/refusal";

describe("login JSON API (/api/authorize, /api/login)", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const signers = await deploySigners(chain.url);
    const t = chain.closesWith(await startLoginApp(chain.url));
    return {
      t,
      signers,
      host: new URL(t.config.issuer).host,
      client: await registerClient(t, { name: "Example RP", redirectUris: ["https://rp.example/callback", "https://rp.example/cb?x=1"] }),
      other: await registerClient(t, { name: "Other RP", redirectUris: ["https://other.example/cb"] }),
      publicClient: await registerClient(t, { name: "SPA", redirectUris: ["http://localhost:5173/cb"], public: true }),
    };
  });

  const eoa = () => {
    const wallet = Wallet.createRandom();
    return { address: wallet.address, sign: (m: string) => wallet.signMessage(m), wallet };
  };

  async function authorize(address: string, extra: Record<string, string> = {}, c = suite().client) {
    return fetchJson(suite().t, `/api/authorize?${authorizeQuery(c, address, extra)}`);
  }
  async function message(address: string, extra: Record<string, string> = {}, c = suite().client): Promise<string> {
    const answer = await authorize(address, extra, c);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return answer.body.message;
  }
  async function login(payload: Record<string, unknown>) {
    return postJson(suite().t, `/api/login`, payload);
  }
  /** A full login with `signer`; returns the login answer. */
  async function signIn(
    signer: { address: string; sign(m: string): Promise<string> },
    extra: Record<string, string> = {},
    loginExtra: Record<string, unknown> = {},
  ) {
    const text = await message(signer.address, extra);
    return login({ address: signer.address, signature: await signer.sign(text), client_id: suite().client.id, ...loginExtra });
  }
  async function idTokenOf(code: string, redirectUri = suite().client.redirectUri) {
    const { t, client } = suite();
    const answer = await exchangeCode(t, { ...client, redirectUri }, code, "/api/token");
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return decodeJwt(answer.body.id_token);
  }

  describe("GET /api/authorize", function () {
    it("answers the four-line English message: header, client and issuer host, ---, a fresh random of at least 128 bits", async function () {
      const { host } = suite();
      const signer = eoa();
      const first = (await message(signer.address)).split("\n");
      const second = (await message(signer.address)).split("\n");
      expect(first).to.have.length(4);
      expect(first.slice(0, 3)).to.deep.equal(["Wallet Login", `Log in to Example RP via ${host}.`, "---"]);
      expect(first[3]).to.match(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(first[3], "base64url").length).to.be.at.least(16);
      expect(second[3]).to.not.equal(first[3]);
    });

    it("answers the Japanese message with lang=ja", async function () {
      const { host } = suite();
      const lines = (await message(eoa().address, { lang: "ja" })).split("\n");
      expect(lines.slice(0, 3)).to.deep.equal(["Wallet Login", `${host} で Example RP にログインします。`, "---"]);
    });

    it("answers an EIP-4361 message with message_format=siwe that the siwe package parses and verifies", async function () {
      const { t, client, host } = suite();
      const signer = eoa();
      const text = await message(signer.address, { message_format: "siwe" });
      const siwe = new SiweMessage(text);
      expect(siwe.domain).to.equal(host);
      expect(siwe.uri).to.equal(t.config.issuer);
      expect(siwe.address).to.equal(signer.address);
      expect(siwe.chainId).to.equal(31337);
      expect(siwe.resources).to.deep.equal([client.redirectUri]);
      expect(siwe.nonce).to.match(/^[0-9a-f]{32}$/);
      const lifetime = Date.parse(siwe.expirationTime!) - Date.parse(siwe.issuedAt!);
      expect(lifetime).to.equal(5 * 60 * 1000);
      const signature = await signer.sign(text);
      const verified = await siwe.verify({ signature, domain: host, nonce: siwe.nonce });
      expect(verified.success).to.equal(true);
      const answer = await login({ address: signer.address, signature, client_id: client.id });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    });

    it("keeps SIWE messages within EIP-4361's grammar: English statement, and a client name that does not fit is left out", async function () {
      const { t, host } = suite();
      const ja = new SiweMessage(await message(eoa().address, { message_format: "siwe", lang: "ja" }));
      expect(ja.statement).to.equal(`Log in to Example RP via ${host}.`);
      const named = await registerClient(t, { name: 'ゲーム "Quest" 100%', redirectUris: ["https://game.example/cb"] });
      const text = await message(eoa().address, { message_format: "siwe" }, named);
      expect(new SiweMessage(text).statement).to.equal(`Log in via ${host}.`);
      expect((await message(eoa().address, { lang: "ja" }, named)).split("\n")[1]).to.equal(
        `${host} で ゲーム "Quest" 100% にログインします。`,
      );
    });

    it("stores the challenge bound to address, client, redirect_uri, nonce and PKCE challenge, for five minutes", async function () {
      const { t, client } = suite();
      const signer = eoa();
      const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
      await message(signer.address, { nonce: "n-1", state: "s-1", code_challenge: challenge, code_challenge_method: "S256" });
      const { rows } = await t.app.db.query(
        "SELECT *, extract(epoch FROM expires_at - created_at)::int AS ttl FROM login_challenges WHERE address = $1",
        [signer.address.toLowerCase()],
      );
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({
        client_id: client.id,
        redirect_uri: client.redirectUri,
        nonce: "n-1",
        state: "s-1",
        code_challenge: challenge,
        code_challenge_method: "S256",
        ttl: 300,
      });
    });

    it("refuses a client removed a moment ago, while this instance still has it cached, and a second later", async function () {
      const { t } = suite();
      const doomed = await registerClient(t, { name: "Doomed" });
      const address = eoa().address;
      expect((await authorize(address, {}, doomed)).status).to.equal(200);
      await removeClient(t.app.db, doomed.id);
      const cached = await authorize(address, {}, doomed);
      await expectRefusal(cached, 400, "invalid_client");
      t.clock.advance(CLIENT_CACHE_MS);
      await expectRefusal(await authorize(address, {}, doomed), 400, "invalid_client");
    });

    it("takes scope=openid profile and ignores parameters it does not know (wallet_name)", async function () {
      const answer = await authorize(eoa().address, { scope: "openid profile", wallet_name: "metamask" });
      expect(answer.status).to.equal(200);
    });

    describe("refusals (errors, never redirects)", function () {
      const refused = async (query: URLSearchParams, status: number, error: string) => {
        const response = await suite().t.fetch(`/api/authorize?${query}`, { redirect: "manual" });
        await expectRefusal(response, status, error);
        expect(response.headers.get("location")).to.equal(null);
      };
      const base = () => authorizeQuery(suite().client, Wallet.createRandom().address);
      const set = (key: string, value: string) => {
        const query = base();
        query.set(key, value);
        return query;
      };
      const without = (key: string) => {
        const query = base();
        query.delete(key);
        return query;
      };

      it("an unknown client", () => refused(set("client_id", "nope"), 400, "invalid_client"));
      for (const [what, uri] of [
        ["another path", "https://rp.example/callback2"],
        ["an added query", "https://rp.example/callback?a=1"],
        ["another case", "https://RP.example/callback"],
        ["a path in another case", "https://rp.example/Callback"],
        ["a trailing slash", "https://rp.example/callback/"],
        ["another scheme", "http://rp.example/callback"],
        ["another client's URI", "https://other.example/cb"],
        ["a registered query reordered", "https://rp.example/cb?x=1&"],
      ]) {
        it(`a redirect_uri with ${what}`, () => refused(set("redirect_uri", uri), 400, "invalid_redirect_uri"));
      }
      for (const type of ["token", "id_token", "code id_token", ""]) {
        it(`response_type=${JSON.stringify(type)}`, () => refused(set("response_type", type), 400, "unsupported_response_type"));
      }
      it("a scope without openid", () => refused(set("scope", "profile"), 400, "invalid_scope"));
      it("a scope that only contains openid as part of a word", () => refused(set("scope", "openidx profile"), 400, "invalid_scope"));
      for (const address of [
        "0x1234",
        "0xZZ5aeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
        "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00",
        "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      ]) {
        it(`a malformed address ${address}`, () => refused(set("address", address), 400, "invalid_address"));
      }
      it("an unknown lang", () => refused(set("lang", "fr"), 400, "invalid_lang"));
      it("an unknown message_format", () => refused(set("message_format", "eip712"), 400, "invalid_request"));
      it("an unknown network", () => refused(set("network", "atlantis"), 400, "unknown_network"));
      for (const key of ["client_id", "redirect_uri", "response_type", "scope", "address"]) {
        it(`a missing ${key}`, () =>
          refused(
            without(key),
            400,
            key === "response_type" ? "unsupported_response_type" : key === "scope" ? "invalid_scope" : "invalid_request",
          ));
      }
      it("a parameter given twice", () => {
        const query = base();
        query.append("client_id", suite().client.id);
        return refused(query, 400, "invalid_request");
      });
      it("code_challenge_method=plain", () => {
        const query = set("code_challenge", "x".repeat(43));
        query.set("code_challenge_method", "plain");
        return refused(query, 400, "invalid_request");
      });
      it("a code_challenge that is not 43 base64url characters", () => {
        const query = set("code_challenge", "short");
        query.set("code_challenge_method", "S256");
        return refused(query, 400, "invalid_request");
      });
      it("a public client without PKCE", () =>
        refused(authorizeQuery(suite().publicClient, Wallet.createRandom().address), 400, "invalid_request"));
      it("a state longer than 1024 characters", () => refused(set("state", "s".repeat(1025)), 400, "invalid_request"));
    });
  });

  describe("POST /api/login", function () {
    it("answers {code, redirect_url, state}; the redirect URL carries code, state and iss", async function () {
      const { t, client } = suite();
      const signer = eoa();
      const answer = await signIn(signer, { state: "12345" });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body).to.have.keys("code", "redirect_url", "state");
      expect(answer.headers.get("cache-control")).to.equal("no-store");
      expect(answer.body.state).to.equal("12345");
      const url = new URL(answer.body.redirect_url);
      expect(`${url.origin}${url.pathname}`).to.equal(client.redirectUri);
      expect(url.searchParams.get("code")).to.equal(answer.body.code);
      expect(url.searchParams.get("state")).to.equal("12345");
      expect(url.searchParams.get("iss")).to.equal(t.config.issuer);
    });

    it("answers login's own state when it differs from authorize's (the predecessor's JS client)", async function () {
      const answer = await signIn(eoa(), { state: "11111" }, { state: "22222" });
      expect(answer.body.state).to.equal("22222");
      expect(new URL(answer.body.redirect_url).searchParams.get("state")).to.equal("22222");
    });

    it("keeps the query of a registered redirect URI", async function () {
      const { client } = suite();
      const signer = eoa();
      const text = await message(signer.address, { redirect_uri: "https://rp.example/cb?x=1" });
      const answer = await login({ address: signer.address, signature: await signer.sign(text), client_id: client.id });
      expect(answer.body.redirect_url).to.match(/^https:\/\/rp\.example\/cb\?x=1&code=[^&]+&iss=/);
      expect(answer.body.state).to.equal(null);
    });

    it("takes a form body", async function () {
      const { t, client } = suite();
      const signer = eoa();
      const text = await message(signer.address);
      const answer = await postForm(t, `/api/login`, {
        address: signer.address,
        signature: await signer.sign(text),
        client_id: client.id,
        state: "f",
      });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body.state).to.equal("f");
    });

    it("gives EOAs the lower-case address as sub, and echoes the nonce", async function () {
      const { client } = suite();
      const signer = eoa();
      const answer = await signIn(signer, { nonce: "abc" });
      const claims = await idTokenOf(answer.body.code);
      expect(claims.sub).to.equal(signer.address.toLowerCase());
      expect(claims.nonce).to.equal("abc");
      expect(claims.aud).to.equal(client.id);
    });

    describe("malformed input", function () {
      const raw = (body: string, type = "application/json") =>
        fetchJson(suite().t, `/api/login`, { method: "POST", headers: { "content-type": type }, body });
      it("malformed JSON is a 400", async function () {
        await expectRefusal(await raw("{nope"), 400, "malformed_json");
      });
      it("an empty body is a 400", async function () {
        await expectRefusal(await raw(""), 400, "malformed_json");
      });
      it("a JSON array or string is a 400", async function () {
        await expectRefusal(await raw("[]"), 400, "invalid_request");
        await expectRefusal(await raw('"x"'), 400, "invalid_request");
      });
      it("text/plain is a 415", async function () {
        await expectRefusal(await raw("a=b", "text/plain"), 415, "unsupported_media_type");
      });
      for (const field of ["address", "signature", "client_id"]) {
        it(`a missing ${field} is a 400 invalid_request`, async function () {
          const { client } = suite();
          const payload: Record<string, unknown> = { address: Wallet.createRandom().address, signature: "0x00", client_id: client.id };
          delete payload[field];
          const answer = await login(payload);
          await expectRefusal(answer, 400, "invalid_request");
        });
      }
      it("fields of the wrong type are a 400", async function () {
        await expectRefusal(await login({ address: 5, signature: [], client_id: {} }), 400, "invalid_request");
      });
      it("a malformed address is a 400 invalid_address", async function () {
        const { client } = suite();
        const answer = await login({ address: "0x12", signature: "0x00", client_id: client.id });
        await expectRefusal(answer, 400, "invalid_address");
      });
      it("an unknown client is a 400 invalid_client", async function () {
        const answer = await login({ address: Wallet.createRandom().address, signature: "0x00", client_id: "nope" });
        await expectRefusal(answer, 400, "invalid_client");
      });
      it("an unknown network is a 400 unknown_network", async function () {
        const { client } = suite();
        const answer = await login({
          address: Wallet.createRandom().address,
          signature: "0x00",
          client_id: client.id,
          network: "atlantis",
        });
        await expectRefusal(answer, 400, "unknown_network");
      });
    });

    describe("EOA signatures", function () {
      it("refuses a high-s signature (malformed, 400)", async function () {
        const { client } = suite();
        const signer = eoa();
        const text = await message(signer.address);
        const answer = await login({ address: signer.address, signature: highS(await signer.sign(text)), client_id: client.id });
        await expectRefusal(answer, 400, "malformed_signature");
      });
      it("refuses wrong lengths and non-hex signatures (400)", async function () {
        const { client } = suite();
        const signer = eoa();
        const text = await message(signer.address);
        const good = await signer.sign(text);
        for (const signature of [good.slice(0, -2), `${good}00`, `0x${"zz".repeat(65)}`, "hello", "", "0x"]) {
          const answer = await login({ address: signer.address, signature, client_id: client.id });
          await expectRefusal(answer, 400, "malformed_signature", { label: signature });
        }
        // The challenge survived the bad attempts.
        expect((await login({ address: signer.address, signature: good, client_id: client.id })).status).to.equal(200);
      });
      it("refuses a signature by another key (401)", async function () {
        const { client } = suite();
        const signer = eoa();
        const text = await message(signer.address);
        const answer = await login({ address: signer.address, signature: await eoa().sign(text), client_id: client.id });
        await expectRefusal(answer, 401, "invalid_signature");
      });
      it("refuses a signature over another text (401)", async function () {
        const { client } = suite();
        const signer = eoa();
        const text = await message(signer.address);
        const answer = await login({ address: signer.address, signature: await signer.sign(`${text} `), client_id: client.id });
        await expectRefusal(answer, 401, "invalid_signature");
      });
    });

    describe("contract wallets", function () {
      it("logs in an EIP-1271 single-owner wallet; sub names the chain (not mainnet)", async function () {
        const { signers } = suite();
        const answer = await signIn(signers.single);
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
        const claims = await idTokenOf(answer.body.code);
        expect(claims.sub).to.equal(`eip155:31337:${signers.single.address.toLowerCase()}`);
      });
      it("logs in a 2-of-3 multisig wallet", async function () {
        const { signers } = suite();
        const answer = await signIn(signers.multisig);
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      });
      it("refuses cleanly a wallet that reverts on a bad signature, and one that answers a wrong value (401)", async function () {
        const { signers } = suite();
        const stranger = eoa().wallet;
        const badForReverting = { address: signers.reverting.address, sign: async (m: string) => ownerSignature(stranger, m) };
        for (const signer of [badForReverting, signers.wrongValue]) {
          const answer = await signIn(signer);
          await expectRefusal(answer, 401, "invalid_signature", { label: signer.address });
        }
      });
      it("logs in a counterfactual EIP-6492 wallet without deploying it", async function () {
        const { signers, chain } = suite();
        const { provider } = chain;
        expect(await provider.getCode(signers.counterfactual.address)).to.equal("0x");
        const answer = await signIn(signers.counterfactual);
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
        expect(await provider.getCode(signers.counterfactual.address)).to.equal("0x");
        const claims = await idTokenOf(answer.body.code);
        expect(claims.sub).to.equal(`eip155:31337:${signers.counterfactual.address.toLowerCase()}`);
      });
      it("answers 502 when the node is down during a wallet check (never 500); an EOA's own signature needs no node", async function () {
        const { signers } = suite();
        const down = await startLoginApp("http://127.0.0.1:9", { env: { RPC_TIMEOUT_MS: "2000" } });
        try {
          const c = await registerClient(down);
          const attempt = async (signer: { address: string; sign(m: string): Promise<string> }) => {
            const query = authorizeQuery(c, signer.address);
            const { body } = await fetchJson(down, `/api/authorize?${query}`);
            return postJson(down, `/api/login`, { address: signer.address, signature: await signer.sign(body.message), client_id: c.id });
          };
          for (const signer of [signers.single, signers.counterfactual]) {
            const answer = await attempt(signer);
            await expectRefusal(answer, 502, "upstream_error");
          }
          expect((await attempt(eoa())).status).to.equal(200);
        } finally {
          await down.close();
        }
      });
      it("gives a contract wallet proven on mainnet the bare lower-case address as sub", async function () {
        const { signers, chain } = suite();
        // The local node stands in for mainnet (the provider does not check the chain id).
        const mainnet = await startLoginApp(chain.url, { env: { RPC_URL_MAINNET: chain.url, DEFAULT_NETWORK: "mainnet" } });
        try {
          const c = await registerClient(mainnet);
          const query = authorizeQuery(c, signers.single.address);
          const { body } = await fetchJson(mainnet, `/api/authorize?${query}`);
          const answer = await postJson(mainnet, `/api/login`, {
            address: signers.single.address,
            signature: await signers.single.sign(body.message),
            client_id: c.id,
          });
          expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
          const token = await exchangeCode(mainnet, c, answer.body.code, "/api/token");
          expect(decodeJwt(token.body.id_token).sub).to.equal(signers.single.address.toLowerCase());
        } finally {
          await mainnet.close();
        }
      });
    });

    describe("a signature works once", function () {
      /** A fresh EOA's login that succeeded, its payload kept to send again. */
      async function loggedIn() {
        const signer = eoa();
        const text = await message(signer.address);
        const payload = { address: signer.address, signature: await signer.sign(text), client_id: suite().client.id };
        expect((await login(payload)).status).to.equal(200);
        return { signer, payload };
      }

      it("refuses a replay of a signature that logged in", async function () {
        const { payload } = await loggedIn();
        const again = await login(payload);
        await expectRefusal(again, 401, "invalid_challenge");
      });
      it("refuses a signature over an expired challenge", async function () {
        const { t, client } = suite();
        const signer = eoa();
        const text = await message(signer.address);
        await t.app.db.query("UPDATE login_challenges SET expires_at = now() - interval '1 second' WHERE address = $1", [
          signer.address.toLowerCase(),
        ]);
        const answer = await login({ address: signer.address, signature: await signer.sign(text), client_id: client.id });
        await expectRefusal(answer, 401, "invalid_challenge");
      });
      it("refuses a replay while a newer challenge is open (the old message was consumed)", async function () {
        const { signer, payload } = await loggedIn();
        await message(signer.address);
        const again = await login(payload);
        await expectRefusal(again, 401, "invalid_signature");
      });
      it("refuses a signature over another client's message", async function () {
        const { client, other } = suite();
        const signer = eoa();
        const text = await message(signer.address, {}, other);
        const signature = await signer.sign(text);
        const noChallenge = await login({ address: signer.address, signature, client_id: client.id });
        await expectRefusal(noChallenge, 401, "invalid_challenge");
        await message(signer.address);
        const wrongMessage = await login({ address: signer.address, signature, client_id: client.id });
        await expectRefusal(wrongMessage, 401, "invalid_signature");
        // It still works for the client it was made for.
        expect((await login({ address: signer.address, signature, client_id: other.id })).status).to.equal(200);
      });
      it("refuses a challenge narrowed to another redirect_uri", async function () {
        const { client } = suite();
        const signer = eoa();
        const text = await message(signer.address);
        const answer = await login({
          address: signer.address,
          signature: await signer.sign(text),
          client_id: client.id,
          redirect_uri: "https://rp.example/cb?x=1",
        });
        await expectRefusal(answer, 401, "invalid_challenge");
      });
      it("finds the signed message among several open ones", async function () {
        const { client } = suite();
        const signer = eoa();
        const first = await message(signer.address, { state: "first" });
        await message(signer.address, { state: "second" });
        const answer = await login({ address: signer.address, signature: await signer.sign(first), client_id: client.id });
        expect(answer.status).to.equal(200);
        expect(answer.body.state).to.equal("first");
      });
    });
  });
});
