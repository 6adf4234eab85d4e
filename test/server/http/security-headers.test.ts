import { expect } from "chai";
import { PAGE_CSP } from "../../../server/http/html-page";
import { appForSuite } from "../../helpers/suite-app";

/** helmet's defaults, as every answer carries them (the HTML pages bring their own stricter CSP). */
const DEFAULTS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
    "img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';" +
    "upgrade-insecure-requests",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

describe("security headers", function () {
  const t = appForSuite();

  const headersOf = async (method: "GET" | "POST", url: string) => {
    const response = await t().app.inject({ method, url, ...(method === "POST" ? { payload: { nothing: true } } : {}) });
    return { status: response.statusCode, headers: response.headers };
  };

  for (const [what, method, url, status] of [
    ["a JSON answer", "GET", "/health", 200],
    ["an unknown path", "GET", "/no/such/path", 404],
    ["a refused body", "POST", "/api/login", 400],
    ["the OpenID configuration (oidc-provider)", "GET", "/.well-known/openid-configuration", 200],
  ] as const) {
    it(`sets helmet's defaults on ${what}`, async function () {
      const answer = await headersOf(method, url);
      expect(answer.status).to.equal(status);
      for (const [name, value] of Object.entries(DEFAULTS)) expect(answer.headers[name], name).to.equal(value);
      expect(answer.headers).not.to.have.property("x-powered-by");
    });
  }

  it("leaves a page's own policy in place", async function () {
    const answer = await headersOf("GET", "/convert");
    expect(answer.status).to.equal(200);
    expect(answer.headers["content-security-policy"]).to.equal(PAGE_CSP);
    expect(answer.headers["x-content-type-options"]).to.equal("nosniff");
  });
});
