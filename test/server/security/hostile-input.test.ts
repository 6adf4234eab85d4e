import { expect } from "chai";
import { Wallet } from "ethers";
import type { InjectOptions } from "fastify";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { expectRefusal, type Answer } from "../../helpers/refusal";
import { authorizeQuery, registerClient, startLoginApp, type RegisteredClient } from "../auth/helpers";

/** Requests an attacker would send; each must end in a 4xx of the endpoint's documented shape, never a 5xx. */
describe("hostile input", function () {
  let t: TestApp;
  let client: RegisteredClient;
  const address = Wallet.createRandom().address;
  const contract = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

  before(async function () {
    // It listens for the oversized-headers test: the 431 is Node's HTTP parser refusing, which app.inject never runs.
    t = await startLoginApp((await sharedNode()).url, { listen: true });
    client = await registerClient(t);
  });
  after(async () => t?.close());

  const inject = (options: InjectOptions) => t.app.inject(options);
  const form = (fields: Record<string, string>) => ({
    method: "POST" as const,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(fields).toString(),
  });

  const expectApiError = (response: Answer, status = 400, code = "invalid_request") => expectRefusal(response, status, code);
  const expectOAuthError = (response: Answer, status = 400, code = "invalid_request") =>
    expectRefusal(response, status, code, { dialect: "oauth" });

  describe("NUL and other control characters", function () {
    for (const field of ["state", "nonce", "client_id", "scope", "network"]) {
      it(`refuses a NUL in /api/authorize ${field} with 400 invalid_request`, async function () {
        await expectApiError(await inject({ url: `/api/authorize?${authorizeQuery(client, address, { [field]: "a\u0000b" })}` }));
      });
    }
    it("refuses C1 controls and DEL in a query value", async function () {
      await expectApiError(await inject({ url: `/api/authorize?${authorizeQuery(client, address, { state: "a\u0085b" })}` }));
      await expectApiError(await inject({ url: `/api/authorize?${authorizeQuery(client, address, { state: "a\u007fb" })}` }));
    });
    for (const field of ["client_id", "message", "redirect_uri", "state", "address", "signature"]) {
      it(`refuses a NUL in /api/login ${field} (JSON and form) with 400 invalid_request`, async function () {
        const fields: Record<string, string> = { address, signature: `0x${"11".repeat(65)}`, client_id: client.id, [field]: "x\u0000y" };
        await expectApiError(await inject({ method: "POST", url: "/api/login", payload: fields }));
        await expectApiError(await inject({ url: "/api/login", ...form(fields) }));
      });
    }
    it("accepts line breaks in a /api/login message (the signed message has four lines)", async function () {
      const response = await inject({
        method: "POST",
        url: "/api/login",
        payload: { address, signature: `0x${"11".repeat(65)}`, client_id: client.id, message: "a\nb\r\nc" },
      });
      await expectRefusal(response, 401, "invalid_challenge");
    });
    for (const field of ["code", "client_id", "redirect_uri", "code_verifier"]) {
      it(`refuses a NUL in /token ${field} with an RFC 6749 error`, async function () {
        const fields: Record<string, string> = {
          grant_type: "authorization_code",
          code: "abc",
          redirect_uri: client.redirectUri,
          client_id: client.id,
          client_secret: client.secret!,
          [field]: "x\u0000y",
        };
        await expectOAuthError(await inject({ url: "/token", ...form(fields) }));
        await expectOAuthError(await inject({ url: "/api/token", ...form(fields) }));
      });
    }
    it("refuses a NUL in a refresh_token and in a revoked token with an RFC 6749 error", async function () {
      await expectOAuthError(
        await inject({
          url: "/token",
          ...form({ grant_type: "refresh_token", refresh_token: "r\u0000", client_id: client.id, client_secret: client.secret! }),
        }),
      );
      await expectOAuthError(
        await inject({ url: "/token/revocation", ...form({ token: "t\u0000", client_id: client.id, client_secret: client.secret! }) }),
      );
    });
    it("answers a NUL in a client_id inside a Basic header with an RFC 6749 error, not a 500", async function () {
      const basic = Buffer.from("a%00b:secret").toString("base64");
      const response = await inject({
        url: "/token",
        ...form({ grant_type: "authorization_code", code: "abc", redirect_uri: client.redirectUri }),
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
      });
      await expectOAuthError(response, 400, "invalid_request");
    });
    for (const field of ["state", "nonce", "acr_values", "ui_locales", "client_id"]) {
      it(`answers a NUL in /authorize ${field} with the HTML error page (400)`, async function () {
        const query = new URLSearchParams({
          client_id: client.id,
          redirect_uri: client.redirectUri,
          response_type: "code",
          scope: "openid",
          [field]: "x\u0000y",
        });
        for (const response of [
          await inject({ url: `/authorize?${query}` }),
          await inject({ url: "/authorize", ...form(Object.fromEntries(query)) }),
        ]) {
          await expectRefusal(response, 400, "invalid_request", { dialect: "html" });
          expect(response.body).to.include("Sign-in error");
        }
      });
    }
    it("answers a POST to /authorize without a form body with the HTML error page (405 naming GET), not oidc-provider's bare 404", async function () {
      for (const options of [{}, { headers: { "content-type": "application/json" }, payload: "{}" }]) {
        const response = await inject({ method: "POST", url: "/authorize", ...options });
        await expectRefusal(response, 405, "method_not_allowed", { dialect: "html", headers: { allow: "GET" } });
        expect(response.body).to.include("Sign-in error");
      }
    });
    it("answers a NUL in a /userinfo access_token with an RFC 6749 error", async function () {
      await expectOAuthError(await inject({ url: "/userinfo?access_token=a%00b" }));
    });
    it("refuses a NUL in a metadata path, query and body", async function () {
      await expectApiError(await inject({ url: `/metadata/localhost/${contract}/1%00` }));
      await expectApiError(await inject({ url: `/metadata/localhost/${contract}/1?iss=%00` }));
      await expectApiError(
        await inject({
          method: "POST",
          url: `/metadata/localhost/${contract}/1`,
          payload: { iss: address, sig: "0x00", metadata: "e30=", extra: "\u0000" },
        }),
      );
    });
  });

  describe("malformed encodings and values", function () {
    it("refuses invalid percent-encoding and invalid UTF-8 in a query", async function () {
      await expectApiError(await inject({ url: `/api/authorize?${authorizeQuery(client, address)}&state=%E0%A4%A` }));
      await expectApiError(await inject({ url: `/api/authorize?${authorizeQuery(client, address)}&state=%C3%28` }));
      await expectApiError(await inject({ url: `/blocks/latest?x=%` }));
    });
    it("refuses invalid percent-encoding in a path in the documented shape", async function () {
      await expectApiError(await inject({ url: `/metadata/localhost/${contract}/%E0%A4%A` }));
    });
    it("answers an overlong path parameter with 414 uri_too_long in the documented shape", async function () {
      await expectApiError(await inject({ url: `/metadata/localhost/${contract}/${"1".repeat(200)}` }), 414, "uri_too_long");
    });
    it("answers oversized headers with 431 in the documented shape", async function () {
      const response = await fetch(`${t.url}/health`, { headers: { "x-big": "a".repeat(20_000) } });
      await expectRefusal(response, 431, "headers_too_large", { message: "The request headers are too large" });
    });
    it("refuses wrong JSON types in /api/login", async function () {
      await expectApiError(await inject({ method: "POST", url: "/api/login", payload: { address: 1, signature: [], client_id: {} } }));
    });
    it("refuses a form body with invalid percent-encoding on /token", async function () {
      await expectOAuthError(
        await inject({
          method: "POST",
          url: "/token",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: "grant_type=%zz&code=%E0%A4%A",
        }),
      );
    });
    for (const sig of ["zz", "0x123", "0x", "0xzz", "1234"]) {
      it(`refuses metadata sig ${JSON.stringify(sig)} with 400 malformed_signature on both routes`, async function () {
        const payload = { iss: address, sig, metadata: "e30=" };
        await expectApiError(
          await inject({ method: "POST", url: `/metadata/ethereum/localhost/${address}`, payload }),
          400,
          "malformed_signature",
        );
        await expectApiError(
          await inject({ method: "POST", url: `/metadata/localhost/${contract}/1`, payload }),
          400,
          "malformed_signature",
        );
      });
    }
  });
});
