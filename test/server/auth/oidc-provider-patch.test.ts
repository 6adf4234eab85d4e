import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";

interface Seen {
  before: unknown;
  after: unknown;
  again: unknown;
  own: PropertyDescriptor | undefined;
}

/**
 * patches/oidc-provider+*.patch: oidc-provider gives each request its `ctx.oidc` through one getter on the Koa
 * context's prototype, not through an accessor (with a closure of its own) defined on every request's context, which
 * kept every request's context alive until the next full garbage collection. npm applies the patch after installing
 * (`postinstall`); an oidc-provider release it does not fit stops `npm ci` there.
 */
describe("oidc-provider patch (ctx.oidc)", function () {
  let server: Server;
  let url: string;
  const seen: Seen[] = [];

  before(async function () {
    const { Provider } = await import("oidc-provider");
    // A signing key and an adapter of its own keep oidc-provider from warning about its development defaults; the jwks
    // route reads neither the adapter nor a client.
    const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
    class NoStorage {
      async find() {
        return undefined;
      }
    }
    const provider = new Provider("http://127.0.0.1", {
      adapter: NoStorage,
      jwks: { keys: [{ ...jwk, kid: "test" }] },
      features: { devInteractions: { enabled: false } },
    });
    // Runs before oidc-provider's router: what a request's context holds before and after the provider handles it.
    provider.use(async (ctx: { oidc?: unknown }, next: () => Promise<void>) => {
      const before = ctx.oidc;
      await next();
      seen.push({ before, after: ctx.oidc, again: ctx.oidc, own: Object.getOwnPropertyDescriptor(ctx, "oidc") });
    });
    server = createServer(provider.callback());
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(function () {
    server.close();
  });

  beforeEach(function () {
    seen.length = 0;
  });

  it("gives a routed request its OIDC context through the shared getter, not an accessor of its own", async function () {
    expect((await fetch(`${url}/jwks`)).status).to.equal(200);
    expect(seen).to.have.length(1);
    expect(seen[0].before, "before the router").to.equal(undefined);
    expect(seen[0].after).to.be.an("object").with.property("route", "jwks");
    expect(seen[0].own, "an own ctx.oidc accessor on every request is what the patch removes").to.equal(undefined);
  });

  it("hands the same OIDC context to every read within one request, and a new one to the next request", async function () {
    await fetch(`${url}/jwks`);
    await fetch(`${url}/jwks`);
    expect(seen).to.have.length(2);
    expect(seen[0].again).to.equal(seen[0].after);
    expect(seen[0].after).not.to.equal(seen[1].after);
  });

  it("leaves ctx.oidc undefined on a request no route of the provider takes, as without the patch", async function () {
    expect((await fetch(`${url}/no-such-route`)).status).to.equal(404); // not a refusal of the service: a bare oidc-provider's
    expect(seen[0].after).to.equal(undefined);
  });
});
