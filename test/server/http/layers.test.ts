import path from "node:path";
import { expect } from "chai";
import { SourceImports } from "../../helpers/imports";

const SERVER = path.resolve(__dirname, "..", "..", "..", "server");

const graph = new SourceImports(SERVER);

const under = (dir: string) => (target: string) => target === dir || target.startsWith(`${dir}${path.sep}`);

describe("layers (which module may import which)", function () {
  it("reads the imports it checks", function () {
    expect(graph.importsOf(path.join("http", "errors.ts"))).to.include.members([
      "fastify",
      path.join("lib", "domain-error"),
      path.join("http", "http-error"),
    ]);
  });

  it("the HTTP layer imports nothing from the chain layer, and the chain layer nothing from the HTTP layer", function () {
    expect(graph.offenders(graph.sources("http"), under("chain"))).to.deep.equal({});
    expect(graph.offenders(graph.sources("chain"), under("http"))).to.deep.equal({});
  });

  it("only server/auth/oidc/ imports oidc-provider, and the rest of the server imports that folder through its entry", function () {
    const oidc = path.join("auth", "oidc");
    const outside = graph.sources(".").filter((file) => !under(oidc)(file));
    expect(graph.offenders(outside, (target) => target === "oidc-provider")).to.deep.equal({});
    expect(graph.offenders(outside, (target) => under(oidc)(target) && ![oidc, path.join(oidc, "index")].includes(target))).to.deep.equal(
      {},
    );
  });

  it("the metadata domain modules know neither HTTP nor Fastify", function () {
    const domain = ["store.ts", "body.ts", "proof.ts", "errors.ts", "statement-json.ts", "served.ts", "index.ts"].map((file) =>
      path.join("metadata", file),
    );
    expect(graph.offenders(domain, (target) => under("http")(target) || /fastify/.test(target))).to.deep.equal({});
  });
});
